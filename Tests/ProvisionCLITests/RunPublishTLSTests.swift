import Foundation
import TestSupport
import Testing

/// `run --publish mqtts://…` end to end (issue 45): a TLS broker with a password file, reached with
/// `--publish-ca` and `--publish-credentials`; a CA that did not sign the broker's certificate is one warning, the
/// line runs and its events stay in the outbox for the next run, which publishes them. A broker that asks for a
/// client certificate takes `--publish-cert` and `--publish-key`.
@Suite(.serialized, .timeLimit(.minutes(5))) struct RunPublishTLSTests {
    @Test func aRunPublishesOverTLSWithItsCAAndAWrongCALeavesTheEventsForTheNextRun() async throws {
        let broker = try await MosquittoBroker.start(users: [("line", "tls-pw")], tls: true)
        let consumer = try await MosquittoSubscriber.start(
            broker, topics: ["plant/#"], user: "line", password: "tls-pw")
        let folder = try JobFolder(rows: 3)
        let file = try RunPublishTests.credentials("line:tls-pw\n", in: folder)
        func run(ca: String) async throws -> ProvisionProcess.Outcome {
            try await onThread {
                try ProvisionProcess.run(
                    [
                        "run", "job.json", "--reader", folder.sim(uid: RunPublishTests.uid), "--station", "s1",
                        "--quiet", "--publish", broker.url(prefix: "plant"), "--publish-credentials", "@" + file,
                        "--publish-ca", ca, "--publish-drain", "0.5",
                    ], directory: folder.url)
            }
        }

        // The wrong CA: the handshake fails, one warning, the line completes, nothing is published.
        let wrong = try await run(ca: broker.otherCAFile)
        #expect(wrong.status == 0, "\(wrong.stderr)")
        #expect(wrong.stderr.components(separatedBy: "warning: publishing to").count == 2, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("warning: 3 events not yet published"), "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("tls-pw"), "\(wrong.stderr)")
        #expect(try folder.query("SELECT count(*) FROM outbox WHERE published_at IS NULL") == [["3"]])
        #expect(consumer.messages.filter { $0.topic.hasSuffix("/tag") }.isEmpty)

        // The right CA: the next run (no tag left to do) sends the three events over TLS.
        let right = try await run(ca: broker.caFile)
        #expect(right.status == 0, "\(right.stderr)")
        let received = await consumer.waitFor(count: 3, topicPrefix: "plant/t/s1/tag")
        let ids = try RunPublishTests.events(folder)
        #expect(Set(try received.map(RunPublishTests.id)) == Set(ids.map(\.id)), "\(received)")
        #expect(ids.count == 3 && ids.allSatisfy(\.published), "\(ids)")
    }

    @Test func aBrokerAskingForAClientCertificateTakesTheOneGivenWithItsKey() async throws {
        let broker = try await MosquittoBroker.start(tls: true, clientCertificates: true)
        let consumer = try await MosquittoSubscriber.start(broker, topics: ["plant/#"])
        let folder = try JobFolder(rows: 2)
        func run(_ certificate: [String]) async throws -> ProvisionProcess.Outcome {
            try await onThread {
                try ProvisionProcess.run(
                    [
                        "run", "job.json", "--reader", folder.sim(uid: RunPublishTests.uid), "--station", "s1",
                        "--quiet", "--publish", broker.url(prefix: "plant"), "--publish-ca", broker.caFile,
                        "--publish-drain", "0.5",
                    ] + certificate, directory: folder.url)
            }
        }
        // Without a certificate the handshake is refused: one warning, the events wait.
        let without = try await run([])
        #expect(without.status == 0, "\(without.stderr)")
        #expect(without.stderr.contains("warning: 2 events not yet published"), "\(without.stderr)")
        let with = try await run(["--publish-cert", broker.clientCertificate, "--publish-key", broker.clientKey])
        #expect(with.status == 0, "\(with.stderr)")
        let received = await consumer.waitFor(count: 2, topicPrefix: "plant/t/s1/tag")
        #expect(received.count == 2, "\(received)\n\(broker.log)")
        #expect(try RunPublishTests.events(folder).allSatisfy(\.published))
    }
}
