/// NFC Forum Type 2 tag operations (NTAG213/215/216, MIFARE Ultralight EV1, generic Type 2) over a
/// `Transceiver` (`docs/reference/type2.md` §3, §5, §11).
///
/// One instance per selected tag, used from the reader's queue (not `Sendable`, like the transceiver).
/// It keeps a cache of pages it has read or written so later steps send the fewest commands, and
/// counts every exchange, re-activation and the transceiver's modelled airtime per operation
/// (`operations`, `total`).
///
/// Typical use: `identify()`, `detectNDEF()`, then `readNDEF()` / `writeNDEF(_:)` + `verify(_:)`,
/// and optionally `writeLock()`.
public final class Type2Tag {
    /// The transceiver every command goes through.
    public let transceiver: any Transceiver
    /// The identification result, once `identify()` ran.
    public internal(set) var identity: Type2Identity?
    /// The NDEF area found by the last `detectNDEF()`; cleared by writes that change it.
    public internal(set) var area: NDEFArea?
    /// Cost of each completed public operation, in order.
    public private(set) var operations: [Type2OperationCost] = []
    /// Cost of everything sent through this instance so far.
    public private(set) var total = Type2OperationCost(name: "total")

    /// Pages known to hold these bytes (read from or written to the tag in this session).
    var cache = PageCache()
    private var depth = 0
    private var running = Type2OperationCost(name: "")
    private var airtimeAtStart: Double?
    private let airtimeAtCreation: Double?

    /// Creates the operations for the tag currently selected on `transceiver`.
    ///
    /// - Parameter identity: a known identification (skips GET_VERSION when given).
    public init(transceiver: any Transceiver, identity: Type2Identity? = nil) {
        self.transceiver = transceiver
        self.identity = identity
        self.airtimeAtCreation = transceiver.modelledAirtimeMicroseconds
        self.total.airtimeMicroseconds = airtimeAtCreation == nil ? nil : 0
    }

    /// The chip from identification, `nil` for a generic Type 2 tag.
    public var chip: ChipModel? { identity?.chip }

    /// The page bytes this session knows, if any (read or written).
    public func cachedPage(_ page: Int) -> [UInt8]? { cache[page] }

    /// Forgets every cached page (e.g. after another party may have written the tag).
    public func forgetCache() {
        cache.removeAll()
        area = nil
    }

    // MARK: Measurement

    /// Runs `body` as the named operation; nested operations count toward the outermost one.
    func measure<R>(_ name: String, _ body: () throws -> R) throws -> R {
        if depth == 0 {
            running = Type2OperationCost(name: name)
            airtimeAtStart = transceiver.modelledAirtimeMicroseconds
        }
        depth += 1
        defer {
            depth -= 1
            if depth == 0 { finishOperation() }
        }
        return try body()
    }

    private func finishOperation() {
        if let start = airtimeAtStart, let now = transceiver.modelledAirtimeMicroseconds {
            running.airtimeMicroseconds = now - start
        }
        operations.append(running)
        if let start = airtimeAtCreation, let now = transceiver.modelledAirtimeMicroseconds {
            total.airtimeMicroseconds = now - start
        }
    }

    // MARK: Exchanges

    /// Sends one frame, counting it; a NAK re-activates the tag (every NAK ends the session,
    /// `docs/reference/type2.md` §1.1) and is then rethrown, or the re-activation's failure is thrown instead.
    func send(_ frame: [UInt8], timeoutMilliseconds: Int) throws(TransportError) -> [UInt8] {
        running.exchanges += 1
        total.exchanges += 1
        if frame.first == 0xA2 {
            running.writes += 1
            total.writes += 1
        }
        do {
            return try transceiver.transceive(frame, timeoutMilliseconds: timeoutMilliseconds)
        } catch .nak(let code) {
            try reactivateCounted()
            throw .nak(code)
        }
    }

    /// Re-selects the tag (HLTA, WUPA, anticollision, SELECT), counting it.
    func reactivateCounted() throws(TransportError) {
        running.reactivations += 1
        total.reactivations += 1
        try transceiver.reactivate()
    }

    /// Re-selects the tag: HLTA then WUPA, anticollision and SELECT (ISO/IEC 14443-3).
    ///
    /// Clears authentication; cached page contents stay (the memory did not change).
    public func reactivate() throws {
        try measure("reactivate") { try reactivateCounted() }
    }
}
