internal import CMosquitto
import Support
import Synchronization

/// An MQTT 3.1.1 client on libmosquitto whose QoS 1 publishes complete at the broker's PUBACK.
///
/// Each connection has its own libmosquitto handle, owned by this actor on its own queue; libmosquitto's callbacks
/// run on the connection's loop thread and only touch `SessionState`. Nothing is re-sent behind the caller's back:
/// when a connection ends, every message without its PUBACK fails with `.connectionLost` and is listed in
/// `MQTTConnectionEvent.disconnected`; after `reconnect()` the caller sends what it still wants delivered (at least
/// once: a message may have reached the broker just before the connection dropped).
public actor MQTTClient {
    private let executor = QueueExecutor(label: "mqtt")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// The broker and topic prefix.
    public nonisolated let endpoint: MQTTEndpoint
    /// The connect options (the credentials' password never shows in their description).
    public nonisolated let options: MQTTConnectOptions
    /// Connection changes in order: `.connected`, `.disconnected(…)`; one stream per client, read by one task.
    public nonisolated let events: AsyncStream<MQTTConnectionEvent>

    private let eventSink: AsyncStream<MQTTConnectionEvent>.Continuation
    private var handle: MosquittoHandle? {
        didSet { session.withLock { $0 = handle?.state } }
    }
    /// The current handle's state, for `deinit` (which may not touch the non-Sendable handle).
    private let session = Mutex<SessionState?>(nil)
    private var nextSequence: UInt64 = 0

    /// A client for `endpoint`; nothing is connected until `connect()`.
    public init(endpoint: MQTTEndpoint, options: MQTTConnectOptions) {
        self.endpoint = endpoint
        self.options = options
        (events, eventSink) = AsyncStream.makeStream(of: MQTTConnectionEvent.self)
    }

    deinit {
        // An abandoned client ends like a killed one: no DISCONNECT, so the broker publishes the will.
        session.withLock { $0?.stopLoop.store(true, ordering: .releasing) }
        eventSink.finish()
    }

    /// Whether a connection is up (CONNACK received, not ended).
    public var isConnected: Bool { handle?.state.isConnected ?? false }

    /// The messages of the current connection still awaiting their PUBACK, in send order.
    public var unacknowledged: [MQTTDelivery] { handle?.state.unacknowledged ?? [] }

    /// Connects and returns once the broker accepted (CONNACK 0).
    ///
    /// - Throws: `MQTTError` `.notAuthorized` (credentials refused), `.refused` (another CONNACK refusal),
    ///   `.unreachable` (no broker: TCP refused, unknown host, no CONNACK within `options.connectTimeout`), `.tls`,
    ///   `.invalidConfiguration`; `.cancelled` when the task is cancelled (the attempt ends).
    public func connect() async throws(MQTTError) {
        if let handle {
            if handle.state.isConnected { return }
            await close(handle, clean: false)
        }
        let state = SessionState(endpoint: endpoint, events: eventSink)
        let handle = try MosquittoHandle(options: options, endpoint: endpoint, state: state)
        let status = MosquittoStatus(
            rawValue: mosquitto_connect_async(
                handle.pointer, endpoint.host, Int32(endpoint.port), Int32(options.keepalive))
        )
        guard status == .success else {
            // The TCP connection (and on loopback the TLS handshake) may fail within the call itself.
            if status == .invalid {
                throw MQTTError(.invalidConfiguration, "cannot connect to \(endpoint): \(status)", status: status)
            }
            throw SessionState.connectFailure(status, endpoint: endpoint.description)
        }
        self.handle = handle
        SessionLoop(handle: handle).start()
        let timeout = options.connectTimeout
        let timer = Task { [endpoint] in
            try await Task.sleep(for: timeout)
            state.connectResult.resolve(
                .failure(MQTTError(.unreachable, "no CONNACK from \(endpoint) within \(timeout)")))
        }
        defer { timer.cancel() }
        let result = await withTaskCancellationHandler {
            await state.connectResult.result()
        } onCancel: {
            state.connectResult.resolve(.failure(MQTTError(.cancelled, "the connection attempt was cancelled")))
        }
        if case .failure(let error) = result {
            await close(handle, clean: false)
            throw error
        }
    }

    /// Connects again with a fresh handle after the connection ended (or closes a live one first, abnormally).
    /// Messages of the old connection are not sent again: the caller resends what `.disconnected` listed.
    public func reconnect() async throws(MQTTError) {
        if let handle { await close(handle, clean: false) }
        try await connect()
    }

    /// Hands `message` to libmosquitto at once, in call order, and returns the delivery to await; many may be in
    /// flight (libmosquitto sends `options.window` at a time and queues the rest in order).
    ///
    /// - Throws: `MQTTError` `.notConnected` (no connection up: nothing was handed over), `.invalidConfiguration`
    ///   (a wildcard in the topic, an oversized payload).
    public func send(_ message: MQTTMessage) throws(MQTTError) -> MQTTDelivery {
        guard let handle, handle.state.isConnected else {
            throw MQTTError(.notConnected, "not connected to \(endpoint): the message was not sent")
        }
        nextSequence += 1
        let delivery = MQTTDelivery(sequence: nextSequence, message: message, signal: AckSignal())
        var mid: Int32 = 0
        let status = MosquittoStatus(
            rawValue: mosquitto_publish(
                handle.pointer, &mid, message.topic, Int32(message.payload.count), message.payload,
                message.qos.rawValue, message.retain))
        // NO_CONN: the connection dropped just now; libmosquitto queued the message in this handle, which is never
        // reconnected, so it is registered and reported unacknowledged with the others.
        guard status == .success || status == .noConnection else {
            throw MQTTError(.invalidConfiguration, "cannot publish to '\(message.topic)': \(status)", status: status)
        }
        handle.state.register(delivery, mid: mid)
        return delivery
    }

    /// Hands `messages` to libmosquitto in order, as `send` does each, in one call to the client; stops at the first
    /// it refuses (no connection, an invalid message) and returns the deliveries of those handed over.
    public func send(contentsOf messages: [MQTTMessage]) -> [MQTTDelivery] {
        var deliveries: [MQTTDelivery] = []
        deliveries.reserveCapacity(messages.count)
        for message in messages {
            guard let delivery = try? send(message) else { break }
            deliveries.append(delivery)
        }
        return deliveries
    }

    /// Publishes one message and returns at its PUBACK (QoS 1).
    ///
    /// - Throws: as `send`, and `.connectionLost` when the connection ended before the PUBACK.
    public func publish(topic: String, payload: [UInt8], qos: MQTTQoS = .atLeastOnce, retain: Bool = false)
        async throws(MQTTError)
    {
        try await send(MQTTMessage(topic: topic, payload: payload, qos: qos, retain: retain)).acknowledged()
    }

    /// Ends the connection cleanly: sends DISCONNECT, so the broker does not publish the will, and waits for the
    /// loop to end. Messages still awaiting their PUBACK fail with `.connectionLost` (publish a retained `offline`
    /// status and await its PUBACK first).
    public func disconnect() async {
        guard let handle else { return }
        await close(handle, clean: true)
    }

    /// Ends `handle`'s connection (DISCONNECT when `clean`, else the socket just closes) and drops the handle.
    private func close(_ handle: MosquittoHandle, clean: Bool) async {
        if clean, handle.state.isConnected {
            _ = mosquitto_disconnect(handle.pointer)
        } else {
            handle.state.stopLoop.store(true, ordering: .releasing)
        }
        let state = handle.state
        // A DISCONNECT that cannot be written within the keepalive still ends the loop.
        let backstop = Task { [keepalive = options.keepalive] in
            try await Task.sleep(for: .seconds(max(1, keepalive)))
            state.stopLoop.store(true, ordering: .releasing)
        }
        try? await state.loopEnded.wait()
        backstop.cancel()
        state.ended(.success)
        if self.handle === handle { self.handle = nil }
    }
}
