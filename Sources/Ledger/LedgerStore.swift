import Foundation
import Support

/// The job ledger's operations, whatever stores them: the rest of the code depends on this protocol, and
/// the SQLite `Ledger` (one station) and the PostgreSQL store (a line of stations) implement it.
///
/// Every store keeps the same exactly-once rules (docs/ledger.md): a row is claimed by one UID at a time and
/// done at most once, a UID is live on at most one row of a job and done at most once in any job, and a
/// committed claim is never reissued without an operator's `release`. Errors are `LedgerError`s with the same
/// codes in every store. Each store is an actor on its own serial executor; cancelling the calling task
/// interrupts the running statement.
public protocol LedgerStore: Actor {
    /// Where the ledger lives, fit for messages and reports (a file path, or a connection string without
    /// its password).
    nonisolated var location: String { get }

    // MARK: Jobs and rows

    /// Registers `name` (or checks its hashes against the registered job; `acceptChangedManifest` records a
    /// change instead of refusing it).
    @discardableResult
    func registerJob(
        name: String, manifestHash: String, templateHash: String, acceptChangedManifest: Bool
    ) async throws(LedgerError) -> JobInfo
    /// Adds rows to a job in batches; returns how many were added.
    @discardableResult
    func addRows(
        job: String, rows: some Sequence<RowInput> & Sendable, batchSize: Int
    ) async throws(LedgerError) -> Int
    /// Records the job's start (first call only).
    func markStarted(job: String) async throws(LedgerError)
    /// Records the job's end.
    func markFinished(job: String) async throws(LedgerError)
    /// The job registered as `name`, or `nil`.
    func job(named name: String) async throws(LedgerError) -> JobInfo?
    /// Every registered job.
    func jobs() async throws(LedgerError) -> [JobInfo]
    /// Stores the records' hash, with an optional audit event.
    func setRecordsHash(job: String, hash: String, event: String?, detail: String?) async throws(LedgerError)
    /// The fields of every registered row, by row.
    func registeredFields(job: String) async throws(LedgerError) -> [Int: [String: String]]
    /// Keeps the first message rendered for a claimed row; returns the message the row keeps.
    func recordOriginalMessage(job: String, row: Int, uid: [UInt8], message: [UInt8]) async throws(LedgerError)
        -> [UInt8]
    /// Issues a done row again as a new row; returns the new row's number.
    func reissue(job: String, row: Int, by: String, reason: String) async throws(LedgerError) -> Int
    /// The job's reissues.
    func reissues(job: String) async throws(LedgerError) -> [Reissue]

    // MARK: Claims and outcomes

    /// Gives `uid` its held row or the lowest pending row (`nil` when none is left).
    func claim(job: String, reader: String, uid: [UInt8], durability: Durability) async throws(LedgerError)
        -> ClaimedRow?
    /// The job and row `uid` was provisioned as, in any job.
    func isProvisioned(uid: [UInt8]) async throws(LedgerError) -> RowReference?
    /// Commits a verified tag and its attempt; returns whether the job still has open rows.
    @discardableResult
    func markDone(
        job: String, row: Int, uid: [UInt8], tag: TagRecord, attempt: AttemptRecord, durability: Durability
    ) async throws(LedgerError) -> Bool
    /// Records an attempt without changing any claim.
    func recordAttempt(job: String, _ attempt: AttemptRecord) async throws(LedgerError)
    /// Gives up on a claimed row: `failed`, or `burned`.
    func markFailed(job: String, row: Int, burn: Bool, detail: String?) async throws(LedgerError)
    /// Returns a claimed row to `pending` (`onFailure` = reuse).
    func returnToPending(job: String, row: Int, detail: String?) async throws(LedgerError)
    /// The operator releases a `claimed`, `failed` or `burned` row back to `pending`.
    func release(job: String, row: Int, by: String, note: String?) async throws(LedgerError)
    /// Stores the late timings of done attempts.
    func recordLateTimings(job: String, _ timings: [Ledger.LateTiming]) async throws(LedgerError)
    /// Makes every commit of this connection durable.
    func sync() async throws(LedgerError)
    /// Starts making earlier commits durable; the ticket finishes when they are.
    nonisolated func syncInBackground() -> DurabilityTicket
    /// A ticket that finishes when every commit this connection has made so far is durable (at once when they
    /// are); it starts no sync. The line's commit observer waits on it (`RowOutcomeObserver`).
    nonisolated func commitDurability() -> DurabilityTicket
    /// Commits made with `.deferred` durability that are not yet durable (for tests and diagnostics).
    var unsyncedCommitCount: Int { get }
    /// Syncs this connection has made (flushes, and synchronous commits that wrote): how many commits a group of
    /// writes shared (for tests and diagnostics).
    nonisolated var syncCount: Int { get }
    /// Connects again after a `.disconnected` error (a file-backed store never disconnects: nothing to do).
    func reconnect() async throws(LedgerError)

