import Foundation
import JSONReader
import TestSupport
import Testing

/// `provision publish` end to end (docs/events.md, "Publishing"): the real binary drains a ledger's outbox to a real
/// mosquitto, `mosquitto_sub -q 1` is the consumer; one publisher a job (75), refused credentials (77), no broker
/// (69), and a PostgreSQL ledger under a `provision_publisher` login.
@Suite(.serialized, .timeLimit(.minutes(5))) struct PublishCommandTests {
    /// A job folder whose 4 rows ran on the simulator: 4 `done` events in its ledger file.
    static func ranFolder() async throws -> JobFolder {
        let folder = try JobFolder(rows: 4, extra: #", "public": ["sku"]"#)
        let run = try await onThread {
            try ProvisionProcess.run(
                ["run", "job.json", "--reader", folder.sim(uid: "04000000000001"), "--quiet"], directory: folder.url)
        }
        #expect(run.status == 0, "\(run.stderr)")
        return folder
    }

    /// The `id` of each message's JSON payload.
    static func ids(_ messages: [MosquittoSubscriber.Message]) throws -> [String] {
        try messages.map { message in
            guard case .object(let object) = try JSONValue.parse(message.payload), case .string(let id)? = object["id"]
            else { throw HarnessError("not a tag event: \(message)") }
            return id
        }
    }

    @Test func drainsALedgerFilesOutboxToTheBrokerAndMarksEveryEvent() async throws {
        let folder = try await Self.ranFolder()
        let broker = try await MosquittoBroker.start()
        let subscriber = try await MosquittoSubscriber.start(broker, topics: ["plant/#"])
        let publish = try await onThread {
            try ProvisionProcess.run(
                ["publish", "job.json", "--to", broker.url(prefix: "plant"), "--json"], directory: folder.url)
        }
        let document = try JSONContract.check(publish, schema: "publish")
        #expect(document["published"] as? Int == 4 && document["left"] as? Int == 0, "\(document)")
        let received = await subscriber.waitFor(count: 4, topicPrefix: "plant/t/")
        let stored = try folder.query("SELECT id FROM outbox ORDER BY sequence").map { $0[0] }
        #expect(try Self.ids(received) == stored)
        #expect(received.allSatisfy { $0.topic.hasSuffix("/tag") })
        #expect(try folder.query("SELECT count(*) FROM outbox WHERE published_at IS NULL") == [["0"]])
        // Its retained status ends offline: it stopped cleanly.
        let status = await subscriber.waitFor { $0.contains { $0.topic == "plant/publisher/status" } }
        #expect(status?.last { $0.topic == "plant/publisher/status" }?.text.contains("\"offline\"") == true)
        // Nothing left: a second drain publishes nothing and says so.
        let again = try await onThread {
            try ProvisionProcess.run(
                ["publish", "job.json", "--to", broker.url(prefix: "plant")], directory: folder.url)
        }
        #expect(again.status == 0 && again.stdout.contains("published 0 events"), "\(again.stdout)\(again.stderr)")
    }

    @Test func aSecondPublisherOfTheJobExits75WhileTheFirstFollows() async throws {
        let folder = try await Self.ranFolder()
        let broker = try await MosquittoBroker.start()
        let subscriber = try await MosquittoSubscriber.start(broker, topics: ["plant/#"])
        let first = try ProvisionProcess.start(
            ["publish", "job.json", "--to", broker.url(prefix: "plant"), "--follow"], directory: folder.url,
            name: "first")
        // The first holds the lock once it is online and has sent the backlog.
        _ = await subscriber.waitFor(count: 4, topicPrefix: "plant/t/")
        let second = try await onThread {
            try ProvisionProcess.run(
                ["publish", "job.json", "--to", broker.url(prefix: "plant")], directory: folder.url)
        }
        #expect(second.status == 75, "\(second.stderr)")
        #expect(second.stderr.contains("job 't'") && second.stderr.contains("another"), "\(second.stderr)")
        first.signal(SIGTERM)
        let ended = try await first.wait()
        #expect(ended.status == 0, "\(ended.stderr)")
        #expect(ended.stdout.contains("published 4 events"), "\(ended.stdout)")
        // Once the first has ended, the job's lock is free again.
        let third = try await onThread {
            try ProvisionProcess.run(
                ["publish", "job.json", "--to", broker.url(prefix: "plant")], directory: folder.url)
        }
        #expect(third.status == 0, "\(third.stderr)")
    }

    @Test func refusedCredentialsExit77AndNoBrokerExits69NamingTheBacklog() async throws {
        let folder = try await Self.ranFolder()
        let broker = try await MosquittoBroker.start(users: [("line", "right")])
        let credentials = folder.url.appendingPathComponent("broker.cred")
        _ = FileManager.default.createFile(
            atPath: credentials.path, contents: Data("line:wrong\n".utf8), attributes: [.posixPermissions: 0o600])
        let refused = try await onThread {
            try ProvisionProcess.run(
                ["publish", "job.json", "--to", broker.url(prefix: "plant"), "--publish-credentials", "@broker.cred"],
                directory: folder.url)
        }
        #expect(refused.status == 77, "\(refused.stderr)")
        #expect(!refused.stderr.contains("wrong"), "the password is never printed: \(refused.stderr)")
        await broker.stop()
        let away = try await onThread {
            try ProvisionProcess.run(
                ["publish", "job.json", "--to", broker.url(prefix: "plant")], directory: folder.url)
        }
        #expect(away.status == 69, "\(away.stderr)")
        #expect(away.stderr.contains("4 events of job 't'"), "\(away.stderr)")
        #expect(try folder.query("SELECT count(*) FROM outbox WHERE published_at IS NULL") == [["4"]])
    }

    /// A ledger server's outbox drained by a login granted only the publisher role (`ledger grant publisher`).
    @Test func aPublisherLoginDrainsALedgerServersOutbox() async throws {
        let folder = try JobFolder(rows: 1, lock: false)
        let line = try StationLine.migrated(folder: folder)
        let ids = (1...3).map { "00000000-0000-7000-8000-00000000f00\($0)" }
        _ = try line.server.query(
            line.admin,
            "INSERT INTO jobs (name, manifest_sha256, template_sha256, created_at) "
                + "VALUES ('batch', 'x', 'x', '2026-01-01T00:00:00.000Z'); "
                + ids.map {
                    "INSERT INTO outbox (id, job, row, station, outcome, payload, created_at) "
                        + "VALUES ('\($0)', 'batch', 1, 's1', 'done', '{\"v\": 1}', '2026-01-01T00:00:00.000Z'); "
                }.joined())
        let broker = try await MosquittoBroker.start()
        let subscriber = try await MosquittoSubscriber.start(broker, topics: ["plant/#"])
        let publish = try await onThread {
            try line.provision(
                ["publish", "--job", "batch", "--to", broker.url(prefix: "plant")], as: line.publisher, folder: folder)
        }
        #expect(publish.status == 0, "\(publish.stderr)")
        #expect(publish.stdout.contains("published 3 events"), "\(publish.stdout)")
        let received = await subscriber.waitFor(count: 3, topicPrefix: "plant/batch/")
        #expect(try Self.ids(received) == ids)
        #expect(received.allSatisfy { $0.topic == "plant/batch/s1/tag" })
        #expect(received.first?.text == "{\"id\":\"\(ids[0])\",\"v\": 1}")
        #expect(try line.server.query(line.admin, "SELECT count(*) FROM outbox WHERE published_at IS NULL") == [["0"]])
    }
}
