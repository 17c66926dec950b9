import NFCTags

/// Where a row's SUN tokens land in the NDEF file, and the NTAG 424 DNA file settings that make the chip fill them
/// (`docs/reference/type4.md` §2.7, §3): the one place SDM offsets and keys are chosen.
///
/// Key roles (docs/authentication.md): K1 encrypts the PICC data (SDMMetaRead), K2 keys the SUN MAC
/// (SDMFileRead), K3 writes the NDEF file under `lock: keys`, K0 changes the settings.
public struct SUNLayout: Sendable, Hashable {
    /// The NDEF file offset of each token's window (the message's offset plus the 2-byte NLEN).
    public var offsets: [SUNToken: Int]

    /// Creates a layout from file offsets.
    public init(offsets: [SUNToken: Int]) {
        self.offsets = offsets
    }

    /// The PICC data key number (SDMMetaRead).
    public static let metaReadKey: UInt8 = 1
    /// The SUN MAC key number (SDMFileRead).
    public static let fileReadKey: UInt8 = 2
    /// The NDEF write key number under `lock: keys`.
    public static let writeKey: UInt8 = 3

    /// The NDEF file's settings for a job's `lock` mode with these mirrors: Read free; Write/ReadWrite free (`none`),
    /// K3 (`keys`) or never (`permanent`); Change K0, or never for `permanent`; plain communication.
    public func fileSettings(lock: Manifest.LockMode, macInput: NTAG424JobOptions.MACInput) -> Type4FileSettings {
        let (write, change): (Type4FileSettings.Access, Type4FileSettings.Access) =
            switch lock {
            case .none: (.free, .key(0))
            case .keys: (.key(Self.writeKey), .key(0))
            case .permanent: (.never, .never)
            }
        return Type4FileSettings(
            communicationMode: .plain, read: .free, write: write, readWrite: write, change: change,
            sdm: sdm(macInput: macInput))
    }

    /// The SDM block; `nil` when the template has no SUN token.
    func sdm(macInput: NTAG424JobOptions.MACInput) -> Type4SDMSettings? {
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
        if let mac { sdm.macInputOffset = macInput == .picc ? (macInputStart ?? mac) : mac }
        return sdm
    }
}
