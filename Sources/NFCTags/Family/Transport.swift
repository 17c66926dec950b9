/// The air interface a family's tags speak, and so what a reader backend must reach to serve them.
///
/// A family declares its tags' transport (`TagFamily.transport`); a backend declares the transports it reaches,
/// and the families it serves follow from the two (`TagFamilies.reached(by:)`).
public enum Transport: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// ISO/IEC 14443-3 type A frames after anticollision (NFC Forum Type 2).
    case iso14443A = "ISO 14443-A"
    /// ISO/IEC 14443-4 (ISO-DEP) blocks carrying APDUs (NFC Forum Type 4).
    case isoDEP = "ISO-DEP"
    /// ISO/IEC 15693 vicinity requests (NFC Forum Type 5).
    case iso15693 = "ISO 15693"
    /// JIS X 6319-4 FeliCa frames at 212/424 kbit/s (NFC Forum Type 3).
    case feliCa = "FeliCa"

    /// The name shown to people (`ISO 14443-A`).
    public var description: String { rawValue }
}
