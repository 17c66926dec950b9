internal import CMosquitto
import Foundation
import Synchronization

/// A `struct mosquitto *`.
typealias MosquittoPointer = OpaquePointer

/// `mosquitto_lib_init` once per process, before the first handle.
enum MosquittoLibrary {
    static let ready: Bool = {
        mosquitto_lib_init()
        return true
    }()
}

/// One libmosquitto handle: one connection attempt and the connection it makes, then never used again.
///
/// A fresh handle per connection is deliberate: libmosquitto keeps unacknowledged QoS 1 messages in the handle and
/// sends them again on `mosquitto_reconnect`, in memory only; the client reports them instead
/// (`MQTTConnectionEvent.disconnected`) and the caller's durable outbox sends them again, so the handle must not.
/// Not Sendable: created and configured on the client actor's queue; afterwards only the calls libmosquitto allows
/// from another thread in threaded mode (`mosquitto_publish`, `mosquitto_disconnect`) come from that queue while
/// `SessionLoop` runs `mosquitto_loop` on its own thread. `mosquitto_destroy` runs when the last owner lets go,
/// which is after the loop thread has ended.
final class MosquittoHandle {
    let pointer: MosquittoPointer
    /// The callbacks' context (`obj`), kept alive as long as the handle.
    let state: SessionState

    init(options: MQTTConnectOptions, endpoint: MQTTEndpoint, state: SessionState) throws(MQTTError) {
        _ = MosquittoLibrary.ready
        self.state = state
        let context = Unmanaged.passUnretained(state).toOpaque()
        guard let pointer = mosquitto_new(options.clientID, options.cleanSession, context) else {
            throw MQTTError(.invalidConfiguration, "libmosquitto refused the client id '\(options.clientID)'")
        }
        self.pointer = pointer
        try configure(options, endpoint: endpoint)
    }

    deinit { mosquitto_destroy(pointer) }

    private func configure(_ options: MQTTConnectOptions, endpoint: MQTTEndpoint) throws(MQTTError) {
        func check(_ rc: Int32, _ what: String) throws(MQTTError) {
            let status = MosquittoStatus(rawValue: rc)
            guard status == .success else {
                throw MQTTError(.invalidConfiguration, "\(what): \(status)", status: status)
            }
        }
        try check(mosquitto_threaded_set(pointer, true), "threaded mode")
        try check(mosquitto_int_option(pointer, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311), "MQTT 3.1.1")
        try check(mosquitto_max_inflight_messages_set(pointer, UInt32(max(1, options.window))), "in-flight window")
        if let will = options.will {
            try check(
                mosquitto_will_set(pointer, will.topic, Int32(will.payload.count), will.payload, 1, will.retain),
                "the last will on topic '\(will.topic)'")
        }
        if let credentials = options.credentials {
            // The password goes to libmosquitto only; the error names the user, never the password.
            try check(
                mosquitto_username_pw_set(pointer, credentials.user, credentials.password),
                "the credentials of user '\(credentials.user)'")
        }
        switch (endpoint.usesTLS, options.tls) {
        case (false, nil): break
        case (false, .some):
            throw MQTTError(.invalidConfiguration, "TLS options are given for \(endpoint), which is not mqtts://")
        case (true, let given):
            let tls: MQTTTLSOptions
            if let given { tls = given } else { tls = try MQTTTLSOptions(caFile: nil) }
            if tls.caFile == nil {
                try check(mosquitto_int_option(pointer, MOSQ_OPT_TLS_USE_OS_CERTS, 1), "the system CAs")
            }
            try check(
                mosquitto_tls_set(pointer, tls.caFile, nil, tls.certificateFile, tls.keyFile, nil),
                "the TLS files (CA \(tls.caFile ?? "system"), certificate \(tls.certificateFile ?? "none"))")
        }
        mosquitto_connect_callback_set(pointer) { @Sendable _, context, code in
            guard let context else { return }
            Unmanaged<SessionState>.fromOpaque(context).takeUnretainedValue().connectAnswered(code)
        }
        mosquitto_disconnect_callback_set(pointer) { @Sendable _, context, code in
            guard let context else { return }
            Unmanaged<SessionState>.fromOpaque(context).takeUnretainedValue().ended(MosquittoStatus(rawValue: code))
        }
        mosquitto_publish_callback_set(pointer) { @Sendable _, context, mid in
            guard let context else { return }
            Unmanaged<SessionState>.fromOpaque(context).takeUnretainedValue().acknowledged(mid: mid)
        }
    }
}

@available(*, unavailable)
extension MosquittoHandle: Sendable {}

/// Carries the handle to the loop thread.
/// libmosquitto in threaded mode (`mosquitto_threaded_set`) lets one thread run `mosquitto_loop` while another
/// publishes or disconnects; the loop thread is the only one calling `mosquitto_loop`, and the handle is destroyed
/// only when both the thread and the client actor have let go of it.
struct SessionLoop: @unchecked Sendable {
    let handle: MosquittoHandle

    /// Starts the network loop on its own thread: it runs until the connection ends or `stopLoop` is set, then
    /// ends the session (if no callback did) and resolves `loopEnded`.
    func start() {
        let thread = Thread { [self] in
            let state = handle.state
            var last = MosquittoStatus.success
            while !state.stopLoop.load(ordering: .acquiring) {
                last = MosquittoStatus(rawValue: mosquitto_loop(handle.pointer, 100, 1))
                if last != .success { break }
            }
            state.ended(last == .success ? .connectionLost : last)
            state.loopEnded.resolve(.success(()))
        }
        thread.name = "mosquitto loop"
        thread.start()
    }
}

