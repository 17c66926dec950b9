import Foundation
import Ledger
import NDEF
import NFCTags
import Provisioning
import Support
import Synchronization

/// Runs one line worker per reader on a job, each with its own ledger connection, wiring SIGINT and
/// the operator display; a reader that fails is reported and the others go on.
struct LineSession: Sendable {
    /// Readers that stopped with an error (the others went on).
    var readerFailures: [String]
    /// Whether the operator interrupted the run.
    var interrupted: Bool
    /// Readers that paused on a run of tags failing with one class (the operator must fix its cause).
    var pausedReaders: [(reader: String, failureClass: FailureClass)] = []
    /// Whether a reader stopped because every open row is held by another station's claim.
    var nothingToClaim = false
    /// Whether the station's lease ran out (frozen or cut off): its readers stopped without writing.
    var leaseLost = false

    /// Runs the workers; on a line of stations (`station` set) every reader name is `STATION/READER`, and on
    /// a ledger server the station's lease (`StationSession`) is held for the whole run. The ledger calls before
    /// the workers start ride out a dropped server connection (`outage`).
    ///
    /// With `publish` (`run --publish`), the job's outbox is published while the line runs (`PublishSession`): the
    /// broker is connected before the first tag (refused credentials: exit 77), and drained within its limit at the
    /// end, also after an interrupt, before the lease is given back.
    static func run(
        job: JobContext, readers: [any TagReader], ledger: any LedgerStore, station: String?, leaseSeconds: Double,
        settings: WorkerSettings, display: ProgressDisplay, stop: StopRequest, outage: OutageRetry,
        publish: PublishTarget? = nil
    ) async throws(CLIError) -> LineSession {
        var settings = settings
        var presence: StationSession?
        if case .server(let conninfo) = job.manifest.ledger, let station {
            presence = try await StationSession.start(
                conninfo: conninfo, station: station, leaseSeconds: leaseSeconds, notes: display.sink, outage: outage,
                probe: ledger)
            settings.lease = presence?.lease
        }
        var publishing: PublishSession?
        do {
            if let publish {
                publishing = try await publish.start(
                    job: job, readers: readers, ledger: ledger, lease: presence?.lease, display: display, stop: stop,
                    outage: outage)
            }
            let session = try await run(
                job: job, readers: readers, ledger: ledger, station: station, settings: settings, display: display,
                stop: stop, outage: outage, publishing: publishing)
            await publishing?.finish()
            await presence?.end()
            return session
        } catch {
            await publishing?.finish()
            await presence?.end()
            throw error
        }
    }

    private static func run(
        job: JobContext, readers: [any TagReader], ledger: any LedgerStore, station: String?,
        settings: WorkerSettings, display: ProgressDisplay, stop: StopRequest, outage: OutageRetry,
        publishing: PublishSession?
    ) async throws(CLIError) -> LineSession {
        var settings = settings
        let counts = try await outage.runForCommand("start-up", on: ledger) {
            try await ledger.counts(job: job.manifest.job)
        }
        let jobName = job.manifest.job
        let totals = JobTotals(counts: counts, shareLabel: station.map { "station \($0)" } ?? "this run") {
            try? await ledger.counts(job: jobName)
        }
        let progress = LiveProgress(totals: totals, display: display, publishing: publishing)
        let lineJob = job.lineJob()
        var connections: [any LedgerStore] = [ledger]
        for _ in readers.dropFirst() {
            if case .server(let conninfo) = job.manifest.ledger {
                connections.append(try await outage.connect(conninfo, station: station ?? "provision", probe: ledger))
            } else {
                connections.append(
                    try await JobContext.openLedger(job.manifest.ledger, create: false, station: station ?? "provision")
                )
            }
        }
        let names = uniqueNames(readers.map(\.name)).map { name in station.map { "\($0)/\(name)" } ?? name }
        // The run's own stop: the operator's reaches every worker, and the first worker to find the job complete
        // ends the others' waits for a tag (`.jobComplete`) without it counting as an interrupt.
        let runStop = stop.scoped()
        if let publishing { settings.beforeNextTag = { await publishing.gate(stop: runStop) } }
        let workers = zip(zip(readers, connections), names).map { reader, name in
            LineWorker(
                reader: reader.0, name: name, ledger: reader.1, job: lineJob, settings: settings,
                events: { progress.handle($0) }, outcomes: { progress.record($0) }, stop: runStop)
        }
        let ends = await ReaderFanOut.run(workers.count) { try await workers[$0].run() }
        var session = LineSession(readerFailures: [], interrupted: stop.isRequested)
        for end in ends {
            switch end.result {
            case .success(.failurePause(let failureClass)):
                session.pausedReaders.append((names[end.index], failureClass))
            case .success(.nothingToClaim): session.nothingToClaim = true
            case .success: break
            case .failure(let error as LedgerError) where error.code == .leaseLost:
                session.leaseLost = true
                session.readerFailures.append("reader \(names[end.index]) stopped: \(error.message)")
            case .failure(let error): session.readerFailures.append("reader \(names[end.index]) stopped: \(error)")
            }
        }
        return session
    }
}

