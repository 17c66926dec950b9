import NFCTags

/// Faults injected into one emulated tag (`type2-ntag.md` §9 item 6, issue 3 "Faults").
///
/// Faults that shape the tag itself (`preLocked`, `unformatted`) are applied when the tag is made;
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
    /// The tag arrives permanently locked (CC3 `0F`, static `FF FF`, every dynamic lock bit).
    public var preLocked = false
    /// The tag arrives with a blank capability container (page 3 and pages 4–5 zero).
    public var unformatted = false
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
        removedAfterExchanges == nil && eepromErrorPages.isEmpty && noAnswerExchanges.isEmpty && !preLocked
            && !unformatted && wrongChip == nil && !secondTag
    }
}
