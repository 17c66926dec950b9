import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The MQTT tests' independent consumer: `mosquitto_sub -q 1` on a `MosquittoBroker`, collecting every message it
/// prints (`-F '%r %t %x'`: retained flag, topic, payload in hex) in arrival order.
///
/// `start` returns once the subscription is active: it publishes probe messages (`mosquitto_pub`) on a private topic
/// the same SUBSCRIBE covers until one comes back, so nothing a test publishes afterwards can be missed. Waiting is
/// by event (`waitFor`), never by sleeping.
public final class MosquittoSubscriber: Sendable {
    /// One message as the consumer saw it.
    public struct Message: Sendable, Hashable, CustomStringConvertible {
        /// The topic.
        public var topic: String
        /// The payload bytes.
        public var payload: [UInt8]
        /// Whether the broker sent it as a retained message (a late subscriber's copy).
        public var retained: Bool
        /// The payload as UTF-8 text.
        public var text: String { String(decoding: payload, as: UTF8.self) }
        public var description: String { "\(retained ? "retained " : "")\(topic) \(text)" }
    }

    private struct Waiter {
        let predicate: @Sendable ([Message]) -> Bool
        let continuation: CheckedContinuation<[Message]?, Never>
    }
    private struct Inner {
        var messages: [Message] = []
        var waiters: [UUID: Waiter] = [:]
        /// Waits whose time ran out before they were registered.
        var expired: Set<UUID> = []
        var ended = false
    }

    private let pid: pid_t
    private let probeTopic: String
    private let inner = Mutex(Inner())

    private init(pid: pid_t, probeTopic: String) {
        self.pid = pid
        self.probeTopic = probeTopic
    }

    deinit { stop() }