/// Reader names made unique for the ledger and reports (`sim:CHIP`, `sim:CHIP #2`, …).
func uniqueNames(_ names: [String]) -> [String] {
    var seen: [String: Int] = [:]
    return names.map { name in
        seen[name, default: 0] += 1
        let count = seen[name] ?? 1
        return count == 1 ? name : "\(name) #\(count)"
    }
}

/// Counts for the live status line, shared by every worker: prompts and retries from their events, outcomes and
/// their statistics from their commit observers (a row is shown and counted done only once it is durable); the
/// job's totals come from the ledger (`JobTotals`), so every station's work shows.
final class LiveProgress: Sendable {
    private struct State {
        var firstTries = 0
        var firstTryPasses = 0
        var triedRows: Set<Int> = []
    }

    let totals: JobTotals
    private let display: ProgressDisplay
    private let state: Mutex<State>
    /// The run's publisher (`run --publish`): told of every outcome, its backlog shown on the status line.
    private let publishing: PublishSession?

    init(totals: JobTotals, display: ProgressDisplay, publishing: PublishSession? = nil) {
        self.totals = totals
        self.display = display
        self.publishing = publishing
        state = Mutex(State())
    }

    func handle(_ event: LineEvent) {
        switch event {
        case .placeTag(let reader): display.prompt("place a tag on \(reader)")
        case .removeExtraTags(let reader, let count):
            display.prompt("\(count) tags on \(reader): remove the extra tags")
        case .removeTag(let reader, let uid): display.prompt("remove tag \(uid) from \(reader)")
        case .noRowForTag(_, let uid): status(last: "\(uid): no row left for this tag")
        case .readerHiccup(let reader, let detail): status(last: "\(reader): \(detail), trying again")
        case .failurePause(let reader, let failureClass, let count, let cause):
            display.alert(
                "\(reader) paused: \(count) tags in a row failed with \(failureClass.rawValue); \(cause). Then run "
                    + "the same command again to continue (nothing is lost).")
        case .jobCompleteTagLeft(let reader, let uid): notice("job complete: remove the last tag (\(uid) on \(reader))")
        case .waitingForWork(let reader):
            notice("\(reader): every open row is claimed by another station; waiting for work (--wait)")
        case .ledgerLost(let reader, let detail):
            display.alert(
                "ledger connection lost (\(detail)); \(reader) paused, nothing is written, reconnecting")
        case .ledgerBack(let reader, let after):
            display.alert("ledger back after \(String(format: "%.1f", after.seconds)) s; \(reader) carries on")
        case .readerGone(let reader, let detail, let timeout):
            let wait = timeout.map { "for up to \(LineWorker.secondsText($0)) s with every reader (--reader-timeout)" }
            let text = "reader \(reader) gone; waiting for it \(wait ?? "for ever (--reader-timeout)")"
            display.finish()
            display.sink.line("warning: \(text): \(detail)")
            status(last: text)
        case .readerBack(let reader, let after):
            display.finish()
            display.sink.line(
                "note: reader \(reader) back after \(String(format: "%.1f", after.seconds)) s; carrying on")
        case .failed(_, let uid, _, let failure, willRetry: true):
            status(last: "\(uid) \(failure.failureClass.rawValue), retrying: \(failure.detail)")
        // Outcomes are shown and counted once durable (`record`).
        case .done, .failed, .duplicate: break
        }
    }

    /// A row's outcome, once the ledger holds it durably: the done count, the first-pass yield (a row counts once,
    /// at its first outcome of the run: passed if done on its first try) and the status line.
    func record(_ outcome: RowOutcome) {
        publishing?.nudge()
        if outcome.resolution == .done { totals.recordDone() }
        if let row = outcome.row {
            state.withLock { state in
                guard state.triedRows.insert(row).inserted else { return }
                state.firstTries += 1
                if outcome.resolution == .done && outcome.tries <= 1 { state.firstTryPasses += 1 }
            }
        }
        status(last: Self.line(for: outcome))
    }

    /// The status line's last outcome.
    private static func line(for outcome: RowOutcome) -> String {
        let uid = Hex.compact(outcome.uid)
        if outcome.resolution != .done, let previous = outcome.previous {
            return "\(uid) already provisioned as row \(previous.row) of job \(previous.job)"
        }
        if outcome.resolution != .done, let failure = outcome.failure {
            return "\(uid) \(failure.failureClass.rawValue): \(failure.detail)"
        }
        return "\(uid) row \(outcome.row ?? 0) done\(outcome.resumed ? " (resumed)" : "")"
    }

    /// A message on its own line, not under `--quiet`.
    private func notice(_ text: String) {
        guard display.mode != .quiet else { return }
        display.finish()
        display.sink.line(text)
    }

    /// Redraws the status line; with `--quiet` nothing is formatted at all (it was a few percent of
    /// a simulated line's CPU).
    private func status(last: @autoclosure () -> String) {
        guard display.mode != .quiet else { return }
        let tries = state.withLock { ($0.firstTries, $0.firstTryPasses) }
        let job = totals.snapshot()
        let yield = tries.0 > 0 ? Double(tries.1) / Double(tries.0) : 1
        display.status(
            done: job.done, total: job.total, share: "\(totals.shareLabel) \(job.here)", perMinute: job.perMinute,
            etaSeconds: job.etaSeconds, yield: yield, unpublished: publishing?.backlog ?? 0, last: last())
    }
}
