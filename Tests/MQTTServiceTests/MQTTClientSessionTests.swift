import Foundation
import MQTTService
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(5))) struct MQTTClientSessionTests {
    @Test func theWillFiresWhenAClientIsKilled() async throws {
        let broker = try await MosquittoBroker.start()
        let subscriber = try await MosquittoSubscriber.start(broker, topics: ["t/#"])
        let probe = Process()
        probe.executableURL = ProvisionProcess.executableURL(named: "mqtt-probe")
        probe.arguments = [broker.url(prefix: "t"), "probe-1", "t/probe-1/status", #"{"state":"offline"}"#]
        let output = Pipe()
        probe.standardOutput = output
        try probe.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        #expect(line == "connected\n")
        kill(probe.processIdentifier, SIGKILL)
        probe.waitUntilExit()
        let seen = await subscriber.waitFor(count: 1, topicPrefix: "t/probe-1/")
        #expect(seen.map(\.text) == [#"{"state":"offline"}"#])
        let late = try await MosquittoSubscriber.start(broker, topics: ["t/probe-1/status"])
        #expect(await late.waitFor(count: 1, topicPrefix: "t/").first?.retained == true)
    }

    @Test func aCleanDisconnectPublishesItsOwnStatusAndNoWill() async throws {
        let broker = try await MosquittoBroker.start()
        let subscriber = try await MosquittoSubscriber.start(broker, topics: ["t/#"])
        let client = try makeClient(broker) {
            $0.will = MQTTWill(topic: "t/st1/status", payload: Array("will".utf8))
        }
        try await client.connect()
        try await client.publish(topic: "t/st1/status", payload: Array("offline".utf8), retain: true)
        await client.disconnect()
        // A marker published after the disconnect: a will, had the broker fired one, would come before it.
        let marker = try makeClient(broker)
        try await marker.connect()
        try await marker.publish(topic: "t/st1/status", payload: Array("marker".utf8))
        await marker.disconnect()
        let seen = await subscriber.waitFor(count: 2, topicPrefix: "t/")
        #expect(seen.map(\.text) == ["offline", "marker"])
    }

    @Test func refusedCredentialsAreNotAuthorized() async throws {
        let broker = try await MosquittoBroker.start(users: [("station", "right-pw")])
        let wrong = try makeClient(broker) { $0.credentials = MQTTCredentials(user: "station", password: "wrong-pw") }
        let error = await #expect(throws: MQTTError.self) { try await wrong.connect() }
        #expect(error?.code == .notAuthorized)
        #expect(error?.description.contains("wrong-pw") == false)
        let anonymous = try makeClient(broker)
        #expect(await #expect(throws: MQTTError.self) { try await anonymous.connect() }?.code == .notAuthorized)
        let right = try makeClient(broker) { $0.credentials = MQTTCredentials(user: "station", password: "right-pw") }
        try await right.connect()
        try await right.publish(topic: "t/a", payload: [1])
        await right.disconnect()
    }

    @Test func noBrokerIsUnreachable() async throws {
        let port = try TCPPort.free()
        let client = MQTTClient(
            endpoint: try MQTTEndpoint(parsing: "mqtt://127.0.0.1:\(port)/t"),
            options: MQTTConnectOptions(clientID: "c"))
        let error = await #expect(throws: MQTTError.self) { try await client.connect() }
        #expect(error?.code == .unreachable)
        #expect(await !client.isConnected)
    }

    @Test func aBrokerThatNeverAnswersIsUnreachableAfterTheTimeout() async throws {
        let broker = try await MosquittoBroker.start()
        try await broker.pause()  // the kernel accepts the TCP connection; no CONNACK ever comes
        defer { broker.resume() }
        let client = try makeClient(broker) { $0.connectTimeout = .milliseconds(300) }
        let error = await #expect(throws: MQTTError.self) { try await client.connect() }
        #expect(error?.code == .unreachable)
        #expect(error?.message.contains("CONNACK") == true)
    }

    @Test func mqttsWithTheTestCAWorksAndAWrongCAFails() async throws {
        let broker = try await MosquittoBroker.start(tls: true)
        let subscriber = try await MosquittoSubscriber.start(broker, topics: ["t/#"])
        let client = try makeClient(broker) { $0.tls = try? MQTTTLSOptions(caFile: broker.caFile) }
        try await client.connect()
        try await client.publish(topic: "t/secure", payload: Array("over TLS".utf8))
        await client.disconnect()
        #expect(await subscriber.waitFor(count: 1, topicPrefix: "t/").map(\.text) == ["over TLS"])
        let wrong = try makeClient(broker) { $0.tls = try? MQTTTLSOptions(caFile: broker.otherCAFile) }
        let error = await #expect(throws: MQTTError.self) { try await wrong.connect() }
        #expect(error?.code == .tls)
    }

    @Test func tlsOptionsNeedAnMqttsEndpointAndAnOwnerOnlyKey() async throws {
        let folder = try Fixtures.temporaryDirectory("mqtt-tls")
        chmod(folder.path, 0o700)
        let key = folder.appendingPathComponent("client.key").path
        try "not really a key".write(toFile: key, atomically: true, encoding: .utf8)
        chmod(key, 0o644)
        let unsafe = #expect(throws: MQTTError.self) {
            try MQTTTLSOptions(caFile: nil, certificateFile: key, keyFile: key)
        }
        #expect(unsafe?.code == .credentialsUnsafe)
        let plain = MQTTClient(
            endpoint: try MQTTEndpoint(parsing: "mqtt://127.0.0.1:1/t"),
            options: MQTTConnectOptions(clientID: "c", tls: try MQTTTLSOptions(caFile: nil)))
        #expect(await #expect(throws: MQTTError.self) { try await plain.connect() }?.code == .invalidConfiguration)
    }
}
