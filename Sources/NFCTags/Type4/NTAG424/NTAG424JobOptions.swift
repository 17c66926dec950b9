/// The manifest's `ntag424` section: keyed NTAG 424 DNA personalisation (docs/authentication.md).
///
/// ```json
/// "tag": "ntag424",
/// "keys": {"brand": {"env": "BRAND_MASTER_KEY"}},
/// "ntag424": {"master": "brand", "systemIdentifier": "brand-2026", "macInput": "picc"}
/// ```
///
/// `master` names the AES-128 master key in `keys`; every tag's K0–K4 are diversified from it with AN10922 over
/// `systemIdentifier` (UTF-8, 1–20 bytes; default: the job name when it fits). `macInput` says what the SUN MAC
/// covers: `picc` (from the PICC data to the MAC) or `empty` (the Bolt card layout: the MAC's session key alone
/// binds UID and counter).
public struct NTAG424JobOptions: KeyedJobOptions, Hashable {
    /// What the SDM MAC is computed over.
    public enum MACInput: String, Sendable, Hashable, CaseIterable {
        /// The file bytes from the PICC data (or the first plain mirror) up to the MAC.
        case picc
        /// Nothing (SDMMACInputOffset = SDMMACOffset).
        case empty
    }

    /// The id of the master key in the manifest's `keys`.
    public var master: String
    /// The AN10922 system identifier, 1–20 bytes.
    public var systemIdentifier: [UInt8]
    /// The SUN MAC input.
    public var macInput: MACInput

    /// The keys the section may contain.
    public static let knownKeys = ["master", "systemIdentifier", "macInput"]
    /// The longest system identifier AN10922 diversification takes here (M is at most 1 + 7 + 1 + 20 … 31 bytes).
    public static let maximumSystemIdentifier = 20

    /// Creates the options.
    public init(master: String, systemIdentifier: [UInt8], macInput: MACInput = .picc) {
        self.master = master
        self.systemIdentifier = systemIdentifier
        self.macInput = macInput
    }

    public var masterKeyID: String { master }
}