    // MARK: Counters, key journal, SUN counters, key bindings

    /// The highest counter seen for `uid` (anti-cloning), or `nil`.
    func lastSeenCounter(job: String, uid: [UInt8]) async throws(LedgerError) -> Int?
    /// Checks and records a read counter.
    func acceptCounter(job: String, uid: [UInt8], counter: Int, window: Int) async throws(LedgerError)
        -> CounterVerdict
    /// The fields of one row, or `nil`.
    func rowFields(job: String, row: Int) async throws(LedgerError) -> [String: String]?
    /// Journals a key change before it is sent to the tag.
    func intendKeyChange(job: String, _ change: KeyChange) async throws(LedgerError)
    /// Resolves a journaled key change.
    func resolveKeyChange(job: String, uid: [UInt8], keyNumber: Int, as state: KeyChange.State)
        async throws(LedgerError)
    /// Every key change of a tag.
    func keyChanges(job: String, uid: [UInt8]) async throws(LedgerError) -> [KeyChange]
    /// The key changes of a tag still `intended`.
    func unresolvedKeyChanges(job: String, uid: [UInt8]) async throws(LedgerError) -> [KeyChange]
    /// The key version each key number of a tag is at.
    func keyVersions(job: String, uid: [UInt8]) async throws(LedgerError) -> [Int: Int]
    /// The highest verified SUN counter of a tag, or `nil`.
    func highestSUNCounter(job: String, uid: [UInt8]) async throws(LedgerError) -> Int?
    /// Checks and records a verified SUN counter.
    func acceptSUNCounter(job: String, uid: [UInt8], counter: Int, at time: Date) async throws(LedgerError)
        -> SUNCounterVerdict
    /// Records the key bindings (key id → fingerprint) `job` lacks and returns those that differ; records nothing
    /// when one differs.
    func bindKeys(job: String, keys: [String: String]) async throws(LedgerError) -> [KeyBindingConflict]
    /// The key bindings of `keys` that differ from what `job` recorded, recording nothing.
    func keyBindingConflicts(job: String, keys: [String: String]) async throws(LedgerError) -> [KeyBindingConflict]
    /// Every key id `job` is bound to, with its recorded fingerprint.
    func keyBindings(job: String) async throws(LedgerError) -> [String: String]

    // MARK: Outbox (docs/events.md)

    /// Records the job's public field names, which its events carry with each row's values.
    func setPublicFields(job: String, fields: [String]) async throws(LedgerError)
    /// The outbox's events after sequence `after`, oldest first, at most `limit`: of one job (with the events of no
    /// job) or all; of one station (with the events no station wrote) or all; only the unpublished ones when
    /// `unpublishedOnly`.
    func outboxEvents(job: String?, station: String?, after: Int, limit: Int, unpublishedOnly: Bool)
        async throws(LedgerError) -> [OutboxEvent]
    /// The sequence of event `id`, or `nil`.
    func outboxSequence(of id: String) async throws(LedgerError) -> Int?
    /// Marks events published (those not yet: idempotent); returns how many this call marked.
    @discardableResult
    func markPublished(ids: [String], at: Date) async throws(LedgerError) -> Int
    /// Events not yet published: of one job (with the events of no job), or all; of one station (with the events
    /// no station wrote), or all.
    func outboxBacklog(job: String?, station: String?) async throws(LedgerError) -> Int
    /// Takes the job's publisher lock without waiting (one publisher a job at a time), or `nil` when another
    /// process holds it.
    func acquirePublisherLock(job: String) async throws(LedgerError) -> PublisherLock?

    // MARK: Queries (reports, audit, status)

    /// Rows by state.
    func counts(job: String) async throws(LedgerError) -> StateCounts
    /// One row, or `nil`.
    func record(job: String, row: Int) async throws(LedgerError) -> RecordInfo?
    /// Every row of the job.
    func records(job: String) async throws(LedgerError) -> [RecordInfo]
    /// Every attempt on the job.
    func attempts(job: String) async throws(LedgerError) -> [AttemptRecord]
    /// The job's failed attempts.
    func failures(job: String) async throws(LedgerError) -> [AttemptRecord]
    /// The job's done tags.
    func tags(job: String) async throws(LedgerError) -> [ProvisionedTag]
    /// The done tags of a UID, in any job.
    func tags(uid: [UInt8]) async throws(LedgerError) -> [ProvisionedTag]
    /// The done tag of a UID in a job with its row's fields and key versions, in one call (a tap's reads).
    func tapLookup(job: String, uid: [UInt8]) async throws(LedgerError) -> TapLookup?
    /// A keyed tap's verification in one call: its done tag (`tapLookup`), the caller's `check` of it, and its
    /// counter recorded (`acceptSUNCounter`) when the check passes, durable before `answered` gets the outcome: on the
    /// store's queue, or at once for a counter that is no 24-bit value. For a caller that is no task (an HTTP worker
    /// thread); a task awaits the `async` form.
    nonisolated func acceptTap(
        job: String, uid: [UInt8], counter: Int, at time: Date, check: @escaping @Sendable (TapLookup) -> Bool,
        answered: @escaping @Sendable (Result<TapAcceptance, LedgerError>) -> Void)
    /// The audit trail (of one job, or all).
    func events(job: String?) async throws(LedgerError) -> [LedgerEvent]
    /// Every reader's activity on the job.
    func stationActivity(job: String, recentSince: Date) async throws(LedgerError) -> [StationActivity]
    /// The line figures `serve`'s metrics show: each reader's attempts and done tags, and the first-pass yield.
    func lineFigures(job: String, recentSince: Date) async throws(LedgerError) -> LineFigures
    /// The job's claimed rows, oldest first.
    func openClaims(job: String) async throws(LedgerError) -> [OpenClaim]
    /// Whether the job has a pending row, and its claimed rows: what is left for a station to claim.
    func remainingWork(job: String) async throws(LedgerError) -> RemainingWork
}

