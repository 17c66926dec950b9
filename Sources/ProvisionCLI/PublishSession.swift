import Dispatch
import Foundation
import Ledger
import MQTTService
import NFCTags
import Provisioning
import Publishing
import Support
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `run --publish`: the run's `OutboxPublisher` and what the operator sees of it: one warning a broker outage, the
/// progress line's backlog, the `--publish-required` pause before the next tag, and the drain at the end.
///
/// While it runs, SIGTERM stops the line like a first Ctrl-C, so the end of the run still drains (within the same
/// limit) and publishes the retained `offline` status itself instead of leaving it to the broker's last will.
final class PublishSession: Sendable {
    let publisher: OutboxPublisher
    let configuration: PublishConfiguration
    private let store: any LedgerStore
    private let job: String
    /// The station whose events the publisher sends and `gate` counts (`nil`: the whole job's).
    private let scopeStation: String?
    private let display: ProgressDisplay
    /// The backlog as last seen, for the progress line (refreshed in the background).
    private let seenBacklog = Atomic<Int>(0)
    /// The readers waiting at `gate`, and whether their pause was announced (one `paused` line a pause).
    private let pause = Mutex((waiting: 0, announced: false))
    /// How long a wait at `gate` lasts before it is announced: a line at `--publish-required 1` waits for every
    /// event's PUBACK, a few milliseconds, and only a real pause (the broker away or slow) is worth a line.
    static let pauseNotice = Duration.seconds(1)
    private let watchers: Mutex<[Task<Void, Never>]> = Mutex([])
    private let termination: Mutex<(any DispatchSourceSignal)?> = Mutex(nil)

    private init(
        publisher: OutboxPublisher, configuration: PublishConfiguration, store: any LedgerStore, job: String,
        scopeStation: String?, display: ProgressDisplay
    ) {
        self.publisher = publisher
        self.configuration = configuration
        self.store = store
        self.job = job
        self.scopeStation = scopeStation
        self.display = display
    }

    /// The broker as messages name it (never its credentials).
    var broker: String { configuration.endpoint.description }

    /// Connects to the broker before the first tag; SIGTERM from now on stops the line between tags (`stop`).
    ///
    /// - Throws: `CLIError` 77 when the broker refuses the credentials (nothing keeps running). Any other failure
    ///   is one warning: the line runs, and events wait in the outbox until the broker answers.
    static func start(
        _ configuration: PublishConfiguration, store: any LedgerStore, job: String, station: String,
        details: [String: String], display: ProgressDisplay, stop: StopRequest
    ) async throws(CLIError) -> PublishSession {
        // On a ledger server a station's login may mark only its own events (and those no station wrote): it
        // sends, and its line waits for, those; on a ledger file, the job's.
        let scope: PublishScope = store is PostgresLedger ? .ownStation : .job
        let publisher = OutboxPublisher(
            store: store, job: job, station: station, configuration: configuration, statusDetails: details,
            scope: scope)
        let session = PublishSession(
            publisher: publisher, configuration: configuration, store: store, job: job,
            scopeStation: scope == .ownStation ? station : nil, display: display)
        do {
            try await publisher.start()
        } catch {
            if error.code == .notAuthorized {
                throw PublishOptions.credentialsRefused(by: session.broker, error)
            }
            session.warnDown(error.message)
        }
        session.watch(stop: stop)
        return session
    }

    /// New outbox rows exist (a tag outcome was recorded): the publisher sends them now.
    func nudge() { publisher.nudge() }

    /// The unpublished events as last seen (0 when all are published).
    var backlog: Int { seenBacklog.load(ordering: .relaxed) }

