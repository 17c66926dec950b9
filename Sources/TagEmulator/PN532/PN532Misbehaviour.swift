/// How the emulated PN532 itself misbehaves on one tag command's reply (`--misbehave`, a
/// `FaultPlan`), as a failing UART, cable or chip firmware would (`docs/reference/pn532-libnfc.md` §8.7).
///
/// | KIND | what the host receives instead of ACK + reply |
/// |---|---|
/// | `dcs` | ACK, then the reply with its data checksum (DCS) inverted |
/// | `lcs` | ACK, then the reply with its length checksum (LCS) inverted |
/// | `truncate` | ACK, then the first half of the reply frame, nothing more |
/// | `wrongcode` | ACK, then a well-formed reply with response code CC + 3 instead of CC + 1 |
/// | `nackstorm` | 16 NACK frames (`00 00 FF FF 00 00`) and no ACK, for this command and the next 3 |
/// | `noack` | nothing (ACK and reply lost) |
/// | `vanish` | the reader is unplugged: the pty is closed and the emulator stops |
///
/// Tag-level misbehaviour (garbage, short, long, NAK, silence) belongs to the tag: `plan=` in the
/// `--tags` spec.
public enum PN532Misbehaviour: String, Sendable, Hashable, CaseIterable {
    case dcs, lcs, truncate, wrongcode, nackstorm, noack, vanish

    /// Parses one KIND word.
    public static func parse(_ word: String) -> PN532Misbehaviour? { PN532Misbehaviour(rawValue: word) }

    /// How many host frames in a row a NACK storm swallows.
    static let stormFrames = 4
}
