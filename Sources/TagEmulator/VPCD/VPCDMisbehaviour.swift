import NDEF

/// How the vpcd virtual card misbehaves on one APDU's answer (`--misbehave`, a `FaultPlan` whose
/// exchange N is the N-th command APDU sent to that tag), as a faulty reader firmware or a dying link
/// would (`docs/reference/pcsc.md` §6).
///
/// | KIND | what pcscd receives instead of the R-APDU `data SW1 SW2` |
/// |---|---|
/// | `sw:XXXX` | just the status word `XX XX` (e.g. `sw:6A82`, `sw:6F00`) |
/// | `short` | the R-APDU less its last data byte (a 2-byte R-APDU becomes `SW1` alone) |
/// | `malformed` | the R-APDU followed by two more bytes (`DE AD`): no status word at the end |
/// | `empty` | a zero-length frame (vpcd takes it as "card gone") |
/// | `drop` | nothing: the card closes its vpcd socket after the tag carried out the command |
/// | `hold` | nothing, the link left open: the reader waits (vpcd has no timeout) until pcscd goes away |
///
/// After `empty` and `drop` the same tag is presented again once pcscd has seen it leave; after `hold` (a test's
/// pause in the middle of a tag, the command carried out) once a pcscd listens again. Tag-level
/// misbehaviour belongs to the tag: `plan=` in the `--tags` spec.
public enum VPCDMisbehaviour: Sendable, Hashable {
    case statusWord(UInt8, UInt8)
    case short
    case malformed
    case empty
    case drop
    case hold

    /// Parses one KIND word.
    public static func parse(_ word: String) -> VPCDMisbehaviour? {
        switch word {
        case "short": return .short
        case "malformed": return .malformed
        case "empty": return .empty
        case "drop": return .drop
        case "hold": return .hold
        default:
            guard word.hasPrefix("sw:"), let bytes = Hex.bytes(String(word.dropFirst(3))), bytes.count == 2 else {
                return nil
            }
            return .statusWord(bytes[0], bytes[1])
        }
    }

    /// The KIND words, for messages.
    public static let kinds = "sw:XXXX, short, malformed, empty, drop, hold"

    /// The wrong answer in place of `reply` (`nil` for `drop` and `hold`: no answer at all).
    func apply(to reply: [UInt8]) -> [UInt8]? {
        switch self {
        case .statusWord(let sw1, let sw2): return [sw1, sw2]
        case .short: return reply.count > 2 ? reply.prefix(reply.count - 3) + reply.suffix(2) : Array(reply.prefix(1))
        case .malformed: return reply + [0xDE, 0xAD]
        case .empty: return []
        case .drop, .hold: return nil
        }
    }
}