    /// `--publish-required N`: before the next tag, waits while N or more events are unpublished; a wait longer
    /// than `pauseNotice` is announced (one `paused` line for the whole line, and one `resumed` line when the last
    /// reader goes on). A stop request ends the wait.
    func gate(stop: StopRequest) async {
        guard let limit = configuration.required,
            let count = try? await store.outboxBacklog(job: job, station: scopeStation), count >= limit
        else { return }
        pause.withLock { $0.waiting += 1 }
        let text =
            "paused: \(count) event\(count == 1 ? "" : "s") unpublished, broker \(broker) (--publish-required "
            + "\(limit)); the line resumes once fewer than \(limit) are"
        let announcer = Task { [self] in
            try await Task.sleep(for: Self.pauseNotice)
            pause.withLock { state in
                guard state.waiting > 0, !state.announced else { return }
                state.announced = true
                display.alert(text)
            }
        }
        _ = try? await stop.interruptible { [publisher] in await publisher.waitForBacklog(below: limit) }
        announcer.cancel()
        pause.withLock { state in
            state.waiting -= 1
            guard state.waiting == 0, state.announced else { return }
            state.announced = false
            if !stop.isRequested { display.alert("resumed: fewer than \(limit) events unpublished") }
        }
    }

    /// The end of the run (also after Ctrl-C or SIGTERM): publishes what is left for up to the drain limit, warns
    /// about the events left, then publishes the retained `offline` status and disconnects. From here on SIGTERM
    /// has its default action again: a second one (a service manager giving up) ends the process at once, and the
    /// broker's last will says `offline`.
    func finish() async {
        termination.withLock { source in
            source?.cancel()
            source = nil
            signal(SIGTERM, SIG_DFL)
        }
        let left = await publisher.drain(within: configuration.drain)
        if left > 0 {
            display.finish()
            display.sink.line(
                "warning: \(left) event\(left == 1 ? "" : "s") not yet published to \(broker) within "
                    + "\(ProgressDisplay.number(configuration.drain.seconds, 1)) s; they stay in the outbox, and "
                    + "'provision publish' or the next run sends them")
        }
        await publisher.stop()
        for task in watchers.withLock({ $0 }) { task.cancel() }
    }

    /// Follows the publisher's notices and its backlog, and turns SIGTERM into `stop`.
    private func watch(stop: StopRequest) {
        let notices = Task { [publisher] in
            for await notice in publisher.notices {
                switch notice {
                case .brokerDown(let reason): warnDown(reason)
                case .brokerBack:
                    display.finish()
                    display.sink.line("note: broker \(broker) answers again; sending the outbox")
                }
            }
        }
        let backlog = Task { [publisher] in
            while !Task.isCancelled {
                seenBacklog.store(await publisher.backlog, ordering: .relaxed)
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
        watchers.withLock { $0 = [notices, backlog] }
        signal(SIGTERM, SIG_IGN)
        termination.withLock { slot in
            let source = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .global())
            source.setEventHandler { @Sendable in
                FileHandle.standardError.write(
                    Data("\nterminated: finishing the tag in progress, publishing, then stopping\n".utf8))
                stop.request()
            }
            source.resume()
            slot = source
        }
    }

    private func warnDown(_ reason: String) {
        display.finish()
        display.sink.line(
            "warning: publishing to \(broker) stopped (\(reason)); the line runs, and events wait in the outbox "
                + "until the broker answers")
    }
}

/// What `run --publish` asks of the line: the configuration (`PublishOptions.configuration`) and the station name
/// the broker sees (`--station`, else the host name).
struct PublishTarget: Sendable {
    var configuration: PublishConfiguration
    var station: String

    /// Starts publishing on a ledger connection of its own, the retained status naming the readers and, on a
    /// ledger server, the station's lease.
    func start(
        job: JobContext, readers: [any TagReader], ledger: any LedgerStore, lease: StationLease?,
        display: ProgressDisplay, stop: StopRequest, outage: OutageRetry
    ) async throws(CLIError) -> PublishSession {
        let store: any LedgerStore
        if case .server(let conninfo) = job.manifest.ledger {
            store = try await outage.connect(conninfo, station: station, probe: ledger)
        } else {
            store = try await JobContext.openLedger(job.manifest.ledger, create: false, station: station)
        }
        var details = ["readers": readers.map(\.name).joined(separator: ", ")]
        if let lease {
            details["lease"] = "\(ProgressDisplay.number(lease.duration.seconds, 0)) s"
            details["leaseInstance"] = lease.instance
        }
        return try await PublishSession.start(
            configuration, store: store, job: job.manifest.job, station: station, details: details,
            display: display, stop: stop)
    }
}
