import Crypto
import Foundation
import Ledger
import NDEF
import NFCTags
import Support

/// One reader's loop over a job: detect → claim → write → verify → lock → commit → removal, recording
/// every attempt in the ledger. Several workers (one per reader, each with its own ledger connection)
/// run on one job; the ledger's atomic claims keep every row on at most one tag.
public struct LineWorker: Sendable {
    let reader: any TagReader
    /// The name recorded in the ledger (unique within a run).
    let readerName: String
    let ledger: any LedgerStore
    let job: LineJob
    let settings: WorkerSettings
    let events: @Sendable (LineEvent) -> Void
    /// The stop request, checked between tags, never in the middle of one: the operator's, or another reader's
    /// of the run that found the job complete (`StopRequest.scoped()`, shared by the run's workers).
    let stop: StopRequest
    let clock = ContinuousClock()
    let lateTimings = LateTimings()
    /// Idle time since the last usable tag, and the run of same-class failures.
    let usable = UsableTagTracker()
    /// Chooses, tag by tag, whether a claim's sync runs under identify (replaced by tests only).
    var claimSync = ClaimSyncPolicy()
    /// The tag families presented tags are matched against (the job's, unless a test adds one).
    public var families: TagFamilies

    /// Creates a worker. `stop` is checked between tags, never in the middle of one; the worker that finds the job
    /// complete requests it (`.jobComplete`), so share one per run, scoped from the operator's.
    public init(
        reader: any TagReader, name: String? = nil, ledger: any LedgerStore, job: LineJob,
        settings: WorkerSettings = .init(),
        events: @escaping @Sendable (LineEvent) -> Void = { _ in },
        stop: StopRequest = StopRequest().scoped()
    ) {
        self.reader = reader
        self.readerName = name ?? reader.name
        self.ledger = ledger
        self.job = job
        self.families = job.families
        self.settings = settings
        self.events = events
        self.stop = stop
    }

    /// Runs until the job is complete, a stop is requested, the reader is exhausted or idle.
    ///
    /// - Throws: ledger errors (the ledger cannot record: stop the line) and reader transport failures
    ///   while polling.
    public func run() async throws -> WorkerStop {
        let end: WorkerStop
        do { end = try await loop() } catch {
            // Done tags are committed; make them durable before the error ends the run.
            try? await ledger.sync()
            throw error
        }
        // No row is open: the run's other readers, waiting for a tag or its removal, end too.
        if end == .jobComplete { stop.request(.jobComplete) }
        // The last timings and the final sync ride out an outage too; drained once, so a retry stores the same.
        let timings = lateTimings.drain()
        try await ridingOutOutages {
            try await ledger.recordLateTimings(job: job.name, timings)
            try await ledger.sync()
        }
        return end
    }

    /// Writes the batched ledger/removal timings.
    private func flushTimings() async throws {
        try await ledger.recordLateTimings(job: job.name, lateTimings.drain())
    }

    private func loop() async throws -> WorkerStop {
        // Whether open rows remain, as the last commit read it (saves a query and a queue hop a tag).
        var openRows: Bool?
        // The tag in the field when the ledger server went away (its last commit's outcome is unknown).
        var outageTag: [UInt8]?
        while true {
            if let stopped { return stopped }
            try settings.lease?.check()
            var current: [UInt8]?
            do {
                switch openRows {
                case false: return .jobComplete
                case nil: if let end = try await leftToClaim() { return end }
                case true: break
                }
                let detectStart = clock.now
                switch try await waitForTag() {
                case .success(let detected):
                    current = detected.uid
                    let afterOutage = outageTag == detected.uid
                    outageTag = nil
                    openRows = try await handle(detected, detect: clock.now - detectStart, afterOutage: afterOutage)
                case .failure(let stop): return stop
                }
            } catch let end as WorkerStop {
                return end
            } catch is OthersFinishing {
                // Every row left is being finished at another station: ask again in a moment.
                await pauseForOthers()
                openRows = nil
                continue
            } catch let error as LedgerError where error.code == .disconnected {
                // The tag stays in the field: once the ledger is back, its claim resumes or finds it done.
                try await rideOut(error)
                outageTag = current
                openRows = nil
                continue
            }
            if let stop = afterRefusal() { return stop }
        }
    }

