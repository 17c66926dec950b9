import Foundation
import JSONReader
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `provision run --publish` end to end (issue 45): the real binary on the simulated reader, a real mosquitto and
/// `mosquitto_sub -q 1` as the consumer. One event a done row, with the ids `provision events` prints; the retained
/// status ends `offline`; refused credentials stop the run before any tag (77); a broker that is down only warns
/// and leaves a named backlog; `--publish-required` pauses the line until the broker is back; the manifest's
/// `"publish"` is used without a flag; bad flags and fields are refused before anything is written.
@Suite(.serialized, .timeLimit(.minutes(5))) struct RunPublishTests {
    static let uid = "04000000000001"

    /// The ids `provision events --json-lines` prints, in order, and whether each is published.
    static func events(_ folder: JobFolder) throws -> [(id: String, published: Bool)] {
        let listed = try ProvisionProcess.run(["events", "job.json", "--json-lines"], directory: folder.url)
        return try EventsCommandTests.objects(listed.stdout).map { event in
            guard case .string(let id)? = event["id"] else { throw HarnessError("no id: \(event)") }
            return (id, event["published"] != .null && event["published"] != nil)
        }
    }

    /// The `id` of a published tag event's payload.
    static func id(_ message: MosquittoSubscriber.Message) throws -> String {
        guard case .object(let object) = try JSONValue.parse(message.payload), case .string(let id)? = object["id"]
        else { throw HarnessError("no id in \(message)") }
        return id
    }

    /// A `user:password` file in an owner-only folder.
    static func credentials(_ text: String, in folder: JobFolder) throws -> String {
        chmod(folder.url.path, 0o700)
        let path = folder.url.appendingPathComponent("mqtt.cred").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        return path
    }

    @Test func aRunPublishesOneEventADoneRowAndLeavesItsRetainedStatusOffline() async throws {
        let broker = try await MosquittoBroker.start()
        let consumer = try await MosquittoSubscriber.start(broker, topics: ["plant/#"])
        let folder = try JobFolder(rows: 4)
        let run = try await onThread {
            try ProvisionProcess.run(
                [
                    "run", "job.json", "--reader", folder.sim(uid: Self.uid), "--station", "s1", "--quiet",
                    "--publish", broker.url(prefix: "plant"),
                ], directory: folder.url)
        }
        #expect(run.status == 0, "\(run.stderr)\n\(broker.log)")
        let events = try Self.events(folder)
        #expect(events.count == 4 && events.allSatisfy(\.published), "\(events)")
        let received = await consumer.waitFor(count: 4, topicPrefix: "plant/t/s1/tag")
        #expect(Set(try received.map(Self.id)) == Set(events.map(\.id)))
        // The last status the consumer saw live, and the one a late subscriber gets retained: offline.
        let statuses = consumer.messages.filter { $0.topic == "plant/s1/status" }
        #expect(statuses.first?.text.contains(#""state":"online""#) == true, "\(statuses)")
        #expect(statuses.first?.text.contains(#""readers":"sim:ntag215"#) == true, "\(statuses)")
        #expect(statuses.last?.text.contains(#""state":"offline""#) == true, "\(statuses)")
        let late = try await MosquittoSubscriber.start(broker, topics: ["plant/s1/status"])
        let retained = await late.waitFor(count: 1, topicPrefix: "plant/s1/status")
        #expect(retained.first?.retained == true && retained.first?.text.contains(#""state":"offline""#) == true)
        #expect(!run.stderr.contains("warning"), "\(run.stderr)")
    }

    @Test func aBrokerRefusingTheCredentialsStopsTheRunBeforeAnyTagWithExit77() async throws {
        let broker = try await MosquittoBroker.start(users: [("line", "right-pw")])
        let folder = try JobFolder(rows: 2)
        let file = try Self.credentials("line:wrong-pw\n", in: folder)
        let run = try await onThread {
            try ProvisionProcess.run(
                [
                    "run", "job.json", "--reader", folder.sim(uid: Self.uid), "--quiet", "--publish",
                    broker.url(prefix: "plant"), "--publish-credentials", "@" + file,
                ], directory: folder.url)
        }
        #expect(run.status == 77, "\(run.stderr)")
        #expect(run.stderr.contains("the broker \(broker.url(prefix: "plant")) refused"), "\(run.stderr)")
        #expect(run.stderr.contains("refused") && !run.stderr.contains("wrong-pw"), "\(run.stderr)")
        #expect(try folder.query("SELECT count(*) FROM records WHERE state = 'done'") == [["0"]])
        // The right password publishes.
        _ = try Self.credentials("line:right-pw\n", in: folder)
        let right = try await onThread {
            try ProvisionProcess.run(
                [
                    "run", "job.json", "--reader", folder.sim(uid: Self.uid), "--quiet", "--publish",
                    broker.url(prefix: "plant"), "--publish-credentials", "@mqtt.cred",
                ], directory: folder.url)
        }
        #expect(right.status == 0, "\(right.stderr)")
        #expect(try Self.events(folder).allSatisfy(\.published))
    }

    @Test func anUnreachableBrokerWarnsOnceTheRunCompletesAndItsBacklogIsNamed() async throws {
        let port = try TCPPort.free()
        let folder = try JobFolder(rows: 3)
        let run = try await onThread {
            try ProvisionProcess.run(
                [
                    "run", "job.json", "--reader", folder.sim(uid: Self.uid), "--quiet", "--publish",
                    "mqtt://127.0.0.1:\(port)/plant", "--publish-drain", "0.2",
                ], directory: folder.url)
        }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: "warning: publishing to").count == 2, "\(run.stderr)")
        #expect(run.stderr.contains("warning: 3 events not yet published to mqtt://127.0.0.1:\(port)/plant"))
        #expect(run.stderr.contains("'provision publish' or the next run sends them"), "\(run.stderr)")
        #expect(try folder.query("SELECT count(*) FROM outbox WHERE published_at IS NULL") == [["3"]])
    }

    @Test func aPlainBrokerFlagOverridingATLSManifestLeavesTheManifestsTLSFilesOut() async throws {
        let folder = try JobFolder(
            rows: 1, extra: #", "publish": {"to": "mqtts://plant:8883/p", "ca": "absent-ca.pem"}"#)
        let port = try TCPPort.free()
        let run = try await onThread {
            try ProvisionProcess.run(
                [
                    "run", "job.json", "--reader", folder.sim(uid: Self.uid), "--quiet", "--publish",
                    "mqtt://127.0.0.1:\(port)/test", "--publish-drain", "0",
                ], directory: folder.url)
        }
        #expect(run.status == 0 && run.stderr.contains("warning: publishing to mqtt://127.0.0.1"), "\(run.stderr)")
        let tls = try await onThread {
            try ProvisionProcess.run(
                ["run", "job.json", "--reader", folder.sim(uid: Self.uid), "--quiet"], directory: folder.url)
        }
        #expect(tls.status == 66 && tls.stderr.contains("publish.ca: cannot read"), "\(tls.stderr)")
    }

    @Test func publishRequiredPausesTheLineUntilTheBrokerIsBack() async throws {
        let broker = try await MosquittoBroker.start()
        let consumer = try await MosquittoSubscriber.start(broker, topics: ["plant/#"])
        let folder = try JobFolder(rows: 3)
        try await broker.pause()
        let run = try ProvisionProcess.start(
            [
                "run", "job.json", "--reader", folder.sim(uid: Self.uid), "--quiet", "--station", "s1",
                "--publish", broker.url(prefix: "plant"), "--publish-required", "1",
            ], directory: folder.url, name: "paused")
        let stderr = folder.url.appendingPathComponent("paused.err")
        let paused = try await Self.waitForText("paused: 1 event unpublished", in: stderr, while: run)
        #expect(paused.contains("--publish-required 1"), "\(paused)")
        // The line waits before the next tag: one row done, its event not published.
        #expect(try folder.query("SELECT count(*) FROM records WHERE state = 'done'") == [["1"]])
        broker.resume()
        let outcome = try await run.wait()
        #expect(outcome.status == 0, "\(outcome.stderr)")
        // Every pause announced is followed by its resume (a later wait for one PUBACK is too short to announce).
        let pauses = outcome.stderr.components(separatedBy: "paused:").count - 1
        #expect(pauses >= 1 && pauses == outcome.stderr.components(separatedBy: "resumed:").count - 1)
        let received = await consumer.waitFor(count: 3, topicPrefix: "plant/t/s1/tag")
        #expect(Set(try received.map(Self.id)) == Set(try Self.events(folder).map(\.id)))
    }

    @Test func theManifestsPublishObjectIsUsedWithoutAFlagAndAFlagOverridesIt() async throws {
        let broker = try await MosquittoBroker.start(users: [("line", "pw-1")])
        let consumer = try await MosquittoSubscriber.start(
            broker, topics: ["fromjob/#", "fromflag/#"], user: "line", password: "pw-1")
        let url = broker.url(prefix: "fromjob")
        let folder = try JobFolder(rows: 2, extra: #", "publish": {"to": "\#(url)", "credentials": "@mqtt.cred"}"#)
        _ = try Self.credentials("line:pw-1", in: folder)
        let run = try await onThread {
            try ProvisionProcess.run(
                ["run", "job.json", "--reader", folder.sim(uid: Self.uid), "--quiet", "--station", "s1"],
                directory: folder.url)
        }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(await consumer.waitFor(count: 2, topicPrefix: "fromjob/t/s1/tag").count == 2)
        let reissue = try await onThread {
            try ProvisionProcess.run(
                ["reissue", "job.json", "--row", "1", "--reason", "crushed", "--by", "ana"], directory: folder.url)
        }
        #expect(reissue.status == 0, "\(reissue.stderr)")
        let flagged = try await onThread {
            try ProvisionProcess.run(
                [
                    "run", "job.json", "--reader", folder.sim(uid: "04000000000009"), "--quiet", "--station", "s1",
                    "--publish", broker.url(prefix: "fromflag"),
                ], directory: folder.url)
        }
        #expect(flagged.status == 0, "\(flagged.stderr)")
        // The reissue's event and the new row's: under the flag's prefix, with the manifest's credentials.
        #expect(await consumer.waitFor(count: 2, topicPrefix: "fromflag/").count >= 2)
        // --no-publish ignores the manifest's object: the reissue's event and the new row's stay unpublished.
        let again = try await onThread {
            try ProvisionProcess.run(
                ["reissue", "job.json", "--row", "2", "--reason", "crushed", "--by", "ana"], directory: folder.url)
        }
        #expect(again.status == 0, "\(again.stderr)")
        let rehearsal = try await onThread {
            try ProvisionProcess.run(
                ["run", "job.json", "--reader", folder.sim(uid: "04000000000011"), "--quiet", "--no-publish"],
                directory: folder.url)
        }
        #expect(rehearsal.status == 0, "\(rehearsal.stderr)")
        #expect(try folder.query("SELECT count(*) FROM outbox WHERE published_at IS NULL") == [["2"]])
        let refused = try await onThread {
            try ProvisionProcess.run(
                ["run", "job.json", "--no-publish", "--publish", url], directory: folder.url)
        }
        #expect(refused.status == 64 && refused.stderr.contains("--no-publish"), "\(refused.stderr)")
    }

    @Test(arguments: [
        (#""publish": {"to": "http://b/p"}"#, "publish.to: the scheme 'http' is not mqtt or mqtts", Int32(65)),
        (#""publish": {"to": "mqtt://b/p", "credentials": "line:pw"}"#, "publish.credentials: must be", 65),
        (#""publish": {"to": "mqtt://b/p", "credentials": "@nope"}"#, "publish.credentials:", 66),
        (#""publish": {"to": "mqtt://b/p", "ca": "ca.pem"}"#, "publish.ca: TLS files are for an mqtts://", 65),
        (#""publish": {"to": "mqtts://b/p", "ca": "nope.pem"}"#, "publish.ca: cannot read the TLS CA file", 66),
    ])
    func aBadManifestPublishFieldIsRefusedNamingItBeforeAnythingIsWritten(
        _ extra: String, _ message: String, _ status: Int32
    ) async throws {
        let folder = try JobFolder(rows: 1, extra: ", " + extra)
        let run = try await onThread {
            try ProvisionProcess.run(
                ["run", "job.json", "--reader", folder.sim(uid: Self.uid), "--quiet"], directory: folder.url)
        }
        #expect(run.status == status, "\(run.stderr)")
        #expect(run.stderr.contains("job.json:") && run.stderr.contains(message), "\(run.stderr)")
        #expect(!run.stderr.contains("line:pw"))
        #expect(!FileManager.default.fileExists(atPath: folder.reports.path))
    }

    @Test(arguments: [
        (["--publish", "mqtt://broker"], "--publish: the broker URL has no /TOPIC-PREFIX", Int32(64)),
        (["--publish", "mqtt://b/p", "--publish-credentials", "line:s3cret"], "--publish-credentials:", 64),
        (["--publish", "mqtt://b/p", "--publish-credentials", "@missing.cred"], "--publish-credentials:", 66),
        (["--publish", "mqtt://b/p", "--publish-credentials", "env:NO_SUCH_MQTT_VAR"], "NO_SUCH_MQTT_VAR", 66),
        (["--publish", "mqtts://b/p", "--publish-cert", "job.json"], "--publish-cert: a TLS client certificate", 64),
        (["--publish-required", "2"], "--publish URL or the manifest's \"publish\"", 64),
        (["--publish", "mqtt://b/p", "--publish-drain", "-1"], "--publish-drain", 64),
    ])
    func badPublishFlagsAreRefusedBeforeAnythingIsWritten(_ flags: [String], _ message: String, _ status: Int32)
        async throws
    {
        let folder = try JobFolder(rows: 1)
        let run = try await onThread {
            try ProvisionProcess.run(
                ["run", "job.json", "--reader", folder.sim(uid: Self.uid), "--quiet"] + flags, directory: folder.url)
        }
        #expect(run.status == status, "\(run.stderr)")
        #expect(run.stderr.contains(message) && !run.stderr.contains("s3cret"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.reports.path))
    }

    @Test func sigtermDuringARunDrainsAndLeavesTheRetainedStatusOffline() async throws {
        let broker = try await MosquittoBroker.start()
        let consumer = try await MosquittoSubscriber.start(broker, topics: ["plant/#"])
        let folder = try JobFolder(rows: 200)
        let run = try ProvisionProcess.start(
            [
                "run", "job.json", "--reader", folder.sim(uid: Self.uid, options: "timing=datasheet"), "--quiet",
                "--station", "s1", "--publish", broker.url(prefix: "plant"),
            ], directory: folder.url, name: "term")
        // The first event shows the publisher (and with it the SIGTERM handling) is up and the line is working.
        let first = await consumer.waitFor(count: 1, topicPrefix: "plant/t/s1/tag", timeout: .seconds(120))
        try #require(!first.isEmpty, "no event before SIGTERM")
        run.signal(SIGTERM)
        let outcome = try await run.wait()
        #expect(outcome.status == 130, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("terminated: finishing the tag in progress"), "\(outcome.stderr)")
        let done = try folder.query("SELECT count(*) FROM records WHERE state = 'done'").first?.first ?? ""
        #expect(Int(done) ?? 0 < 200)
        // Drained: every done row's event published, and the station said offline itself (not its last will).
        let events = try Self.events(folder)
        #expect(events.count == Int(done) && events.allSatisfy(\.published), "\(events.count) \(done)")
        let statuses = await consumer.waitFor { messages in
            messages.contains { $0.topic == "plant/s1/status" && $0.text.contains(#""state":"offline""#) }
        }
        let offline = statuses?.last { $0.topic == "plant/s1/status" }
        #expect(offline?.text.contains(#""since""#) == true, "\(String(describing: offline))")
    }

    @Test func aStationOnALedgerServerPublishesItsEventsAndItsStatusNamesItsLease() async throws {
        let folder = try JobFolder(rows: 3)
        let line = try StationLine.migrated(folder: folder)
        let broker = try await MosquittoBroker.start()
        let consumer = try await MosquittoSubscriber.start(broker, topics: ["plant/#"])
        let run = try line.provision(
            [
                "run", "job.json", "--station", "s1", "--quiet", "--reader", folder.sim(uid: Self.uid), "--publish",
                broker.url(prefix: "plant"),
            ], as: line.bench, folder: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(await consumer.waitFor(count: 3, topicPrefix: "plant/t/s1/tag").count == 3)
        #expect(try line.server.query(line.admin, "SELECT count(*) FROM outbox WHERE published_at IS NULL") == [["0"]])
        let online = consumer.messages.first { $0.topic == "plant/s1/status" }
        #expect(online?.text.contains(#""lease":"15 s""#) == true, "\(String(describing: online))")
        #expect(online?.text.contains(#""leaseInstance":""#) == true)
    }

    /// Waits until `file` holds `text` (polling the file a process writes, while `process` runs) and returns the
    /// file's text.
    static func waitForText(_ text: String, in file: URL, while process: ProvisionProcess.Background) async throws
        -> String
    {
        while true {
            let content = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            if content.contains(text) { return content }
            guard process.isRunning else {
                throw HarnessError("the process ended without printing '\(text)':\n\(content)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
