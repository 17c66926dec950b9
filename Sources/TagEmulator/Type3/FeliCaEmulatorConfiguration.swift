import NFCTags

/// The FeliCa Lite-S behaviours `docs/reference/type3.md` marks unverified, as options with documented defaults, and
/// the processing times the RF model assumes (§1.1 gives only PMm upper bounds).
public struct FeliCaEmulatorConfiguration: Sendable, Hashable {
    /// SF1 SF2 of a Write Without Encryption to a block MC protects (§2.4 item 5: "probably A5 or B2").
    /// Default `01 A5` (access not allowed).
    public var refusedWriteStatus: [UInt8] = [0x01, 0xA5]
    /// SF1 SF2 of a Read or Write of a block the chip lacks (§1.2: "e.g. `01 A8`"). Default `01 A8`.
    public var missingBlockStatus: [UInt8] = [0x01, 0xA8]
    /// Whether Read Without Encryption accepts service `0009` as well as `000B` (§2.4 item 4, unverified).
    /// Default `true`.
    public var readAcceptsWriteService = true
    /// Whether WCNT (`90`) counts each successful write (§2.4 item 8, unverified). Default `true`.
    public var countsWrites = true
    /// The system code a Polling `FFFF` with RC `01` answers while NDEF is enabled (§3 item 8, unverified):
    /// `88B4` (default) or `12FC`.
    public var wildcardSystemCode: UInt16 = FeliCaLiteS.systemCode
    /// The chip's time to answer a Read, per command (§1.1: "0.3–0.6 ms", unverified). Default 450 µs; the
    /// PMm bound (0.91 ms for one block) caps it.
    public var readMicroseconds = 450.0
    /// The chip's time to program one block (§1.1: "2–4 ms", unverified). Default 3 ms; the PMm bound (6.04 ms
    /// for one block) caps it.
    public var writeMicroseconds = 3000.0

    /// The defaults.
    public init() {}
}
