/// Password protection to set on one tag: its password and acknowledge, where protection starts, and
/// the access settings (NTAG21x PWD/PACK/AUTH0/ACCESS, `docs/reference/type2.md` §2.6, §3.6).
public struct PasswordProtection: Sendable, Hashable {
    /// Where protection starts (`AUTH0` on NTAG21x).
    public enum Start: Sendable, Hashable {
        /// This page and above.
        case page(Int)
        /// The first page of the NDEF TLV (page 4).
        case ndef
        /// Only the configuration pages: AUTH0 = the CFG0 page (CFG0, CFG1, PWD and PACK need the password).
        case end
    }

    /// The 4-byte password (PWD).
    public var password: [UInt8]
    /// The 2-byte acknowledge the tag answers a correct password with (PACK).
    public var acknowledge: [UInt8]
    /// Where protection starts.
    public var start: Start
    /// Whether reads need the password too (`PROT` = 1), not only writes.
    public var protectsReads: Bool
    /// Failed attempts before the tag disables the password for good (AUTHLIM 1–7; 0: unlimited).
    public var authLimit: Int
    /// Whether the configuration is frozen for good (CFGLCK).
    public var configLock: Bool

    /// Creates protection settings.
    public init(
        password: [UInt8], acknowledge: [UInt8], start: Start, protectsReads: Bool = false, authLimit: Int = 0,
        configLock: Bool = false
    ) {
        self.password = password
        self.acknowledge = acknowledge
        self.start = start
        self.protectsReads = protectsReads
        self.authLimit = authLimit
        self.configLock = configLock
    }
}
