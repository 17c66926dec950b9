import Foundation
import MQTTService
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(5))) struct MQTTClientReconnectTests {
    /// 50 messages acknowledged, 50 more sent to a frozen broker that is then killed and restarted: the client
    /// reports exactly the 50 unacknowledged, in order, fails their deliveries, and after `reconnect()` they are sent
    /// again and reach a subscriber of the restarted broker in order.
    @Test func aBrokerRestartReportsTheUnacknowledgedForResending() async throws {
        let broker = try await MosquittoBroker.start()
        let client = try makeClient(broker) { $0.window = 10 }
        var events = client.events.makeAsyncIterator()
        try await client.connect()
        guard case .connected = await events.next() else {
            Issue.record("no .connected event")
            return
        }
        let messages = (0..<100).map { MQTTMessage(topic: "t/st1/tag", text: "event-\($0)") }
        for message in messages[..<50] { try await client.send(message).acknowledged() }
        try await broker.pause()
        var held: [MQTTDelivery] = []
        for message in messages[50...] { held.append(try await client.send(message)) }
        broker.crash()
        guard case .disconnected(let error, let unacknowledged) = await events.next() else {
            Issue.record("no .disconnected event")
            return
        }
        #expect(error?.code == .connectionLost)
        #expect(unacknowledged.map(\.message) == Array(messages[50...]))
        #expect(unacknowledged.map(\.sequence) == held.map(\.sequence))
        for delivery in held {
            await #expect(throws: MQTTError(.connectionLost, "")) { try await delivery.acknowledged() }
        }
        #expect(await !client.isConnected)
        let refused = await #expect(throws: MQTTError.self) { _ = try await client.send(messages[0]) }
        #expect(refused?.code == .notConnected)

        try await broker.restart()
        let subscriber = try await MosquittoSubscriber.start(broker, topics: ["t/#"])
        try await client.reconnect()
        guard case .connected = await events.next() else {
            Issue.record("no second .connected event")
            return
        }
        var resent: [MQTTDelivery] = []
        for lost in unacknowledged { resent.append(try await client.send(lost.message)) }
        for delivery in resent { try await delivery.acknowledged() }
        #expect(resent.map(\.sequence) == Array(101...150))
        let received = await subscriber.waitFor(count: 50, topicPrefix: "t/")
        #expect(received.map(\.text) == messages[50...].map { String(decoding: $0.payload, as: UTF8.self) })
        await client.disconnect()
        guard case .disconnected(nil, let left) = await events.next() else {
            Issue.record("no clean .disconnected event")
            return
        }
        #expect(left.isEmpty)
    }

    /// A broker stopped (SIGTERM) in the middle of a stream: every message is acknowledged or reported, never both,
    /// never neither.
    @Test func everyMessageIsAcknowledgedOrReportedAcrossARestart() async throws {
        let broker = try await MosquittoBroker.start()
        let client = try makeClient(broker) { $0.window = 50 }
        var events = client.events.makeAsyncIterator()
        try await client.connect()
        _ = await events.next()
        var deliveries: [MQTTDelivery] = []
        for index in 0..<2_000 {
            let delivery: MQTTDelivery
            do {
                delivery = try await client.send(MQTTMessage(topic: "t/a", text: "m\(index)"))
            } catch {
                #expect(error.code == .notConnected)
                break
            }
            deliveries.append(delivery)
            if index == 200 { Task { try await broker.restart() } }
        }
        guard case .disconnected(_, let unacknowledged) = await events.next() else {
            Issue.record("no .disconnected event")
            return
        }
        var acknowledged: Set<UInt64> = []
        for delivery in deliveries {
            if (try? await delivery.acknowledged()) != nil { acknowledged.insert(delivery.sequence) }
        }
        let reported = Set(unacknowledged.map(\.sequence))
        #expect(acknowledged.isDisjoint(with: reported))
        #expect(acknowledged.union(reported) == Set(deliveries.map(\.sequence)))
        #expect(unacknowledged.map(\.sequence) == unacknowledged.map(\.sequence).sorted())
    }
}
