import Foundation
import MQTTService
import TestSupport
import Testing

/// A client for `broker` with `options`' defaults and a unique client id.
func makeClient(
    _ broker: MosquittoBroker, prefix: String = "t", _ configure: (inout MQTTConnectOptions) -> Void = { _ in }
)
    throws -> MQTTClient
{
    var options = MQTTConnectOptions(clientID: "test-\(UUID().uuidString.prefix(8))")
    configure(&options)
    return MQTTClient(endpoint: try MQTTEndpoint(parsing: broker.url(prefix: prefix)), options: options)
}

@Suite(.timeLimit(.minutes(5))) struct MQTTClientPublishTests {
    @Test func manyMessagesInFlightArriveInOrderWithExactPayloads() async throws {
        let broker = try await MosquittoBroker.start()
        let subscriber = try await MosquittoSubscriber.start(broker, topics: ["t/#"])
        let client = try makeClient(broker) { $0.window = 20 }
        try await client.connect()
        let count = 500
        // Payloads with bytes a text-based path would damage: spaces, a newline, NUL, 0xFF.
        let payloads = (0..<count).map { Array("event \($0)\n".utf8) + [0, 0xFF, UInt8($0 % 256)] }
        var deliveries: [MQTTDelivery] = []
        for payload in payloads {
            deliveries.append(try await client.send(MQTTMessage(topic: "t/line/st1/tag", payload: payload)))
        }
        #expect(deliveries.map(\.sequence) == Array(1...UInt64(count)))
        for delivery in deliveries { try await delivery.acknowledged() }
        #expect(await client.unacknowledged.isEmpty)
        let received = await subscriber.waitFor(count: count, topicPrefix: "t/")
        #expect(received.map(\.payload) == payloads)
        #expect(received.allSatisfy { $0.topic == "t/line/st1/tag" && !$0.retained })
        await client.disconnect()
    }

    @Test func publishCompletesOnlyAtThePUBACK() async throws {
        let broker = try await MosquittoBroker.start()
        let client = try makeClient(broker)
        try await client.connect()
        try await broker.pause()  // the broker cannot answer: no PUBACK can come
        let delivery = try await client.send(MQTTMessage(topic: "t/a", text: "held"))
        // A QoS 0 message completes once written, after the QoS 1 one on the same socket: so that one was written too.
        try await client.send(MQTTMessage(topic: "t/b", text: "written", qos: .atMostOnce)).acknowledged()
        let waiting = Task { try await delivery.acknowledged() }
        #expect(await client.unacknowledged.map(\.sequence) == [delivery.sequence])
        let abandoned = Task { try await delivery.acknowledged() }
        abandoned.cancel()  // a cancelled wait ends at once; the message stays in flight for the other waiter
        await #expect(throws: MQTTError(.cancelled, "")) { try await abandoned.value }
        broker.resume()
        try await waiting.value
        #expect(await client.unacknowledged.isEmpty)
        await client.disconnect()
    }

    @Test func aLateSubscriberSeesTheRetainedStatus() async throws {
        let broker = try await MosquittoBroker.start()
        let client = try makeClient(broker)
        try await client.connect()
        try await client.publish(topic: "t/st1/status", payload: Array(#"{"state":"online"}"#.utf8), retain: true)
        await client.disconnect()
        let late = try await MosquittoSubscriber.start(broker, topics: ["t/st1/status"])
        let seen = await late.waitFor(count: 1, topicPrefix: "t/")
        #expect(seen.map(\.text) == [#"{"state":"online"}"#])
        #expect(seen.first?.retained == true)
    }

    @Test func sendWithoutAConnectionIsRefusedAndNothingIsHandedOver() async throws {
        let broker = try await MosquittoBroker.start()
        let client = try makeClient(broker)
        let error = await #expect(throws: MQTTError.self) {
            _ = try await client.send(MQTTMessage(topic: "t/a", text: "x"))
        }
        #expect(error?.code == .notConnected)
        try await client.connect()
        let wildcard = await #expect(throws: MQTTError.self) {
            _ = try await client.send(MQTTMessage(topic: "t/#", text: "x"))
        }
        #expect(wildcard?.code == .invalidConfiguration)
        await client.disconnect()
        #expect(await !client.isConnected)
    }
}