    /// Waits for the next tag (`TagWait`), or says why the loop should stop.
    private func waitForTag() async throws -> Result<DetectedTag, WorkerStop> {
        let idleStart = usable.lastWasUsable ? clock.now : usable.lastUsable
        let wait = TagWait(calls: readerCalls, idleLimit: settings.idleLimit)
        let end = try await wait.next(idleSince: idleStart) { prompt in
            switch prompt {
            case .removeExtraTags(let count):
                events(.removeExtraTags(reader: readerName, count: count))
            case .placeTag:
                // The line is waiting: the last tag's deferred commit need not wait for the next claim.
                try await ledger.sync()
                // The field is empty: a station whose open rows are all held by others stops here.
                if let end = try await leftToClaim() { throw end }
                events(.placeTag(reader: readerName))
            }
        }
        switch end {
        case .tag(let detected): return .success(detected)
        case .exhausted: return .failure(.readerExhausted)
        case .idle: return .failure(.idle)
        case .stopRequested: return .failure(stopped ?? .stopRequested)
        }
    }

    /// How a requested stop ends this worker: `.jobComplete` when another reader of the run found no row open,
    /// `.stopRequested` when the operator asked; `nil` while no stop is requested.
    private var stopped: WorkerStop? {
        switch stop.reason {
        case .jobComplete: .jobComplete
        case .interrupt: .stopRequested
        case nil: nil
        }
    }

