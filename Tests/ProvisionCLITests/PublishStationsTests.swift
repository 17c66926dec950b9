import Foundation
import TestSupport
import Testing

/// Two stations publishing one PostgreSQL job's events while the broker restarts twice and each station is
/// SIGKILLed once, then resumed (issue 45, "Tests with a real broker"): the consumer gets an event for every done
/// row, a duplicate always carries the same id, no event names a row that is not done with its UID, and each
/// station's retained status ends `offline`.
@Suite(.serialized) struct PublishStationsTests {
    static let rows = 200

    @Test func twoStationsPublishEveryDoneRowThroughBrokerRestartsAndKills() async throws {
        let folder = try JobFolder(rows: Self.rows, lock: false, extra: #", "public": ["sku"]"#)
        let line = try StationLine.migrated(folder: folder)
        // A plant broker keeps its sessions across a restart; the consumer's persistent session then misses
        // nothing the broker acknowledged while it was away.
        let broker = try await MosquittoBroker.start(persistence: true)
        let consumer = try await MosquittoSubscriber.start(broker, topics: ["line/#"], sessionID: "mes-consumer")
        let stations = [("s1", line.bench, "04610000000001"), ("s2", line.other, "04620000000001")]
        func start(_ index: Int, _ attempt: Int) throws -> ProvisionProcess.Background {
            let (station, login, uid) = stations[index]
            return try ProvisionProcess.start(
                [
                    "run", "job.json", "--ledger", line.conninfo(login), "--station", station, "--lease", "2",
                    "--publish", broker.url(prefix: "line"), "--reader",
                    folder.sim(uid: uid, options: "timing=datasheet"),
                ], directory: folder.url, name: "\(station)-\(attempt)")
        }
        // psql runs off the test pool: a blocked pool thread would starve the other tests' waits.
        let (server, admin) = (line.server, line.admin)
        /// The rows done, read on the calling thread.
        @Sendable func doneNow() throws -> Int {
            Int(try server.query(admin, "SELECT count(*) FROM records WHERE state = 'done'")[0][0]) ?? -1
        }
        @Sendable func done() async throws -> Int { try await onThread { try doneNow() } }
        @Sendable func waitForDone(_ count: Int) async throws {
            let deadline = ContinuousClock.now + .seconds(240)
            while try await done() < count {
                guard ContinuousClock.now < deadline else { throw HarnessError("fewer than \(count) rows done") }
                try await Task.sleep(for: .milliseconds(50))
            }
        }

        var running = [try start(0, 0), try start(1, 0)]
        // The broker restarts on a task of its own: a restart may take long on a loaded machine, and the kills
        // must still land while the stations run.
        let restarts = Task {
            try await waitForDone(30)
            try await broker.restart()
            try await waitForDone(100)
            try await broker.restart()
        }
        /// Kills `process` as soon as `count` rows are done, watching from a thread of its own: a watch on the
        /// cooperative pool, which other tests may hold, could notice too late, after the station had finished.
        @Sendable func kill(_ process: ProvisionProcess.Background, whenDone count: Int) async throws -> Bool {
            try await onThread {
                let deadline = ContinuousClock.now + .seconds(240)
                while try doneNow() < count {
                    guard ContinuousClock.now < deadline else { throw HarnessError("fewer than \(count) rows done") }
                    usleep(20_000)
                }
                let wasRunning = process.isRunning
                process.signal(SIGKILL)
                return wasRunning
            }
        }
        #expect(try await kill(running[0], whenDone: 60), "station s1 ended before its kill")
        let killed1 = try await running[0].wait()
        #expect(killed1.status != 0)
        #expect(try await kill(running[1], whenDone: 110), "station s2 ended before its kill")
        let killed2 = try await running[1].wait()
        #expect(killed2.status != 0)
        try await restarts.value

        // Resume both once their leases (2 s) have run out on the server's clock.
        try await Self.waitUntil {
            try line.server.query(line.admin, "SELECT count(*) FROM stations WHERE lease_expires >= now()")
                == [["0"]]
        }
        running = [try start(0, 1), try start(1, 1)]
        for process in running {
            let ended = try await process.wait()
            #expect(ended.status == 0, "\(ended.stdout.suffix(1_500))\(ended.stderr.suffix(1_500))")
        }
        #expect(try await done() == Self.rows)

        // Every done row's event reached the consumer, at least once; duplicates carry one id per row.
        let received = await consumer.waitFor(timeout: .seconds(60)) { messages in
            Set(messages.compactMap { Self.event($0)?.row }).count >= Self.rows
        }
        let messages = try #require(received, "consumer got \(consumer.messages.count) messages\n\(broker.log)")
        let events = messages.compactMap(Self.event)
        var idsByRow: [Int: Set<String>] = [:]
        for event in events where event.outcome == "done" { idsByRow[event.row, default: []].insert(event.id) }
        #expect(idsByRow.count == Self.rows)
        #expect(idsByRow.values.allSatisfy { $0.count == 1 }, "a row's duplicates carry different ids")
        // No event names a row that is not done by that UID.
        let doneUIDs = Dictionary(
            uniqueKeysWithValues: try line.server.query(line.admin, "SELECT row, uid FROM records").map {
                (Int($0[0]) ?? -1, $0[1])
            })
        for event in events { #expect(event.outcome == "done" && doneUIDs[event.row] == event.uid, "\(event)") }
        // Every event id is the outbox's, and each station marked its own events published.
        let outbox = try line.server.query(line.admin, "SELECT id FROM outbox WHERE outcome = 'done'").map { $0[0] }
        #expect(Set(events.map(\.id)) == Set(outbox))

        // The retained status of each stopped station is `offline`.
        let status = try await MosquittoSubscriber.start(broker, topics: ["line/+/status"])
        let retained = await status.waitFor { $0.filter(\.retained).count >= 2 }
        let states = Dictionary(
            (retained ?? []).filter(\.retained).map { ($0.topic, Self.state(of: $0)) }, uniquingKeysWith: { $1 })
        #expect(states == ["line/s1/status": "offline", "line/s2/status": "offline"], "\(retained ?? [])")
    }

    /// A tag event's id, outcome, row and UID, from its message; `nil` for other topics.
    struct Event: Sendable, CustomStringConvertible {
        let id: String, outcome: String, row: Int, uid: String
        var description: String { "\(outcome) row \(row) \(uid) \(id)" }
    }

    static func event(_ message: MosquittoSubscriber.Message) -> Event? {
        guard message.topic.hasSuffix("/tag"),
            let object = try? JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any],
            let id = object["id"] as? String, let outcome = object["outcome"] as? String,
            let row = object["row"] as? Int, let uid = object["uid"] as? String
        else { return nil }
        return Event(id: id, outcome: outcome, row: row, uid: uid)
    }

    static func state(of message: MosquittoSubscriber.Message) -> String {
        let object = try? JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any]
        return object?["state"] as? String ?? message.text
    }

    static func waitUntil(_ condition: () throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while try !condition() {
            guard ContinuousClock.now < deadline else { throw HarnessError("condition not met within 60 s") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
