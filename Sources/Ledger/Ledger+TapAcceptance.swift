import Foundation

/// What `acceptTap` found and decided about a verified tap of a keyed job.
public enum TapAcceptance: Sendable, Hashable {
    /// The UID is no done tag of the job: nothing recorded.
    case unknown
    /// The tag is the job's, but the caller's check refused it (its URL is not its row's): nothing recorded.
    case refused(TapLookup)
    /// The tag, and what `acceptSUNCounter` would have decided about its counter.
    case counted(TapLookup, SUNCounterVerdict)
}

/// One tap waiting to be recorded (`acceptTap`, `acceptSUNCounter`), as the ledger writes it.
struct TapRequest: Sendable {
    var job: String
    var uid: [UInt8]
    /// The UID as the ledger writes it.
    var uidText: String
    var counter: Int
    var time: String
    /// `acceptTap`: the tag is read first, and its counter recorded only when it is a done tag `check` passes;
    /// `nil` (`acceptSUNCounter`): recorded without a read.
    var check: (@Sendable (TapLookup) -> Bool)?

    /// Batches record in this order (job, UID, counter), so two servers' batches lock rows in one order and never
    /// wait for each other in a cycle.
    static func inOrder(_ left: Self, _ right: Self) -> Bool {
        (left.job, left.uidText, left.counter) < (right.job, right.uidText, right.counter)
    }
}

/// What a batch answers one `TapRequest`: the tag read (`nil`: not read, or no done tag) and the counter's verdict
/// (`nil`: nothing recorded).
struct TapAnswer: Sendable {
    var lookup: TapLookup?
    var verdict: SUNCounterVerdict?
}

extension DeferredSyncing {
    /// Reads the done tag of `uid` in `job` (`tapLookup`), lets `check` decide on it, and records `counter` as
    /// `acceptSUNCounter` does: one visit to the store's queue for a whole tap verification.
    ///
    /// Taps that wait for the queue meanwhile are read and recorded with it in one transaction, then synced once
    /// when any counter was recorded (group commit: one lock, one write of the pages and one sync for many taps).
    /// An accepted counter is durable before `answered` gets it; a tap that recorded nothing waits for no sync of
    /// its own. `check` runs on the store's queue: keep it short. Failures: `.invalidData` for a counter outside
    /// 0…`FFFFFF`; the store's, which fail every tap of the batch (none of them was recorded durably).
    public nonisolated func acceptTap(
        job: String, uid: [UInt8], counter: Int, at time: Date, check: @escaping @Sendable (TapLookup) -> Bool,
        answered: @escaping @Sendable (Result<TapAcceptance, LedgerError>) -> Void
    ) {
        let request: TapRequest
        do throws(LedgerError) { request = try Self.tapRequest(job, uid, counter, time, check) } catch {
            return answered(.failure(error))
        }
        together(request, in: taps, Self.recordBatch) { answered($0.map(Self.acceptance)) }
    }

    /// How the batch of taps is served on the queue (`recordTaps`).
    private static var recordBatch: @Sendable (isolated Self, [TapRequest]) throws(LedgerError) -> [TapAnswer] {
        { store, requests throws(LedgerError) in try store.recordTaps(requests) }
    }

    /// What a batch's answer to an `acceptTap` request says.
    private static func acceptance(_ answer: TapAnswer) -> TapAcceptance {
        guard let lookup = answer.lookup else { return .unknown }
        guard let verdict = answer.verdict else { return .refused(lookup) }
        return .counted(lookup, verdict)
    }

    /// Records `counter` as verified for `uid` in `job` when it is above the highest one verified before;
    /// otherwise the tap is `replayed` and nothing is written.
    ///
    /// The check and the insert are one statement (`recordSUNCounterSQL`) on every store: of several verifications
    /// of the same counter at once (connections, processes, verifiers on one server) exactly one inserts the row
    /// and answers `accepted`; the primary key turns every other insert into nothing (`ON CONFLICT DO NOTHING`),
    /// even where PostgreSQL's READ COMMITTED lets two of them pass the `NOT EXISTS`. What was there before is read
    /// after the decision. Batched and synced as `acceptTap`'s taps are.
    ///
    /// - Throws: `LedgerError` `.invalidData` for a counter outside 0…`FFFFFF`; SQLite failures as usual.
    public nonisolated func acceptSUNCounter(
        job: String, uid: [UInt8], counter: Int, at time: Date
    ) async throws(LedgerError) -> SUNCounterVerdict {
        let request = try Self.tapRequest(job, uid, counter, time, nil)
        let answer = try await together(request, in: taps, Self.recordBatch)
        guard let verdict = answer.verdict else { throw LedgerError(.invalidState, "the counter was not recorded") }
        return verdict
    }

    /// A request, once its counter is known to be a 24-bit value.
    private static func tapRequest(
        _ job: String, _ uid: [UInt8], _ counter: Int, _ time: Date, _ check: (@Sendable (TapLookup) -> Bool)?
    ) throws(LedgerError) -> TapRequest {
        guard (0...Ledger.maximumSUNCounter).contains(counter) else {
            throw LedgerError(.invalidData, "SUN counter \(counter) is not a 24-bit value")
        }
        return TapRequest(
            job: job, uid: uid, uidText: LedgerFormat.uid(uid), counter: counter, time: LedgerFormat.time(time),
            check: check)
    }

    /// A batch of taps on the queue: read and recorded in one transaction committed `.deferred`, then synced at once
    /// when any counter was recorded; answers in the requests' order.
    func recordTaps(_ requests: [TapRequest]) throws(LedgerError) -> [TapAnswer] {
        let answers = try transactionNow(.immediate, durability: .deferred) { () throws(LedgerError) in
            var answers: [Int: TapAnswer] = [:]
            for index in requests.indices.sorted(by: { TapRequest.inOrder(requests[$0], requests[$1]) }) {
                answers[index] = try recordTap(requests[index])
            }
            return requests.indices.compactMap { answers[$0] }
        }
        if answers.contains(where: { if case .accepted = $0.verdict { true } else { false } }) {
            try syncNow().get()
        }
        return answers
    }

    /// `tapLookupNow`: a store that keeps nothing between batches reads every tap.
    func tapLookupInBatch(job: String, uid: [UInt8]) throws(LedgerError) -> TapLookup? {
        try tapLookupNow(job: job, uid: uid)
    }

    /// `recordSUNCounter`.
    func recordTapCounter(job: String, uid: String, counter: Int, at time: String) throws(LedgerError) -> Bool {
        try recordSUNCounter(job: job, uid: uid, counter: counter, at: time)
    }

    /// One tap's read, check, and counter, inside the caller's transaction.
    private func recordTap(_ request: TapRequest) throws(LedgerError) -> TapAnswer {
        var lookup: TapLookup?
        if let check = request.check {
            guard let found = try tapLookupInBatch(job: request.job, uid: request.uid) else { return TapAnswer() }
            guard check(found) else { return TapAnswer(lookup: found) }
            lookup = found
        }
        let (job, uid, counter) = (request.job, request.uidText, request.counter)
        if try recordTapCounter(job: job, uid: uid, counter: counter, at: request.time) {
            let previous = try connection.queryFirst(
                Ledger.highestSUNCounterBelowSQL, [.text(job), .text(uid), .int(counter)]
            ) { $0.optionalInt("highest") }
            return TapAnswer(lookup: lookup, verdict: .accepted(previous: previous ?? nil))
        }
        return TapAnswer(
            lookup: lookup, verdict: .replayed(highest: try highestSUNCounter(job: job, uid: uid) ?? counter))
    }
}