    /// One tag from selection to removal (none after the job's last row: the run ends at once).
    ///
    /// - Returns: whether the job still has open rows when the tag was committed done, else `nil`.
    /// - Throws: `WorkerStop` when no row is left to claim for a tag (the job is complete, or every open row is
    ///   another station's); ledger and reader errors.
    /// - Parameter afterOutage: the tag was in the field when the ledger server went away.
    private func handle(_ detected: DetectedTag, detect: Duration, afterOutage: Bool) async throws -> Bool? {
        let started = Date()
        let uid = detected.uid
        let uidText = Hex.compact(uid)
        var durations = AttemptRecord.PhaseDurations(detect: detect.wholeMicroseconds)
        // A UID already provisioned (in any job) is refused by the claim itself, in the same transaction
        // that would hand out the row: no separate look-up (and queue hop) before every tag.
        let claim: ClaimedRow?
        let overlap = claimSync.overlaps
        let claimStart = clock.now
        let claimed = await claimRow(uid: uid, durability: overlap ? .deferred : .immediate)
        var claimDuration = clock.now - claimStart
        switch claimed {
        case .success(let row):
            claim = row
        case .failure(let error):
            guard error.code == .alreadyProvisioned else { throw error }
            let previous = try await ledger.isProvisioned(uid: uid)
            if afterOutage, let previous, previous.job == job.name {
                try await finishedBeforeOutage(uid: uid, row: previous.row)
            } else {
                try await refuseDuplicate(uid: uid, previous: previous, started: started, durations: durations)
            }
            return nil
        }
        guard let claim else {
            events(.noRowForTag(reader: readerName, uid: uidText))
            usable.refused()
            await signal(.fail)
            do {
                if let end = try await leftToClaim() {
                    if end == .jobComplete { events(.jobCompleteTagLeft(reader: readerName, uid: uidText)) }
                    throw end
                }
            } catch is OthersFinishing {}
            try await remove(uidText)
            return nil
        }
        // A deferred claim is committed, not yet synced: its sync runs under render, identify and detection,
        // and the tag's first page-changing command waits for it (docs/ledger.md, "Durability").
        let gated = overlap || settings.lease != nil
        let gate = gated ? WriteGate(ledger.syncInBackground(), lease: settings.lease) : nil
        let rendered: [UInt8]
        let mirror: MirrorPlan?
        do {
            rendered = try job.render(claim.renderedRow, claim.fields, uid, claim.claimedAt)
            mirror = try job.mirror?(claim.renderedRow, claim.fields, uid)
        } catch {
            // Pre-flight rendered every row; reaching here means the row data changed under us.
            try await ledger.returnToPending(job: job.name, row: claim.row, detail: "render failed: \(error)")
            throw error
        }
        var message = rendered
        if job.append {
            switch try await appendedMessage(claim: claim, detected: detected, rendered: rendered) {
            case .success(let combined): message = combined
            case .failure(let failure):
                try await refuseAppend(claim: claim, uid: uid, failure: failure, started: started)
                return nil
            }
        }
        var attempt = 0
        var reactivate = claim.resumed
        while true {
            attempt += 1
            let attemptStart = Date()
            var plan = TagPipeline.Plan(
                message: message, acceptedChips: job.acceptedChips, lock: job.lock, reactivateFirst: reactivate,
                signature: job.signature, uid: uid, identityCheck: job.identityCheck,
                protection: job.protection.map { ProtectionPlan($0.settings, key: $0.key, uid: uid) }, mirror: mirror,
                writeGate: gate)
            plan.formatsBlankTags = job.formatsBlankTags
            if let options = job.ntag424 {
                plan.personalisation = try await personalisation(options, claim: claim, uid: uid, retry: attempt > 1)
            }
            let outcome = try await TagPipeline.run(plan, on: reader, activation: detected, families: families)
            // The claim could not be made durable: nothing was written; the ledger cannot record, stop the line.
            if let failure = outcome.gateFailure { throw failure }
            if attempt == 1 {
                // The background sync's own time (nil if no write waited for it), or the whole synced claim.
                let syncCost: Duration? = if let gate { gate.ticket.syncDuration } else { claimDuration }
                claimSync.record(
                    identifyMicroseconds: outcome.phaseMicroseconds[.identify],
                    syncMicroseconds: syncCost.map { Double($0.wholeMicroseconds) })
            }
            claimDuration += .microseconds(outcome.gateWaitMicroseconds)
            // The key journal's synced commits are ledger time, not the tag's lock phase.
            var phases = outcome.phaseMicroseconds
            if outcome.journalMicroseconds > 0 {
                phases[.lock] = max((phases[.lock] ?? 0) - outcome.journalMicroseconds, 0)
                claimDuration += .microseconds(outcome.journalMicroseconds)
            }
            Self.add(phases, to: &durations)
            let airtime = outcome.airtimeMicroseconds.map { Int($0.rounded()) }
            guard let failure = outcome.failure else {
                let ledgerStart = clock.now
                var tag = TagRecord(
                    uid: uid, chip: outcome.chip?.id ?? outcome.family ?? "unknown",
                    bytesSHA256: Digest.sha256(message),
                    byteCount: message.count, locked: outcome.locked, signatureStatus: outcome.signature?.rawValue,
                    writtenAt: Date(), keyID: job.keyRecord?.id, keyFingerprint: job.keyRecord?.fingerprint,
                    family: outcome.chip?.family ?? outcome.family ?? "type2")
                tag.sunCounter = outcome.sunCounter.map { Int($0) }
                let record = AttemptRecord(
                    uid: uid, row: claim.row, reader: readerName, outcome: .done,
                    failureDetail: outcome.identityAnomalies.map { "identity check (record): " + $0 },
                    phase: Phase.ledger.rawValue,
                    durations: durations, exchanges: outcome.exchanges, modelledAirtimeMicroseconds: airtime,
                    startedAt: attempt == 1 ? started : attemptStart, finishedAt: Date())
                // Deferred: the next claim's sync (which precedes any write to the next tag) or the idle
                // sync makes it durable — one sync of the WAL a tag (docs/ledger.md, "Durability").
                guard let openRows = try await markDone(claim: claim, uid: uid, tag: tag, attempt: record) else {
                    // Another process on this ledger finished the row with this very UID: this tag is a duplicate.
                    try await refuseDuplicate(
                        uid: uid, previous: RowReference(job: job.name, row: claim.row), started: started,
                        durations: durations)
                    return nil
                }
                // The ledger phase: the claim, the wait for its sync, and this commit.
                let ledgerMicros = (clock.now - ledgerStart + claimDuration).wholeMicroseconds
                events(.done(reader: readerName, uid: uidText, row: claim.row, resumed: claim.resumed))
                usable.usable()
                await signal(.pass)
                // After the job's last row the run ends at once, whether or not the tag is taken away (a jig).
                var removal: Int?
                if openRows {
                    let removalStart = clock.now
                    try await remove(uidText)
                    removal = (clock.now - removalStart).wholeMicroseconds
                } else {
                    events(.jobCompleteTagLeft(reader: readerName, uid: uidText))
                }
                let pending = lateTimings.add(
                    Ledger.LateTiming(
                        uid: uid, row: claim.row, ledgerMicroseconds: ledgerMicros, removalMicroseconds: removal))
                if pending >= 64 { try await flushTimings() }
                return openRows
            }
            let retry = failure.allowsRetry(after: attempt, of: job.tries)
            events(.failed(reader: readerName, uid: uidText, row: claim.row, failure: failure, willRetry: retry))
            try await ledger.recordAttempt(
                job: job.name,
                failedAttempt(
                    uid: uid, row: claim.row, failure: failure, durations: durations, exchanges: outcome.exchanges,
                    airtime: airtime, started: attemptStart))
            if retry {
                reactivate = true
                durations = AttemptRecord.PhaseDurations()
                continue
            }
            usable.failed(failure.failureClass, chip: outcome.chip)
            try await resolve(
                claim: claim, after: failure, wroteSomething: outcome.wroteSomething || claim.resumed,
                keysChanged: outcome.keysChanged)
            // A lost tag has left the field already: the next poll finds it only when it is presented again.
            if failure.failureClass != .tagLost {
                await signal(.fail)
                try await remove(uidText)
            }
            return nil
        }
    }

