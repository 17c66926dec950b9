import NFCTags

/// Faults injected into one emulated tag (`docs/reference/type2.md` §9 item 6, issue 3 "Faults").
///
/// Faults that shape the tag itself (`preLocked`, `unformatted`, `identity`) are applied when the tag is made;
/// `wrongChip` and `secondTag` are population faults that `TagField` applies; the rest fire while the
/// tag is driven. Exchanges are counted from 1 over every command frame (not activation frames).
public struct TagFaults: Sendable, Hashable {
    /// The tag leaves the field during exchange `n + 1`, after `n` complete exchanges. A WRITE (or
    /// COMPATIBILITY_WRITE part 2) in progress is torn: a non-tear-protected page gets a per-byte
    /// old/new mix; pages 2, 3 and the dynamic lock page keep the old or the new value whole. The
    /// reader sees the tag lost.
    public var removedAfterExchanges: Int?
    /// Pages whose WRITE fails with NAK `5` (EEPROM write error); the page keeps its old value.
    public var eepromErrorPages: Set<Int> = []
    /// Exchange numbers (1-based) that get no answer at all (flaky RF); the tag drops to IDLE.
    public var noAnswerExchanges: Set<Int> = []
    /// Exchange numbers (1-based) the tag answers wrongly (`plan=` in a `sim:` spec): garbage, a
    /// short or long answer, or a NAK of any code.
    public var answerFaults: [Int: AnswerFault] = [:]
    /// The tag arrives permanently locked (CC3 `0F`, static `FF FF`, every dynamic lock bit).
    public var preLocked = false
    /// The tag arrives with a blank capability container (page 3 and pages 4–5 zero).
    public var unformatted = false
    /// The tag arrives as a clone whose pages 0–2 disagree with its anticollision UID, a BCC or INT.
    public var identity: IdentityFault?
    /// The tag in the field is this chip instead of the expected one.
    public var wrongChip: ChipModel?
    /// A second tag shares the field when this one arrives (the first poll sees two tags).
    public var secondTag = false
    /// Seed for the tear's byte mix and old/new choice.
    public var seed: UInt64 = 0

    /// No faults.
    public init() {}

    /// Whether no fault is set.
    public var isEmpty: Bool {
        removedAfterExchanges == nil && eepromErrorPages.isEmpty && noAnswerExchanges.isEmpty && answerFaults.isEmpty
            && !preLocked
            && !unformatted && identity == nil && wrongChip == nil && !secondTag
    }
}

/// One wrong answer of a misbehaving tag.
///
/// The answer is framed correctly on the air (a data answer carries a valid CRC_A), so the reader
/// passes it on and the host has to notice what is wrong with it.
public enum AnswerFault: Sendable, Hashable {
    /// The command is carried out, but the answer is `count` bytes of noise.
    case garbage(Int)
    /// The command is carried out; the answer loses its last `drop` bytes (a 4-bit ACK becomes an
    /// empty data frame).
    case short(Int)
    /// The command is carried out; the answer gains `extra` bytes (`EE`).
    case long(Int)
    /// The command is refused with this 4-bit NAK code (not carried out); the tag drops to IDLE. A Type 4
    /// tag has no NAK: it stays silent without carrying the command out (`Type4Emulator`).
    case nak(UInt8)
    /// The command is carried out, but answered with only this status word (SW1 SW2) instead of its own
    /// R-APDU: a Type 4 fault. A Type 2 tag answers these 2 bytes, which its reader sees as garbage.
    case status(UInt16)

    /// The wrong answer to a command whose right answer was `answer`.
    func apply(to answer: TagAnswer) -> TagAnswer {
        switch (self, answer) {
        case (.nak(let code), _): return .nak(code & 0x0F)
        case (.status(let word), _): return .data([UInt8(word >> 8), UInt8(word & 0xFF)])
        case (.garbage(let count), _): return .data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ 0x5A) })
        case (.short(let drop), .data(let bytes)): return .data(Array(bytes.dropLast(drop)))
        case (.short, _): return .data([])
        case (.long(let extra), .data(let bytes)): return .data(bytes + [UInt8](repeating: 0xEE, count: extra))
        case (.long(let extra), .ack): return .data([0x0A] + [UInt8](repeating: 0xEE, count: extra))
        case (.long, let other): return other
        }
    }
}
