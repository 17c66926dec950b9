import NFCTags

/// Where a row's SUN tokens land in the NDEF file, and the NTAG 424 DNA file settings that make the chip fill them
/// (`type4-ntag424.md` §2.7, §3): the one place SDM offsets and keys are chosen.
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

    /// The key numbers SDM uses.
    public static let metaReadKey: UInt8 = 1
    /// The SUN MAC key number.
    public static let fileReadKey: UInt8 = 2
    /// The NDEF write key number under `lock: keys`.
    public static let writeKey: UInt8 = 3

    /// The NDEF file's settings for a job's `lock` mode with these mirrors: Read free; Write/ReadWrite free (`none`),
    /// K3 (`keys`) or never (`permanent`); Change K0, or never for `permanent`; plain communication.
    public func fileSettings(lock: Manifest.LockMode, macInput: NTAG424JobOptions.MACInput) -> NTAG424FileSettings {
        let (write, change): (UInt8, UInt8) =
            switch lock {
            case .none: (NTAG424FileSettings.free, 0)
            case .keys: (Self.writeKey, 0)
            case .permanent: (NTAG424FileSettings.never, NTAG424FileSettings.never)
            }
        return NTAG424FileSettings(
            read: NTAG424FileSettings.free, write: write, readWrite: write, change: change, sdm: sdm(macInput: macInput)
        )
    }

    /// The SDM block; `nil` when the template has no SUN token.
    func sdm(macInput: NTAG424JobOptions.MACInput) -> NTAG424FileSettings.SDM? {
        guard !offsets.isEmpty else { return nil }
        let mac = offsets[.mac]
        let fileRead = mac != nil ? Self.fileReadKey : NTAG424FileSettings.never
        if let picc = offsets[.picc] {
            return .init(
                metaRead: Self.metaReadKey, fileRead: fileRead, piccDataOffset: picc,
                macInputOffset: mac.map { macInput == .picc ? picc : $0 }, macOffset: mac)
        }
        let uid = offsets[.uid]
        let counter = offsets[.counter]
        let firstMirror = [uid, counter].compactMap { $0 }.min()
        return .init(
            metaRead: NTAG424FileSettings.free, fileRead: fileRead, mirrorsUID: uid != nil,
            mirrorsCounter: counter != nil,
            uidOffset: uid, counterOffset: counter,
            macInputOffset: mac.map { macInput == .picc ? (firstMirror ?? $0) : $0 }, macOffset: mac)
    }
}
