/// The reader family, which decides how raw Type 2 commands reach the tag (`pcsc-vpcd.md` §10.2–10.4).
///
/// ```
/// acr122u   FF 00 00 00 Lc D4 42 <cmd>      → D5 43 <status> <answer> 90 00   (PN532 InCommunicateThru)
/// acr1252u  FF C2 00 01 Lc 95 <len> <cmd>    → C0 03 … 97 <len> <answer> 90 00 (PC/SC part 3 session)
/// plain     none: READ by FF B0, WRITE by FF D6 only
/// ```
///
/// Type 4 (ISO-DEP) tags need nothing from the style: their C-APDUs pass unchanged on every reader.
public enum PCSCReaderStyle: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// ACS ACR122U (and ACR122T/L): PN532 direct transmit, LED/buzzer pseudo-APDU.
    case acr122u
    /// ACS ACR1252U-class readers: transparent exchange `FF C2`.
    case acr1252u
    /// Any other PC/SC reader: storage-card pseudo-APDUs only.
    case plain

    /// The family guessed from a reader name; unknown readers are `plain` (override with `?style=`).
    public init(readerName: String) {
        let name = readerName.uppercased()
        if name.contains("ACR122") {
            self = .acr122u
        } else if name.contains("ACR1252") || name.contains("ACR1255") || name.contains("ACR1281")
            || name.contains("ACR1552")
        {
            self = .acr1252u
        } else {
            self = .plain
        }
    }

    /// Whether raw commands beyond READ and WRITE reach the tag.
    public var hasRawPath: Bool { self != .plain }

    public var description: String { rawValue }
}
