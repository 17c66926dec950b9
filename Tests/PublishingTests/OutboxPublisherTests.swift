import Foundation
import JSONReader
import Ledger
import MQTTService
import Publishing
import TestSupport
import Testing

/// `OutboxPublisher` against a real mosquitto and a real ledger file, with `mosquitto_sub -q 1` as the consumer:
/// order, ids, marking only after PUBACKs, resending after a broker restart, credentials, drain, status, waits.
@Suite(.timeLimit(.minutes(3))) struct OutboxPublisherTests {
    /// A ledger file with job `j`, a broker, and a publisher of `j` as station `st1` under prefix `plant`.
    struct Line {
        let folder: URL
        let ledger: Ledger
        let broker: MosquittoBroker
        let publisher: OutboxPublisher

        init(
            broker: MosquittoBroker? = nil, credentials: MQTTCredentials? = nil, details: [String: String] = [:],
            coalescing: Duration = .milliseconds(50)
        ) async throws {
            folder = try Fixtures.temporaryDirectory("publishing")
            ledger = try await Ledger.open(path: folder.appendingPathComponent("ledger.sqlite").path)
            try await ledger.registerJob(name: "j", manifestHash: "m", templateHash: "t")
            if let broker {
                self.broker = broker
            } else {
                self.broker = try await MosquittoBroker.start()
            }
            let configuration = PublishConfiguration(
                endpoint: try MQTTEndpoint(parsing: self.broker.url(prefix: "plant")), credentials: credentials,
                coalescing: coalescing)
            publisher = OutboxPublisher(
                store: ledger, job: "j", station: "st1", configuration: configuration, statusDetails: details)
        }

        /// The job's events in the ledger, in sequence order.
        func events() async throws -> [OutboxEvent] {
            try await ledger.outboxEvents(job: "j", after: 0, limit: 100_000, unpublishedOnly: false)
        }
    }

    /// The `id` and `row` of each tag message, in arrival order.
    static func idsAndRows(_ messages: [MosquittoSubscriber.Message]) throws -> [(id: String, row: Int)] {
        try messages.map { message in
            guard case .object(let object) = try JSONValue.parse(message.payload),
                case .string(let id)? = object["id"], case .integer(let row)? = object["row"]
            else { throw HarnessError("not a tag event: \(message)") }
            return (id, Int(row))
        }
    }

    /// Polls `condition` every 10 ms until it holds or `limit` passes (a bound that only ends a broken run; the
    /// full suite can starve a test for a minute); returns whether it held.
    static func eventually(within limit: Duration = .seconds(120), _ condition: () async throws -> Bool)
        async rethrows -> Bool
    {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return try await condition()
    }

    @Test func aBacklogIsPublishedInSequenceOrderWithIdsAndMarked() async throws {
        let line = try await Line()
        try await line.ledger.addDoneRows(job: "j", count: 40)
        let subscriber = try await MosquittoSubscriber.start(line.broker, topics: ["plant/#"])
        try await line.publisher.start()
        #expect(await line.publisher.drain(within: .seconds(30)) == 0)
        let received = await subscriber.waitFor(count: 40, topicPrefix: "plant/j/")
        let events = try await line.events()
        #expect(received.allSatisfy { $0.topic == "plant/j/st1/tag" && !$0.retained })
        let seen = try Self.idsAndRows(received)
        #expect(seen.map(\.id) == events.map(\.id))
        #expect(seen.map(\.row) == Array(1...40))
        #expect(events.allSatisfy { $0.publishedAt != nil })
        #expect(try await line.ledger.outboxBacklog(job: "j") == 0)
        // The payload is the stored one with the id added: every stored key is there.
        guard case .object(let first) = try JSONValue.parse(received[0].payload),
            case .object(let stored) = try JSONValue.parse(Array(events[0].payload.utf8))
        else { throw HarnessError("payloads are not objects") }
        #expect(first.filter { $0.key != "id" } == stored)
        await line.publisher.stop()
    }

    @Test func nothingIsMarkedWhileThePUBACKsAreWithheldAndAllAfterwards() async throws {
        let line = try await Line()
        let subscriber = try await MosquittoSubscriber.start(line.broker, topics: ["plant/j/#"])
        try await line.publisher.start()
        try await line.broker.pause()
        try await line.ledger.addDoneRows(job: "j", count: 20)
        line.publisher.nudge()
        // All 20 handed to the (frozen) broker: none can have its PUBACK, so none is marked.
        #expect(await Self.eventually { await line.publisher.unacknowledged == 20 })
        #expect(try await line.events().allSatisfy { $0.publishedAt == nil })
        #expect(try await line.ledger.outboxBacklog(job: "j") == 20)
        line.broker.resume()
        #expect(await line.publisher.drain(within: .seconds(30)) == 0)
        #expect(try await line.events().allSatisfy { $0.publishedAt != nil })
        #expect(try Self.idsAndRows(await subscriber.waitFor(count: 20, topicPrefix: "plant/j/")).count == 20)
        await line.publisher.stop()
    }

    /// Nudged events gather while a line runs: after the first event is published, twenty tags (each nudging) are
    /// not read until `drain` hurries the pump, which does not wait out the gathering (an hour here, so nothing races
    /// a timer), and are then marked in one transaction (one deferred commit), all of them, in order.
    @Test func nudgedEventsGatherIntoOneMarkAndDrainDoesNotWaitForTheDelay() async throws {
        let line = try await Line(coalescing: .seconds(3600))
        let subscriber = try await MosquittoSubscriber.start(line.broker, topics: ["plant/j/#"])
        try await line.ledger.addDoneRows(job: "j", count: 1)
        try await line.publisher.start()
        // The pump's first read at start sends the first event at once; from then on it gathers after each wake.
        #expect(await Self.eventually { await line.publisher.published == 1 })
        for _ in 0..<20 {
            try await line.ledger.addDoneRows(job: "j", count: 1)
            line.publisher.nudge()
        }
        // The rows' durable commits synced the first mark; nothing was read or marked since.
        #expect(await line.ledger.unsyncedCommitCount == 0)
        #expect(await line.publisher.unacknowledged == 0)
        #expect(try await line.ledger.outboxBacklog(job: "j") == 20)
        #expect(await line.publisher.drain(within: .seconds(30)) == 0)
        #expect(await line.publisher.published == 21)
        #expect(await line.ledger.unsyncedCommitCount == 1)
        let received = await subscriber.waitFor(count: 21, topicPrefix: "plant/j/")
        #expect(try Self.idsAndRows(received).map(\.row) == Array(1...21))
        await line.publisher.stop()
    }

    /// Pipelined: the next batch (500 events) is handed to the client before the PUBACKs of the previous one are
    /// awaited, so a frozen broker has two batches in flight, not one; once it resumes all arrive in order, marked.
    @Test func theNextBatchIsHandedOverBeforeThePreviousBatchIsAcknowledged() async throws {
        let line = try await Line()
        let subscriber = try await MosquittoSubscriber.start(line.broker, topics: ["plant/j/#"])
        try await line.publisher.start()
        try await line.broker.pause()
        // 1,200 events in one transaction (the pump sees none or all), as many tags would write.
        _ = try SQLiteShell.query(
            line.folder.appendingPathComponent("ledger.sqlite").path,
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1200)
            INSERT INTO outbox (id, job, row, station, outcome, payload, created_at)
            SELECT printf('event-%04d', i), 'j', i, 'st1', 'done', '{"row":' || i || '}', '2026-01-01T00:00:00.000Z'
            FROM n;
            """)
        line.publisher.nudge()
        #expect(await Self.eventually { await line.publisher.unacknowledged == 1000 })
        #expect(try await line.ledger.outboxBacklog(job: "j") == 1200)
        line.broker.resume()
        #expect(await line.publisher.drain(within: .seconds(60)) == 0)
        #expect(await line.publisher.published == 1200)
        let received = await subscriber.waitFor(count: 1200, topicPrefix: "plant/j/")
        #expect(try Self.idsAndRows(received).map(\.row) == Array(1...1200))
        await line.publisher.stop()
    }

    /// A broker (with persistence, as a plant's) restarted in the middle of a stream, with 200 events handed to it
    /// and unacknowledged: every event reaches the persistent-session consumer at least once, duplicates carry the
    /// same id, all are marked, and the outage is one `.brokerDown` and one `.brokerBack`.
    @Test func aBrokerRestartMidStreamLosesNothing() async throws {
        let line = try await Line(broker: try await MosquittoBroker.start(persistence: true))
        var notices = line.publisher.notices.makeAsyncIterator()
        let subscriber = try await MosquittoSubscriber.start(
            line.broker, topics: ["plant/j/#"], sessionID: "consumer-\(UUID().uuidString.prefix(8))")
        try await line.ledger.addDoneRows(job: "j", count: 100)
        try await line.publisher.start()
        #expect(await line.publisher.drain(within: .seconds(30)) == 0)
        try await line.broker.pause()
        try await line.ledger.addDoneRows(job: "j", count: 200)
        line.publisher.nudge()
        #expect(await Self.eventually { await line.publisher.unacknowledged == 200 })
        #expect(try await line.ledger.outboxBacklog(job: "j") == 200)
        // The frozen broker takes up what it was sent, then stops (saving its sessions) while the stream runs.
        line.broker.resume()
        try await line.broker.restart()
        #expect(await line.publisher.drain(within: .seconds(60)) == 0)
        let events = try await line.events()
        let ids = Set(events.map(\.id))
        let all = await subscriber.waitFor(timeout: .seconds(60)) { messages in
            Set(
                messages.compactMap { try? JSONValue.parse($0.payload) }.compactMap { value -> String? in
                    if case .object(let object) = value, case .string(let id)? = object["id"] { id } else { nil }
                }
            ).isSuperset(of: ids)
        }
        let received = try Self.idsAndRows(all ?? subscriber.messages)
        #expect(Set(received.map(\.id)) == ids, "\(line.broker.log.suffix(2_000))")
        let rowOfID = Dictionary(uniqueKeysWithValues: events.map { ($0.id, $0.row ?? 0) })
        #expect(received.allSatisfy { rowOfID[$0.id] == $0.row })
        #expect(events.count == 300 && events.allSatisfy { $0.publishedAt != nil })
        guard case .brokerDown = await notices.next() else {
            Issue.record("no .brokerDown notice")
            return
        }
        #expect(await notices.next() == .brokerBack)
        await line.publisher.stop()
        #expect(await notices.next() == nil)
    }

    @Test func refusedCredentialsThrowNotAuthorizedAtStart() async throws {
        let broker = try await MosquittoBroker.start(users: [("line", "right")])
        let line = try await Line(broker: broker, credentials: MQTTCredentials(user: "line", password: "wrong"))
        let error = await #expect(throws: MQTTError.self) { try await line.publisher.start() }
        #expect(error?.code == .notAuthorized)
    }

    @Test func drainReturnsWhatIsLeftWhenTheBrokerIsDown() async throws {
        let line = try await Line()
        line.broker.crash()
        let error = await #expect(throws: MQTTError.self) { try await line.publisher.start() }
        #expect(error?.code == .unreachable)
        try await line.ledger.addDoneRows(job: "j", count: 5)
        line.publisher.nudge()
        #expect(await line.publisher.drain(within: .milliseconds(300)) == 5)
        #expect(await line.publisher.backlog == 5)
        await line.publisher.stop()
    }

    @Test func theRetainedStatusIsOnlineWithDetailsThenOfflineAfterStop() async throws {
        let line = try await Line(details: ["lease": "host:1:2"])
        try await line.publisher.start()
        // A consumer that subscribes later gets the retained status.
        let subscriber = try await MosquittoSubscriber.start(line.broker, topics: ["plant/st1/status"])
        let online = try #require(await subscriber.waitFor { $0.contains { $0.text.contains("online") } }?.last)
        guard case .object(let status) = try JSONValue.parse(online.payload) else { throw HarnessError("\(online)") }
        #expect(status["state"] == .string("online") && status["station"] == .string("st1"))
        #expect(status["job"] == .string("j") && status["lease"] == .string("host:1:2"))
        #expect(status["since"] != nil)
        await line.publisher.stop()
        let after = await subscriber.waitFor { $0.contains { $0.text.contains("\"offline\"") } }
        let offline = try #require(after?.last)
        #expect(offline.topic == "plant/st1/status")
        #expect(offline.text.contains("\"station\":\"st1\"") && offline.text.contains("\"since\""))
    }

    @Test func waitForBacklogReturnsOnceTheBrokerIsBack() async throws {
        let line = try await Line()
        var notices = line.publisher.notices.makeAsyncIterator()
        await line.broker.stop()
        await #expect(throws: MQTTError.self) { try await line.publisher.start() }
        try await line.ledger.addDoneRows(job: "j", count: 5)
        line.publisher.nudge()
        let waiting = Task { await line.publisher.waitForBacklog(below: 3) }
        #expect(await line.publisher.drain(within: .milliseconds(200)) == 5)
        try await line.broker.restart()
        await waiting.value
        #expect(try await line.ledger.outboxBacklog(job: "j") < 3)
        #expect(await notices.next() == .brokerBack)
        #expect(await line.publisher.drain(within: .seconds(30)) == 0)
        await line.publisher.stop()
    }

    /// On a ledger server a station's publisher sends and counts only its own events and those no station wrote
    /// (what its login may mark); `.job` sends every station's.
    @Test func aStationOnALedgerServerPublishesItsOwnEventsAndJobScopeAll() async throws {
        let server = try PostgresTestServer.shared()
        let conninfo = try server.createDatabase()
        _ = try await PostgresLedger.migrate(conninfo: conninfo)
        let ledger = try await PostgresLedger.open(conninfo: conninfo, station: "s1")
        try await ledger.registerJob(name: "j", manifestHash: "m", templateHash: "t")
        let rows = [("s1", 1), ("s2", 2), (nil, 3), ("s1", 4)]
        _ = try server.query(
            conninfo,
            rows.map { station, row in
                "INSERT INTO outbox (id, job, row, station, outcome, payload, created_at) VALUES "
                    + "('00000000-0000-7000-8000-00000000a00\(row)', 'j', \(row), "
                    + "\(station.map { "'\($0)'" } ?? "NULL"), 'done', '{\"row\": \(row)}', "
                    + "'2026-01-01T00:00:00.000Z'); "
            }.joined())
        let broker = try await MosquittoBroker.start()
        let subscriber = try await MosquittoSubscriber.start(broker, topics: ["plant/j/#"])
        let configuration = PublishConfiguration(endpoint: try MQTTEndpoint(parsing: broker.url(prefix: "plant")))
        let station = OutboxPublisher(store: ledger, job: "j", station: "s1", configuration: configuration)
        try await station.start()
        #expect(await station.drain(within: .seconds(30)) == 0)
        await station.stop()
        let own = await subscriber.waitFor(count: 3, topicPrefix: "plant/j/")
        #expect(try Self.idsAndRows(own).map(\.row) == [1, 3, 4])
        #expect(own.map(\.topic) == ["plant/j/s1/tag", "plant/j/s1/tag", "plant/j/s1/tag"])
        #expect(try await ledger.outboxBacklog(job: "j") == 1)
        let all = OutboxPublisher(
            store: ledger, job: "j", station: "central", configuration: configuration, scope: .job)
        try await all.start()
        #expect(await all.drain(within: .seconds(30)) == 0)
        await all.stop()
        let rest = await subscriber.waitFor(count: 4, topicPrefix: "plant/j/")
        #expect(rest.last?.topic == "plant/j/s2/tag" && rest.last?.text.contains("\"row\": 2") == true)
        #expect(try await ledger.outboxBacklog(job: "j") == 0)
    }
}
