import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway mosquitto broker for the MQTT tests: `mosquitto -c CONF` on a free port at 127.0.0.1, persistence off,
/// in its own temporary folder (configuration, log, password file, certificates), removed when it is released.
///
/// Options: users with passwords (a password file made with `mosquitto_passwd -b`, `allow_anonymous false`) and a
/// TLS listener whose certificate (for `localhost`) the test CA of `TestCertificates` signed. `restart()` stops it and
/// starts it again on the same port, as a broker restart in a plant would: clients lose their connection, and with
/// persistence off the broker forgets retained messages and sessions.
public final class MosquittoBroker: Sendable {
    /// The TCP port it listens on at 127.0.0.1.
    public let port: Int
    /// Its private folder.
    public let directory: String
    /// Whether the listener speaks TLS (connect to `localhost`, the certificate's only name).
    public let usesTLS: Bool
    private let pid: Mutex<pid_t>

    private init(port: Int, directory: String, usesTLS: Bool, pid: pid_t) {
        self.port = port
        self.directory = directory
        self.usesTLS = usesTLS
        self.pid = Mutex(pid)
    }

    deinit {
        let pid = self.pid.withLock { $0 }
        if pid > 0 {
            kill(pid, SIGKILL)
            _ = BrokerProcess.reap(pid, block: true)
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Starts a broker and returns once it accepts TCP connections.
    ///
    /// - Parameters:
    ///   - users: user names and passwords; when given, anonymous clients are refused.
    ///   - tls: a TLS listener with the test CA's server certificate (`caFile`, `otherCAFile`).
    ///   - clientCertificates: with `tls`, the listener asks for a client certificate the test CA signed
    ///     (`clientCertificate`, `clientKey`) and refuses a handshake without one.
    ///   - persistence: keep sessions, queued messages and retained messages in the folder across `restart()` (a
    ///     plant broker's setting; a consumer with a persistent session then misses nothing published meanwhile).
    /// - Throws: `HarnessError` when mosquitto is not installed or does not come up.
    public static func start(
        users: [(user: String, password: String)] = [], tls: Bool = false, clientCertificates: Bool = false,
        persistence: Bool = false
    ) async throws -> MosquittoBroker {
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/mosquitto") else {
            throw HarnessError("mosquitto is not installed: make test-deps (apt-get install mosquitto)")
        }
        let directory = try Fixtures.temporaryDirectory("mosquitto").path
        chmod(directory, 0o755)
        let port = try TCPPort.free()
        var config = "listener \(port) 127.0.0.1\n"
        config += persistence ? "persistence true\npersistence_location \(directory)/\n" : "persistence false\n"
        config += "log_dest file \(directory)/broker.log\n"
        config += "log_type error\nlog_type warning\nlog_type notice\nlog_type information\n"
        if getuid() == 0 { config += "user root\n" }  // as root, mosquitto would otherwise switch to user mosquitto
        if users.isEmpty {
            config += "allow_anonymous true\n"
        } else {
            config += "allow_anonymous false\npassword_file \(directory)/passwd\n"
            for (index, entry) in users.enumerated() {
                try PostgresTestServer.run(
                    "/usr/bin/mosquitto_passwd",
                    (index == 0 ? ["-c"] : []) + ["-b", directory + "/passwd", entry.user, entry.password])
            }
        }
        if tls {
            try TestCertificates.make(in: directory)
            config += "cafile \(directory)/ca.crt\ncertfile \(directory)/server.crt\nkeyfile \(directory)/server.key\n"
            if clientCertificates {
                try TestCertificates.makeClient(in: directory)
                config += "require_certificate true\n"
            }
        }
        try config.write(toFile: directory + "/mosquitto.conf", atomically: true, encoding: .utf8)
        let pid = try BrokerProcess.spawn(
            ["/usr/sbin/mosquitto", "-c", directory + "/mosquitto.conf"], output: directory + "/broker.out")
        let broker = MosquittoBroker(port: port, directory: directory, usesTLS: tls, pid: pid)
        try await broker.waitUntilAccepting()
        return broker
    }

    /// The CA certificate that signed the TLS listener's certificate.
    public var caFile: String { directory + "/ca.crt" }
    /// A client certificate and its owner-only key the test CA signed (`clientCertificates`).
    public var clientCertificate: String { directory + "/client.crt" }
    public var clientKey: String { directory + "/client.key" }
    /// A CA certificate that signed nothing here (a wrong CA).
    public var otherCAFile: String { directory + "/other-ca.crt" }

    /// `mqtt://127.0.0.1:PORT/PREFIX`, or `mqtts://localhost:PORT/PREFIX` for a TLS broker.
    public func url(prefix: String) -> String {
        usesTLS ? "mqtts://localhost:\(port)/\(prefix)" : "mqtt://127.0.0.1:\(port)/\(prefix)"
    }

    /// The broker's log so far (print it when a test fails).
    public var log: String {
        ["broker.out", "broker.log"].map { (try? String(contentsOfFile: directory + "/" + $0, encoding: .utf8)) ?? "" }
            .joined()
    }

    /// Stops the broker (SIGTERM; SIGKILL after 5 s) and waits for it to exit; the folder stays for `restart()` and
    /// goes when the broker is released.
    public func stop() async {
        let pid = self.pid.withLock { pid in
            defer { pid = 0 }
            return pid
        }
        guard pid > 0 else { return }
        kill(pid, SIGTERM)
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        while !BrokerProcess.reap(pid, block: false) {
            if clock.now > deadline {
                kill(pid, SIGKILL)
                _ = BrokerProcess.reap(pid, block: true)
                return
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Freezes the broker (SIGSTOP) and returns once the kernel reports it stopped: connections stay open, nothing
    /// is answered until `resume()`.
    public func pause() async throws {
        let pid = self.pid.withLock { $0 }
        guard pid > 0 else { throw HarnessError("pause: the broker is not running") }  // kill(0, …): the whole group
        kill(pid, SIGSTOP)
        // The state is read once more after the deadline: a starved test task may wake only after it.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while !ProvisionProcess.isStopped(pid: pid) {
            guard clock.now < deadline else {
                throw HarnessError("mosquitto (pid \(pid)) did not stop on SIGSTOP within 30 s")
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Lets a paused broker run again (SIGCONT).
    public func resume() {
        let pid = self.pid.withLock { $0 }
        if pid > 0 { kill(pid, SIGCONT) }  // never kill(0, …), which would signal this whole process group
    }

    /// Kills the broker (SIGKILL, also when paused): connections drop without a word, nothing paused is answered.
    public func crash() {
        let pid = self.pid.withLock { pid in
            defer { pid = 0 }
            return pid
        }
        guard pid > 0 else { return }
        kill(pid, SIGKILL)
        _ = BrokerProcess.reap(pid, block: true)
    }

    /// Stops the broker (unless stopped or crashed) and starts it again with the same configuration on the same
    /// port; returns once it accepts.
    public func restart() async throws {
        await stop()
        let pid = try BrokerProcess.spawn(
            ["/usr/sbin/mosquitto", "-c", directory + "/mosquitto.conf"], output: directory + "/broker.out")
        self.pid.withLock { $0 = pid }
        try await waitUntilAccepting()
    }

    /// Polls a TCP connect to the port (every 10 ms, at most 60 s: a loaded test run can hold a start up) while the
    /// process lives.
    private func waitUntilAccepting() async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(60)
        while clock.now < deadline {
            let pid = self.pid.withLock { $0 }
            if BrokerProcess.reap(pid, block: false) {
                self.pid.withLock { $0 = 0 }
                throw HarnessError("mosquitto exited at start:\n\(log.suffix(2_000))")
            }
            if BrokerProcess.accepts(port: port) { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw HarnessError("mosquitto did not accept connections on port \(port) within 60 s:\n\(log.suffix(2_000))")
    }
}

/// Children of the MQTT harness (the broker, `mosquitto_sub`): spawned with only the descriptors they are given and
/// with default signal handling, reaped without blocking.
enum BrokerProcess {
    /// Spawns `arguments` with stdin from /dev/null and stdout and stderr to `output` (a file path) or to the
    /// descriptor `outputDescriptor`.
    static func spawn(_ arguments: [String], output: String? = nil, outputDescriptor: Int32? = nil) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let outputDescriptor {
            posix_spawn_file_actions_adddup2(&actions, outputDescriptor, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        }
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        SpawnFiles.closeInherited(&actions, from: 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        SpawnFiles.resetSignals(&attributes)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard result == 0 else {
            throw HarnessError("cannot start \(arguments[0]): \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// Whether `pid` has exited (and is now reaped).
    static func reap(_ pid: pid_t, block: Bool) -> Bool {
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, block ? 0 : WNOHANG) } while result < 0 && errno == EINTR
        return result == pid || (result < 0 && errno == ECHILD)
    }

    /// Whether something accepts a TCP connection on 127.0.0.1:`port` now.
    static func accepts(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
