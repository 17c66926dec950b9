import Foundation
import Ledger
import MQTTService

/// Pumps one job's outbox to the broker at QoS 1; marks an event published only after its PUBACK.
///
/// Events go out in outbox sequence order on `PREFIX/JOB/STATION/tag`, the stored payload with the event's `id`
/// added (docs/events.md, "Publishing"). When the connection drops, the events without their PUBACK are sent again
/// in order after a reconnect (0.5 s doubling to 5 s between tries), so consumers may see an event twice and dedupe
/// by its id. The pump wakes on `nudge()` or once a second, so events other processes write are seen too, and then
/// lets events gather for `PublishConfiguration.coalescing` (not while `drain` or `waitForBacklog` runs). A mark is
/// committed without a sync (`markPublished`): one lost to a power loss only sends its event again.
public actor OutboxPublisher {
    /// How often the pump and the backlog count look at the ledger without a nudge.
    static let pollInterval = Duration.seconds(1)
    /// The first and the longest pause between two connection attempts.
    static let firstPause = Duration.milliseconds(500)
    static let longestPause = Duration.seconds(5)
    /// Events read, sent and marked at a time.
    static let batchSize = 500
    /// How long `stop()` waits for the PUBACK of the retained `offline` status.
    static let stopTimeout = Duration.seconds(5)

    /// Outages and recoveries, one notice each, in order; ends after `stop()`.
    public nonisolated let notices: AsyncStream<PublishNotice>

    let store: any LedgerStore
    let job: String
    let station: String
    let configuration: PublishConfiguration
    let statusDetails: [String: String]
    /// The station whose events are sent and counted (`nil`: every station's).
    let scopeStation: String?
    let client: MQTTClient
    let noticeSink: AsyncStream<PublishNotice>.Continuation
    /// Wakes the pump (`nudge`, a lost connection) and the backlog count (`nudge`).
    let pumpWake = WakeSignal()
    let countWake = WakeSignal()
    /// End the pump's and the backlog count's gathering of nudged events (`hurry()`).
    let pumpHurry = WakeSignal()
    let countHurry = WakeSignal()

    var pump: Task<Void, Never>?
    var watcher: Task<Void, Never>?
    var listener: Task<Void, Never>?
    var stopping = false
    /// Calls under way that want events published at once (`drain`, `waitForBacklog`): no gathering meanwhile.
    var hurrying = 0
    /// Whether an outage is current (announced, or reported to `start`'s caller).
    var inOutage = false
    /// Unpublished events of the job as last counted, less those marked since.
    var knownBacklog = 0
    /// Events handed to the client whose PUBACK has not come yet.
    var inFlight = 0
    /// Events marked published by this publisher.
    var markedCount = 0
    /// The ledger count's newest applied ticket, the next one, and how many marks have been made (a count that
    /// ran while a mark did is ambiguous and dropped).
    var appliedCount = 0
    var nextCount = 0
    var markEpoch = 0
    /// Waits for the backlog to fall below a limit.
    var backlogWaiters: [UUID: (limit: Int, continuation: CheckedContinuation<Void, Never>)] = [:]

    /// A publisher of `job`'s events under `station`'s name; nothing connects until `start()`.
    ///
    /// - Parameters:
    ///   - statusDetails: more keys of the retained status JSON (lease information).
    ///   - scope: which events it sends; by default `.ownStation` on a ledger server (where a station's login may
    ///     mark only its own) and `.job` on a ledger file.
    public init(
        store: any LedgerStore, job: String, station: String, configuration: PublishConfiguration,
        statusDetails: [String: String] = [:], scope: PublishScope? = nil
    ) {
        self.store = store
        self.job = job
        self.station = station
        let scope = scope ?? (store is PostgresLedger ? .ownStation : .job)
        scopeStation = scope == .ownStation ? station : nil
        self.configuration = configuration
        self.statusDetails = statusDetails
        let will = OutboxMessages.status(
            online: false, endpoint: configuration.endpoint, station: station, job: job, details: statusDetails,
            since: nil)
        let options = MQTTConnectOptions(
            clientID: Self.clientID(station: station, job: job),
            will: MQTTWill(topic: will.topic, payload: will.payload, retain: true),
            credentials: configuration.credentials, tls: configuration.tls)
        client = MQTTClient(endpoint: configuration.endpoint, options: options)
        (notices, noticeSink) = AsyncStream.makeStream(of: PublishNotice.self)
    }

    /// The MQTT client id: `provision/STATION/JOB` (one connection a station and job; the broker closes an older
    /// one with the same id).
    public static func clientID(station: String, job: String) -> String { "provision/\(station)/\(job)" }

    /// Connects (will: retained "offline" on PREFIX/STATION/status), publishes the retained online status, pumps.
    ///
    /// - Throws: `MQTTError` `.notAuthorized` (the caller exits 77 before any tag; nothing keeps running), or
    ///   another connection failure (the caller warns; the pump keeps retrying in the background, and announces
    ///   `.brokerBack` once connected).
    public func start() async throws(MQTTError) {
        guard pump == nil, !stopping else { return }
        listener = Task { [client] in
            for await event in client.events { await self.connectionChanged(event) }
        }
        watcher = Task { await self.watchBacklog() }
        do {
            try await client.connect()
            await wentOnline()
        } catch {
            if error.code == .notAuthorized {
                await stop()
                throw error
            }
            inOutage = true
            pump = Task { await self.runPump() }
            throw error
        }
        pump = Task { await self.runPump() }
    }

    /// New outbox rows exist: wake the pump now (called after each tag outcome). Cheap, nonisolated.
    public nonisolated func nudge() {
        pumpWake.signal()
        countWake.signal()
    }

    /// Ends the pump's and the count's gathering of nudged events now (`configuration.coalescing`).
    func hurry() {
        pumpHurry.signal()
        countHurry.signal()
    }

    /// Events of this job not yet marked published (ledger backlog as the publisher last saw it + in flight).
    public var backlog: Int { knownBacklog }

    /// Events handed to the broker whose PUBACK has not come yet.
    public var unacknowledged: Int { inFlight }

    /// Events this publisher marked published (after their PUBACK) since it started.
    public var published: Int { markedCount }

    /// Returns once fewer than `limit` events are unpublished (for --publish-required); returns at once if already so.
    ///
    /// Decided on a fresh count of the ledger (taken again on each mark and once a second); a cancelled caller or
    /// `stop()` also ends the wait.
    public func waitForBacklog(below limit: Int) async {
        hurrying += 1
        defer { hurrying -= 1 }
        hurry()
        while !Task.isCancelled, !stopping {
            guard let count = await countBacklog(), count >= limit else { return }
            _ = await waitBacklog(below: count, deadline: .now + Self.pollInterval)
        }
    }

    /// Publishes until the outbox is empty or `within` passes; returns how many events are left unpublished.
    public func drain(within: Duration) async -> Int {
        let deadline = ContinuousClock.now + within
        hurrying += 1
        defer { hurrying -= 1 }
        hurry()
        nudge()
        while true {
            let count = await countBacklog() ?? knownBacklog
            guard count > 0, ContinuousClock.now < deadline, !stopping, !Task.isCancelled else { return count }
            _ = await waitBacklog(below: count, deadline: min(deadline, .now + Self.pollInterval))
        }
    }

    /// Clean end: publishes retained "offline" status, disconnects (so the will does not fire).
    ///
    /// Events in flight stay unpublished in the ledger and are sent again by the next publisher.
    public func stop() async {
        guard !stopping else { return }
        stopping = true
        for task in [pump, watcher] { task?.cancel() }
        for task in [pump, watcher] { await task?.value }
        if await client.isConnected {
            let offline = OutboxMessages.status(
                online: false, endpoint: configuration.endpoint, station: station, job: job, details: statusDetails,
                since: Date())
            if let delivery = try? await client.send(offline) {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { try? await delivery.acknowledged() }
                    group.addTask { try? await Task.sleep(for: Self.stopTimeout) }
                    await group.next()
                    group.cancelAll()
                }
            }
        }
        await client.disconnect()
        listener?.cancel()
        for waiter in backlogWaiters.values { waiter.continuation.resume() }
        backlogWaiters = [:]
        noticeSink.finish()
    }
}