    /// Commits the row done (deferred durability); `nil` when another process on this ledger finished the row
    /// with this very UID meanwhile (two readers saw one UID: this tag is a duplicate), so the line carries on.
    private func markDone(claim: ClaimedRow, uid: [UInt8], tag: TagRecord, attempt: AttemptRecord) async throws
        -> Bool?
    {
        do {
            return try await ledger.markDone(
                job: job.name, row: claim.row, uid: uid, tag: tag, attempt: attempt, durability: .deferred)
        } catch {
            guard error.code == .alreadyProvisioned else { throw error }
            return nil
        }
    }

    /// Claims a row for `uid` (the ledger's atomic claim), keeping the error for the caller to sort.
    private func claimRow(uid: [UInt8], durability: Durability) async -> Result<ClaimedRow?, LedgerError> {
        do {
            return .success(try await ledger.claim(job: job.name, reader: readerName, uid: uid, durability: durability))
        } catch {
            return .failure(error)
        }
    }

    /// Decides what happens to the row after the last failed try.
    private func resolve(
        claim: ClaimedRow, after failure: CycleFailure, wroteSomething: Bool, keysChanged: Bool = false
    ) async throws {
        switch failure.failureClass {
        case .tagLost:
            // The tag may hold a partial write: the claim stays with its UID until it comes back.
            return
        case _ where keysChanged && job.onFailure == .reuse:
            // The tag holds some of the row's keys (the key journal names them): only this row can finish it.
            return
        default:
            if !wroteSomething {
                try await ledger.returnToPending(
                    job: job.name, row: claim.row, detail: "\(failure.failureClass.rawValue): nothing written")
            } else if job.onFailure == .burn {
                try await ledger.markFailed(job: job.name, row: claim.row, burn: true, detail: failure.description)
            } else {
                try await ledger.returnToPending(job: job.name, row: claim.row, detail: failure.description)
            }
        }
    }

    /// Shows the outcome on readers that can (ACR122U LED and buzzer), before the release; best effort.
    func signal(_ outcome: TagCycleOutcome) async {
        guard settings.feedback, let feedback = reader as? any OperatorFeedbackReader else { return }
        await feedback.signal(outcome)
    }

    /// Releases the tag and waits for it to leave, prompting until it does.
    func remove(_ uid: String) async throws {
        try await readerCalls.remove { events(.removeTag(reader: readerName, uid: uid)) }
    }

    /// Poll and release with hiccups retried (`ReaderCalls`).
    private var readerCalls: ReaderCalls {
        ReaderCalls(reader: reader, settings: settings, stop: stop) { [events, readerName] detail in
            events(.readerHiccup(reader: readerName, detail: detail))
        }
    }

    /// Tries of one reader call between tags before the worker stops.
    static let readerAttempts = ReaderCalls.attempts

    static func add(_ phases: [Phase: Double], to durations: inout AttemptRecord.PhaseDurations) {
        func plus(_ value: Int?, _ phase: Phase) -> Int? {
            guard let extra = phases[phase] else { return value }
            return (value ?? 0) + Int(extra.rounded())
        }
        durations.identify = plus(durations.identify, .identify)
        durations.write = plus(durations.write, .write)
        durations.verify = plus(durations.verify, .verify)
        durations.lock = plus(durations.lock, .lock)
    }
}