/// What the client actor and libmosquitto's callbacks (on the loop thread) share for one handle: the phase, the
/// messages awaiting their PUBACK by message id, and the signals the actor waits on.
final class SessionState: Sendable {
    private enum Phase { case connecting, connected, ended }
    private struct Inner {
        var phase = Phase.connecting
        var pending: [Int32: MQTTDelivery] = [:]
        /// PUBACKs that came before `register` saw the message id (the loop thread can be that fast).
        var earlyAcks: Set<Int32> = []
    }
    private let inner = Mutex(Inner())
    private let events: AsyncStream<MQTTConnectionEvent>.Continuation
    private let endpoint: String
    /// Resolved by the CONNACK, a refusal, or the end of the attempt.
    let connectResult = AckSignal()
    /// Resolved when the loop thread has returned.
    let loopEnded = AckSignal()
    /// Asks the loop thread to return (a timeout, an abandoned client).
    let stopLoop = Atomic<Bool>(false)

    init(endpoint: MQTTEndpoint, events: AsyncStream<MQTTConnectionEvent>.Continuation) {
        self.endpoint = endpoint.description
        self.events = events
    }

    /// Whether the broker accepted the connection and it has not ended.
    var isConnected: Bool { inner.withLock { $0.phase == .connected } }

    /// The messages awaiting their PUBACK, in send order.
    var unacknowledged: [MQTTDelivery] {
        inner.withLock { $0.pending.values.sorted { $0.sequence < $1.sequence } }
    }

    /// Records a message libmosquitto took under `mid`; fails it at once when the session has already ended.
    func register(_ delivery: MQTTDelivery, mid: Int32) {
        let outcome = inner.withLock { inner -> Result<Void, MQTTError>? in
            if inner.phase == .ended { return .failure(lost("before the message was sent")) }
            if inner.earlyAcks.remove(mid) != nil { return .success(()) }
            inner.pending[mid] = delivery
            return nil
        }
        if let outcome { delivery.signal.resolve(outcome) }
    }

    /// on_connect: the CONNACK's return code (0 accepted; MQTT 3.1.1 codes 1–5).
    func connectAnswered(_ code: Int32) {
        guard code == 0 else {
            connectResult.resolve(.failure(Self.refusal(code, endpoint: endpoint)))
            stopLoop.store(true, ordering: .releasing)
            return
        }
        let accepted = inner.withLock { inner -> Bool in
            guard inner.phase == .connecting else { return false }
            inner.phase = .connected
            return true
        }
        if accepted {
            events.yield(.connected)
            connectResult.resolve(.success(()))
        }
    }

    /// on_publish: the PUBACK for `mid` (QoS 1) or the message written (QoS 0).
    func acknowledged(mid: Int32) {
        let delivery = inner.withLock { inner -> MQTTDelivery? in
            if let delivery = inner.pending.removeValue(forKey: mid) { return delivery }
            inner.earlyAcks.insert(mid)
            return nil
        }
        delivery?.signal.resolve(.success(()))
    }

    /// on_disconnect, or the loop's end: `.success` after our DISCONNECT, else why the connection ended. The first
    /// call counts; every message still awaiting its PUBACK fails with `.connectionLost` and is reported.
    func ended(_ status: MosquittoStatus) {
        stopLoop.store(true, ordering: .releasing)
        let (wasConnected, left) = inner.withLock { inner -> (Bool?, [MQTTDelivery]) in
            guard inner.phase != .ended else { return (nil, []) }
            let wasConnected = inner.phase == .connected
            inner.phase = .ended
            let left = inner.pending.values.sorted { $0.sequence < $1.sequence }
            inner.pending = [:]
            return (wasConnected, left)
        }
        guard let wasConnected else { return }
        connectResult.resolve(.failure(Self.connectFailure(status, endpoint: endpoint)))
        let error = lost("(\(status))")
        for delivery in left { delivery.signal.resolve(.failure(error)) }
        if wasConnected { events.yield(.disconnected(status == .success ? nil : error, unacknowledged: left)) }
    }

    private func lost(_ detail: String) -> MQTTError {
        MQTTError(.connectionLost, "the connection to \(endpoint) ended \(detail); the message was not acknowledged")
    }

    /// Why a connection attempt ended before any CONNACK.
    static func connectFailure(_ status: MosquittoStatus, endpoint: String) -> MQTTError {
        if status == .tls || status == .tlsHandshake {
            return MQTTError(
                .tls, "the TLS handshake with \(endpoint) failed (\(status)): check the CA file and the host name",
                status: status)
        }
        return MQTTError(.unreachable, "no MQTT broker answered at \(endpoint) (\(status))", status: status)
    }

    /// A refused CONNACK: 4 (bad user name or password) and 5 (not authorised) are `.notAuthorized`.
    static func refusal(_ code: Int32, endpoint: String) -> MQTTError {
        let text = String(cString: mosquitto_connack_string(code))
        let status = MosquittoStatus(rawValue: MOSQ_ERR_CONN_REFUSED.rawValue)
        if code == 4 || code == 5 || code == 134 || code == 135 {
            return MQTTError(
                .notAuthorized, "the broker at \(endpoint) refused the credentials: \(text)", status: status)
        }
        return MQTTError(.refused, "the broker at \(endpoint) refused the connection: \(text)", status: status)
    }
}
