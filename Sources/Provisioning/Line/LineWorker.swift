import Crypto
import Foundation
import Ledger
import NDEF
import NFCTags
import Support

/// One reader's loop over a job: detect → claim → write → verify → lock → commit → removal, recording
/// every attempt in the ledger. Several workers (one per reader, each with its own ledger connection)
/// run on one job; the ledger's atomic claims keep every row on at most one tag.
///
/// A tag goes through one step per file: the claim (`+Claim`), the attempt loop (`+Attempt`), the commit
/// (`+Commit`) and the removal (`+Removal`). `events` tell the operator what happens as it happens; `outcomes`
/// hears each row's outcome only once the ledger holds it durably (`RowOutcomeObserver`).
public struct LineWorker: Sendable {
    let reader: any TagReader
    /// The name recorded in the ledger (unique within a run).
    let readerName: String
    let ledger: any LedgerStore
    let job: LineJob
    let settings: WorkerSettings
    let events: @Sendable (LineEvent) -> Void
    /// Hands row outcomes to the observer once durable.
    let delivery: OutcomeDelivery
    /// The ticket that finishes when this worker's commits so far are durable: the ledger's
    /// (`LedgerStore.commitDurability()`), replaced by tests that hold a sync.
    var durability: @Sendable () -> DurabilityTicket
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
    /// complete requests it (`.jobComplete`), so share one per run, scoped from the operator's. `outcomes` hears
    /// every row outcome once it is durable, never before.
    public init(
        reader: any TagReader, name: String? = nil, ledger: any LedgerStore, job: LineJob,
        settings: WorkerSettings = .init(),
        events: @escaping @Sendable (LineEvent) -> Void = { _ in },
        outcomes: @escaping RowOutcomeObserver = { _ in },
        stop: StopRequest = StopRequest().scoped()
    ) {
        self.reader = reader
        self.readerName = name ?? reader.name
        self.ledger = ledger
        self.job = job
        self.families = job.families
        self.settings = settings
        self.events = events
        self.delivery = OutcomeDelivery(outcomes)
        self.durability = { [ledger] in ledger.commitDurability() }
        self.stop = stop
    }

    /// Runs until the job is complete, a stop is requested, the reader is exhausted or idle.
    ///
    /// - Throws: ledger errors (the ledger cannot record: stop the line) and reader transport failures
    ///   while polling.
    public func run() async throws -> WorkerStop {
        settings.readerAbsence.started(readerName)
        defer { settings.readerAbsence.ended(readerName) }
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
                if let gate = settings.beforeNextTag {
                    await gate()
                    if let stopped { return stopped }
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
            } catch let gone as TransportError where gone.isReaderGone {
                // The reader went away: pause until it returns; the tag on it kept its claim and resumes by UID.
                try await rideOutReaderLoss(gone)
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

    /// One tag from selection to removal, step by step: claim, attempts, commit, removal (none after the job's
    /// last row: the run ends at once).
    ///
    /// - Returns: whether the job still has open rows when the tag was committed done, else `nil`.
    /// - Throws: `WorkerStop` when no row is left to claim for a tag (the job is complete, or every open row is
    ///   another station's); ledger and reader errors.
    /// - Parameter afterOutage: the tag was in the field when the ledger server went away.
    private func handle(_ detected: DetectedTag, detect: Duration, afterOutage: Bool) async throws -> Bool? {
        guard var tag = try await claimStep(detected, detect: detect, afterOutage: afterOutage),
            let message = try await message(for: tag)
        else { return nil }
        let last = try await attemptLoop(&tag, message: message.bytes, mirror: message.mirror)
        if let failure = last.outcome.failure {
            try await commitFailure(tag, last, failure: failure)
            try await removeFailed(tag, failure: failure)
            return nil
        }
        guard let done = try await commitDone(tag, last, message: message.bytes) else { return nil }
        try await removeDone(tag, openRows: done.openRows, ledgerMicroseconds: done.ledgerMicroseconds)
        return done.openRows
    }

    /// Poll and release with hiccups retried (`ReaderCalls`).
    var readerCalls: ReaderCalls {
        ReaderCalls(reader: reader, settings: settings, stop: stop) { [events, readerName] detail in
            events(.readerHiccup(reader: readerName, detail: detail))
        }
    }

    /// Tries of one reader call between tags before the worker stops.
    static let readerAttempts = ReaderCalls.attempts
}