/// The usual arguments, so callers write what they mean and every store gets the same defaults.
extension LedgerStore {
    /// `acceptTap` awaited.
    public nonisolated func acceptTap(
        job: String, uid: [UInt8], counter: Int, at time: Date, check: @escaping @Sendable (TapLookup) -> Bool
    ) async throws(LedgerError) -> TapAcceptance {
        let outcome = await withCheckedContinuation {
            (done: CheckedContinuation<Result<TapAcceptance, LedgerError>, Never>) in
            acceptTap(job: job, uid: uid, counter: counter, at: time, check: check) { done.resume(returning: $0) }
        }
        return try outcome.get()
    }

    /// Registers `name`, refusing a changed manifest.
    @discardableResult
    public func registerJob(name: String, manifestHash: String, templateHash: String) async throws(LedgerError)
        -> JobInfo
    {
        try await registerJob(
            name: name, manifestHash: manifestHash, templateHash: templateHash, acceptChangedManifest: false)
    }

    /// Adds rows in batches of 5 000.
    @discardableResult
    public func addRows(job: String, rows: some Sequence<RowInput> & Sendable) async throws(LedgerError) -> Int {
        try await addRows(job: job, rows: rows, batchSize: 5_000)
    }

    /// Stores the records' hash without an event.
    public func setRecordsHash(job: String, hash: String) async throws(LedgerError) {
        try await setRecordsHash(job: job, hash: hash, event: nil, detail: nil)
    }

    /// Claims with an immediately durable commit.
    public func claim(job: String, reader: String, uid: [UInt8]) async throws(LedgerError) -> ClaimedRow? {
        try await claim(job: job, reader: reader, uid: uid, durability: .immediate)
    }

    /// Commits a verified tag durably.
    @discardableResult
    public func markDone(job: String, row: Int, uid: [UInt8], tag: TagRecord, attempt: AttemptRecord)
        async throws(LedgerError) -> Bool
    {
        try await markDone(job: job, row: row, uid: uid, tag: tag, attempt: attempt, durability: .immediate)
    }

    /// Gives up on a claimed row without a detail.
    public func markFailed(job: String, row: Int, burn: Bool) async throws(LedgerError) {
        try await markFailed(job: job, row: row, burn: burn, detail: nil)
    }

    /// Returns a claimed row to `pending` without a detail.
    public func returnToPending(job: String, row: Int) async throws(LedgerError) {
        try await returnToPending(job: job, row: row, detail: nil)
    }

    /// Releases a row without a note.
    public func release(job: String, row: Int, by: String) async throws(LedgerError) {
        try await release(job: job, row: row, by: by, note: nil)
    }

    /// Checks and records a verified SUN counter, now.
    public func acceptSUNCounter(job: String, uid: [UInt8], counter: Int) async throws(LedgerError)
        -> SUNCounterVerdict
    {
        try await acceptSUNCounter(job: job, uid: uid, counter: counter, at: Date())
    }

    /// The outbox's events of `job` (or all), of every station, after sequence `after`.
    public func outboxEvents(job: String?, after: Int, limit: Int, unpublishedOnly: Bool) async throws(LedgerError)
        -> [OutboxEvent]
    {
        try await outboxEvents(job: job, station: nil, after: after, limit: limit, unpublishedOnly: unpublishedOnly)
    }

    /// Events of `job` (or all) not yet published, of every station.
    public func outboxBacklog(job: String?) async throws(LedgerError) -> Int {
        try await outboxBacklog(job: job, station: nil)
    }

    /// The outbox's events of `job` (or all) after sequence `after`, published or not.
    public func outboxEvents(job: String?, after: Int = 0, limit: Int = 1_000) async throws(LedgerError)
        -> [OutboxEvent]
    {
        try await outboxEvents(job: job, after: after, limit: limit, unpublishedOnly: false)
    }

    /// The whole audit trail.
    public func events() async throws(LedgerError) -> [LedgerEvent] { try await events(job: nil) }
}
