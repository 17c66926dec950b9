/// Where a row's SUN tokens land in the NDEF file, and the NTAG 424 DNA file settings that make the chip fill them
/// (`docs/reference/type4.md` §2.7, §3): the one place SDM offsets and keys are chosen.
///
/// Key roles (docs/authentication.md): K1 encrypts the PICC data (SDMMetaRead), K2 keys the SUN MAC
/// (SDMFileRead), K3 writes the NDEF file under `lock: keys`, K0 changes the settings.
public struct SUNLayout: Sendable, Hashable {
    /// The NDEF file offset of each token's window (the message's offset plus the 2-byte NLEN).
    public var offsets: [SUNToken: Int]
    /// The job's rights on the file and what the MAC covers.
    public var options: DynamicMessageOptions

    /// Creates a layout from file offsets (by default for a permanently locked tag whose MAC covers the message).
    public init(
        offsets: [SUNToken: Int], options: DynamicMessageOptions = .init(rights: .never, macCoversMessage: true)
    ) {
        self.offsets = offsets
        self.options = options
    }

    /// NLEN's size in the NTAG 424 DNA's NDEF file, before the message (its CC is mapping 2.0).
    public static let nlenSize = 2
    /// The NDEF file's size (bytes), which SDM offsets must fit; the GetFileSettings answer carries it.
    public static let ndefFileSize = Type4ChipModel.ntag424DNA.ndefFileSize ?? 256

    /// The PICC data key number (SDMMetaRead).
    public static let metaReadKey: UInt8 = 1
    /// The SUN MAC key number (SDMFileRead).
    public static let fileReadKey: UInt8 = 2
    /// The NDEF write key number under `lock: keys`.
    public static let writeKey: UInt8 = 3

    /// The NDEF file's settings for the job's rights with these mirrors: Read free; Write/ReadWrite free, K3 (only
    /// with the tag's write key) or never (a permanent lock); Change K0, or never for a permanent lock; plain
    /// communication.
    public var fileSettings: Type4FileSettings {
        let (write, change): (Type4FileSettings.Access, Type4FileSettings.Access) =
            switch options.rights {
            case .free: (.free, .key(0))
            case .key: (.key(Self.writeKey), .key(0))
            case .never: (.never, .never)
            }
        return Type4FileSettings(
            communicationMode: .plain, read: .free, write: write, readWrite: write, change: change, sdm: sdm)
    }

    /// The SDM block; `nil` when the template has no SUN token.
    var sdm: Type4SDMSettings? {
        guard !offsets.isEmpty else { return nil }
        var sdm = Type4SDMSettings()
        let mac = offsets[.mac]
        if let mac {
            sdm.fileRead = .key(Self.fileReadKey)
            sdm.macOffset = mac
        }
        let macInputStart: Int?
        if let picc = offsets[.picc] {
            sdm.metaRead = .key(Self.metaReadKey)
            (sdm.mirrorsUID, sdm.mirrorsReadCounter) = (true, true)
            sdm.piccDataOffset = picc
            macInputStart = picc
        } else {
            sdm.metaRead = .free
            if let uid = offsets[.uid] { (sdm.mirrorsUID, sdm.uidOffset) = (true, uid) }
            if let counter = offsets[.counter] { (sdm.mirrorsReadCounter, sdm.readCounterOffset) = (true, counter) }
            macInputStart = [offsets[.uid], offsets[.counter]].compactMap { $0 }.min()
        }
        if let mac { sdm.macInputOffset = options.macCoversMessage ? (macInputStart ?? mac) : mac }
        return sdm
    }
}

extension SUNLayout: DynamicMessageLayout {
    public func refusal() -> String? {
        do {
            _ = try fileSettings.validated(fileSize: Self.ndefFileSize, currentCounter: 0)
            return nil
        } catch {
            return if case .parameter(let rule) = error { rule } else { error.description }
        }
    }

    public var settingsAnswer: [UInt8] { fileSettings.fileSettingsAnswer(fileSize: Self.ndefFileSize) }

    public func checkReadBack(_ message: [UInt8], written: [UInt8], uid: [UInt8], keys: [SecretKey], counter: UInt32?)
        throws(DynamicMessageProblem) -> UInt32?
    {
        let file = [UInt8(message.count >> 8), UInt8(message.count & 0xFF)] + message
        do {
            return try SUNReadBack(
                sdm: sdm, metaReadKey: keys[Int(Self.metaReadKey)], fileReadKey: keys[Int(Self.fileReadKey)]
            )
            .check(file, message: written, uid: uid, counter: counter).counter
        } catch {
            throw DynamicMessageProblem("\(error)")
        }
    }
}
