import NFCTags

/// The reader family, which decides how raw tag commands reach the tag (`docs/reference/pcsc.md` §10.2–10.4,
/// `docs/reference/type5.md` §3.3–3.5).
///
/// ```
/// acr122u   FF 00 00 00 Lc D4 42 <cmd>      → D5 43 <status> <answer> 90 00   (PN532 InCommunicateThru)
/// acr1252u  FF C2 00 01 Lc 95 <len> <cmd>    → C0 03 … 97 <len> <answer> 90 00 (PC/SC part 3 session)
/// acr1552u  as acr1252u; ISO 15693 too (FF B0/D6 block number in P2)
/// omnikey   as acr1252u; ISO 15693 too (FF B0/D6 block number in P1)
/// storage   none: FF B0 / FF D6 only (ISO 15693 block number in P1); a Type 5 lock is lockUnsupported
/// plain     none: READ by FF B0, WRITE by FF D6 only
/// ```
///
/// FeliCa (Type 3) frames go through direct transmit on acr122u (`D4 40 01`) and acr1252u (bare frame) only
/// (`FeliCaDirectTransmit`).
///
/// Type 4 (ISO-DEP) tags need nothing from the style: their C-APDUs pass unchanged on every reader. Only
/// readers with an ISO 15693 front end (ACR1552U, OMNIKEY 5022/5427, uTrust 3700 F) ever show a Type 5 tag;
/// PN532-class readers (ACR122U, ACR1252U) cannot reach ISO 15693 at all.
public enum PCSCReaderStyle: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// ACS ACR122U (and ACR122T/L): PN532 direct transmit, LED/buzzer pseudo-APDU.
    case acr122u
    /// ACS ACR1252U-class readers: transparent exchange `FF C2`.
    case acr1252u
    /// ACS ACR1552U (and ACR1555U): transparent exchange `FF C2`, ISO 15693 included.
    case acr1552u
    /// HID OMNIKEY 5022/5422/5427: transparent exchange `FF C2`, ISO 15693 included ([UNVERIFIED] on hardware).
    case omnikey
    /// A PC/SC storage-card reader: `FF CA`, `FF B0`, `FF D6` only (Microsoft's convention for blocks).
    case storage
    /// Any other PC/SC reader: storage-card pseudo-APDUs only.
    case plain

    /// The family guessed from a reader name; unknown readers are `plain` (override with `?style=`).
    public init(readerName: String) {
        let name = readerName.uppercased()
        if name.contains("ACR122") {
            self = .acr122u
        } else if name.contains("ACR1552") || name.contains("ACR1555") {
            self = .acr1552u
        } else if name.contains("ACR1252") || name.contains("ACR1255") || name.contains("ACR1281") {
            self = .acr1252u
        } else if name.contains("OMNIKEY") {
            self = .omnikey
        } else {
            self = .plain
        }
    }

    /// Whether raw commands beyond READ and WRITE reach a Type 2 tag.
    public var hasRawPath: Bool { self != .plain && self != .storage }

    /// Whether the reader has the PC/SC part 3 transparent exchange (`FF C2`).
    public var hasTransparentExchange: Bool { self == .acr1252u || self == .acr1552u || self == .omnikey }

    /// Whether raw ISO 15693 commands (Lock Block, Get System Information, security status) reach a Type 5
    /// tag: only through the transparent exchange.
    public var reachesRawISO15693: Bool { hasTransparentExchange }

    /// Where `FF B0` / `FF D6` put an ISO 15693 block number: P2 on ACS readers, P1 on the others.
    public var type5BlockNumber: Type5StorageAPDU.BlockNumber {
        switch self {
        case .acr122u, .acr1252u, .acr1552u, .plain: .inP2
        case .omnikey, .storage: .inP1
        }
    }

    /// Whether a reader of this style can present ISO 15693 (Type 5) tags at all (`docs/reference/type5.md` §3.5).
    public var readsISO15693: Bool { self != .acr122u && self != .acr1252u }

    /// How the style's direct transmit carries a FeliCa (Type 3) frame, `nil` when it cannot
    /// (`FeliCaDirectTransmit`): PN532 InDataExchange on the ACR122U, the bare frame on the ACR1252U. The other
    /// styles have no documented FeliCa path.
    public var feliCaDirectTransmit: FeliCaDirectTransmit? { FeliCaDirectTransmit(readerStyle: rawValue) }

    /// The style names, for messages (`acr122u, acr1252u, …`).
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    public var description: String { rawValue }
}