    /// Subscribes to `topics` (filters, `#` allowed) at QoS 1 on `broker` and returns once the subscription is active.
    /// TLS brokers are reached with their CA; `user`/`password` go to `mosquitto_sub` on its command line, which is
    /// acceptable for a throwaway test broker only. With `sessionID`, the subscriber keeps a persistent session under
    /// that client id (`-c -i`): on a broker with persistence it reconnects after a restart and gets what was
    /// queued for it meanwhile.
    public static func start(
        _ broker: MosquittoBroker, topics: [String], user: String? = nil, password: String? = nil,
        sessionID: String? = nil
    ) async throws -> MosquittoSubscriber {
        var connection = ["-h", broker.usesTLS ? "localhost" : "127.0.0.1", "-p", String(broker.port)]
        if broker.usesTLS { connection += ["--cafile", broker.caFile] }
        if broker.usesTLS, FileManager.default.fileExists(atPath: broker.clientCertificate) {
            connection += ["--cert", broker.clientCertificate, "--key", broker.clientKey]
        }
        if let user, let password { connection += ["-u", user, "-P", password] }
        let session = sessionID.map { ["-c", "-i", $0] } ?? []
        let probeTopic = "harness-probe/\(UUID().uuidString)"
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw HarnessError("pipe failed: errno \(errno)") }
        let arguments =
            ["/usr/bin/mosquitto_sub"] + connection + session + ["-q", "1", "-F", "%r %t %x"]
            + (topics + [probeTopic]).flatMap { ["-t", $0] }
        let pid: pid_t
        do {
            pid = try BrokerProcess.spawn(arguments, outputDescriptor: pipe[1])
        } catch {
            close(pipe[0])
            close(pipe[1])
            throw error
        }
        close(pipe[1])
        let subscriber = MosquittoSubscriber(pid: pid, probeTopic: probeTopic)
        subscriber.readLines(from: pipe[0])
        // Probe until the subscription answers (each probe is a separate mosquitto_pub run, up to a second apart);
        // a loaded machine's TLS handshakes can take seconds, so the bound is generous: it only ends a broken start.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(60)
        while clock.now < deadline {
            try PostgresTestServer.run("/usr/bin/mosquitto_pub", connection + ["-q", "1", "-t", probeTopic, "-n"])
            let seen = await subscriber.waitForAll(timeout: .seconds(1)) { messages in
                messages.contains { $0.topic == probeTopic }
            }
            if seen != nil { return subscriber }
        }
        throw HarnessError("mosquitto_sub did not receive its probe on \(probeTopic) within 60 s")
    }

    /// The messages received so far (probes left out), in arrival order.
    public var messages: [Message] { inner.withLock { $0.messages.filter { $0.topic != probeTopic } } }

    /// Waits until `predicate` holds for the messages received (probes left out) and returns them; `nil` when it
    /// does not hold within `timeout` or the subscriber ended.
    public func waitFor(timeout: Duration = .seconds(30), _ predicate: @escaping @Sendable ([Message]) -> Bool)
        async -> [Message]?
    {
        let probeTopic = self.probeTopic
        let all = await waitForAll(timeout: timeout) { predicate($0.filter { $0.topic != probeTopic }) }
        return all?.filter { $0.topic != probeTopic }
    }

    /// `waitFor` over every message, probes included.
    private func waitForAll(timeout: Duration, _ predicate: @escaping @Sendable ([Message]) -> Bool) async
        -> [Message]?
    {
        let id = UUID()
        let timer = Task { [weak self] in
            try await Task.sleep(for: timeout)
            self?.finishWaiter(id, with: nil)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { (continuation: CheckedContinuation<[Message]?, Never>) in
            let now = inner.withLock { inner -> [Message]?? in
                if predicate(inner.messages) { return .some(inner.messages) }
                if inner.ended || inner.expired.remove(id) != nil { return .some(nil) }
                inner.waiters[id] = Waiter(predicate: predicate, continuation: continuation)
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Waits for at least `count` messages on topics starting with `prefix`, and returns those messages.
    public func waitFor(count: Int, topicPrefix prefix: String = "", timeout: Duration = .seconds(30)) async
        -> [Message]
    {
        let all = await waitFor(timeout: timeout) { $0.filter { $0.topic.hasPrefix(prefix) }.count >= count }
        return (all ?? messages).filter { $0.topic.hasPrefix(prefix) }
    }

    /// Stops `mosquitto_sub` (SIGTERM) and reaps it.
    public func stop() {
        guard kill(pid, SIGTERM) == 0 else { return }
        _ = BrokerProcess.reap(pid, block: true)
    }

    private func finishWaiter(_ id: UUID, with result: [Message]?) {
        let waiter = inner.withLock { inner in
            guard let waiter = inner.waiters.removeValue(forKey: id) else {
                inner.expired.insert(id)
                return Waiter?.none
            }
            return waiter
        }
        waiter?.continuation.resume(returning: result)
    }

    /// Reads `descriptor` line by line on its own thread until end of file.
    private func readLines(from descriptor: Int32) {
        let thread = Thread { [weak self] in
            var buffer: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if got < 0 && errno == EINTR { continue }
                if got <= 0 { break }
                buffer += chunk[..<got]
                while let newline = buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[..<newline], as: UTF8.self)
                    buffer.removeSubrange(...newline)
                    self?.received(Self.parse(line))
                }
            }
            close(descriptor)
            self?.ended()
        }
        thread.start()
    }

    private func received(_ message: Message?) {
        guard let message else { return }
        let ready = inner.withLock { inner -> [(CheckedContinuation<[Message]?, Never>, [Message])] in
            inner.messages.append(message)
            let done = inner.waiters.filter { $0.value.predicate(inner.messages) }
            for id in done.keys { inner.waiters[id] = nil }
            return done.values.map { ($0.continuation, inner.messages) }
        }
        for (continuation, messages) in ready { continuation.resume(returning: messages) }
    }

    private func ended() {
        let waiters = inner.withLock { inner -> [Waiter] in
            inner.ended = true
            defer { inner.waiters = [:] }
            return Array(inner.waiters.values)
        }
        for waiter in waiters { waiter.continuation.resume(returning: nil) }
    }

    /// `R TOPIC HEX` → a message (`nil` for a line that is not one).
    private static func parse(_ line: String) -> Message? {
        let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count >= 2 else { return nil }
        let hex = fields.count == 3 ? Array(fields[2].utf8) : []
        var payload: [UInt8] = []
        var index = 0
        while index + 1 < hex.count,
            let byte = UInt8(String(decoding: hex[index...index + 1], as: UTF8.self), radix: 16)
        {
            payload.append(byte)
            index += 2
        }
        return Message(topic: String(fields[1]), payload: payload, retained: fields[0] == "1")
    }
}
