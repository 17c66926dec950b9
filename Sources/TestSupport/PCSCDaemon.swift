import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A private `pcscd` with vpcd virtual readers, started and stopped by tests (`docs/reference/pcsc.md` §2–3).
///
/// Nothing in `/etc` is touched: the readers come from a private config folder (`pcscd --config DIR`)
/// with one entry per two slots, each entry loading **its own copy** of the vpcd driver file (entries
/// sharing one file share state, §8 pitfall 2). pcscd 1.9.9 ignores `PCSCLITE_CSOCK_NAME`, so the
/// harness hands it a private listening socket the way systemd socket activation does (`LISTEN_FDS=1`,
/// `LISTEN_PID`, the socket as descriptor 3) and points this process's clients at it by setting
/// `PCSCLITE_CSOCK_NAME` once (pcsc-lite reads it at the first context and caches it). Several test
/// processes can therefore run their own pcscd side by side.
///
/// Slot *s* of entry *e* is reader `"Virtual PCD e 00 0s"` and listens on `ports[2e + s]`. Ports are
/// picked at random from 20000–31999 (below Linux's ephemeral range) after checking that they can be
/// bound; a port taken in between leaves the entry without readers, which the reader-count check
/// catches, and the start is retried with other ports.
public final class PCSCDaemon: Sendable {
    /// The client socket path every pcscd of this process listens on (`PCSCLITE_CSOCK_NAME`).
    public static let socketPath: String = {
        let directory = "/tmp/provision-pcscd-\(getpid())"
        mkdir(directory, 0o755)
        let path = directory + "/pcscd.comm"
        setenv("PCSCLITE_CSOCK_NAME", path, 1)
        return path
    }()

    /// The reader names pcscd registers, in its order.
    public let readerNames: [String]
    /// The vpcd TCP port of each reader, same order.
    public let ports: [UInt16]
    /// The private folder (config, driver copies, log).
    public let directory: URL
    /// The pcscd process id.
    public let processID: pid_t

    private init(readerNames: [String], ports: [UInt16], directory: URL, processID: pid_t) {
        self.readerNames = readerNames
        self.ports = ports
        self.directory = directory
        self.processID = processID
    }

    /// Starts pcscd with at least `slots` virtual readers (rounded up to an even number) and waits until
    /// `readerCount()` reports all of them.
    ///
    /// - Parameters:
    ///   - slots: the virtual reader slots wanted.
    ///   - readerCount: lists readers through pcsc-lite (e.g. `PCSCReader.listReaders().count`);
    ///     called after `PCSCLITE_CSOCK_NAME` is set.
    /// - Returns: the running daemon; call `stop()` exactly once.
    /// - Throws: `HarnessError` when pcscd does not come up with every reader after four tries.
    /// Only one daemon runs per test process at a time (they share `socketPath`): `start` waits until
    /// the previous daemon was stopped, so suites in different files and targets cannot collide.
    public static func start(slots: Int, readerCount: @Sendable () throws -> Int) async throws -> PCSCDaemon {
        _ = socketPath
        await DaemonLock.shared.acquire()
        do {
            return try await startLocked(slots: slots, readerCount: readerCount)
        } catch {
            await DaemonLock.shared.release()
            throw error
        }
    }

    private static func startLocked(slots: Int, readerCount: @Sendable () throws -> Int) async throws -> PCSCDaemon {
        var lastLog = ""
        for _ in 0..<4 {
            let daemon = try launch(entries: max(1, (slots + 1) / 2))
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(5)
            while clock.now < deadline, daemon.isRunning {
                if (try? readerCount()) == daemon.readerNames.count { return daemon }
                try await Task.sleep(for: .milliseconds(10))
            }
            lastLog = daemon.log
            await daemon.terminate()
        }
        throw HarnessError("pcscd did not register its virtual readers; last log:\n\(lastLog)")
    }

    /// pcscd's stdout and stderr so far (print it when a test fails).
    public var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("pcscd.log"), encoding: .utf8)) ?? ""
    }

    /// Whether the process is still running.
    public var isRunning: Bool { kill(processID, 0) == 0 && !Self.reap(processID, block: false) }

    /// Stops pcscd and lets the next `start` go ahead; call exactly once.
    ///
    /// Sends SIGTERM, waits for the process to exit (SIGKILL after 5 s) and removes the private folder.
    public func stop() async {
        await terminate()
        await DaemonLock.shared.release()
    }

    /// Stops this pcscd and starts another on the same readers (config folder, ports, socket), as a restart of
    /// the service would: the readers vanish from `SCardListReaders` and return under the same names. Virtual
    /// cards reconnect by themselves.
    ///
    /// - Parameters:
    ///   - readerCount: as for `start`; the new daemon is returned once it lists every reader.
    ///   - whileDown: runs after the old daemon exited and before the new one starts.
    /// - Returns: the new daemon; call its `stop()` (and never this one's) exactly once.
    public func restart(readerCount: @Sendable () throws -> Int, whileDown: () async throws -> Void = {}) async throws
        -> PCSCDaemon
    {
        await terminate(keepingFiles: true)
        try await whileDown()
        let pid = try Self.spawn(
            configDirectory: directory.appendingPathComponent("conf").path,
            logPath: directory.appendingPathComponent("pcscd-restarted.log").path)
        let daemon = PCSCDaemon(readerNames: readerNames, ports: ports, directory: directory, processID: pid)
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        while clock.now < deadline, daemon.isRunning {
            if (try? readerCount()) == readerNames.count { return daemon }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw HarnessError("the restarted pcscd did not register its readers:\n\(daemon.log)")
    }

    private func terminate(keepingFiles: Bool = false) async {
        kill(processID, SIGTERM)
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        while !Self.reap(processID, block: false) {
            if clock.now > deadline {
                kill(processID, SIGKILL)
                _ = Self.reap(processID, block: true)
                break
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        if keepingFiles { return }
        try? FileManager.default.removeItem(at: directory)
        unlink(Self.socketPath)
        rmdir((Self.socketPath as NSString).deletingLastPathComponent)
    }

    private static func reap(_ pid: pid_t, block: Bool) -> Bool {
        var status: Int32 = 0
        let result = waitpid(pid, &status, block ? 0 : WNOHANG)
        return result == pid || (result < 0 && errno == ECHILD)
    }

    private static func launch(entries: Int) throws -> PCSCDaemon {
        let base = try freePortBlock(count: 2 * entries)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("provision-pcscd-\(getpid())-\(UUID().uuidString.prefix(8))")
        let drivers = directory.appendingPathComponent("conf/drivers")
        try FileManager.default.createDirectory(at: drivers, withIntermediateDirectories: true)
        let driver = URL(fileURLWithPath: "/usr/lib/pcsc/drivers/serial/libifdvpcd.so").resolvingSymlinksInPath()
        var config = ""
        var names: [String] = []
        var ports: [UInt16] = []
        for entry in 0..<entries {
            let copy = drivers.appendingPathComponent("libifdvpcd-\(entry).so")
            try FileManager.default.copyItem(at: driver, to: copy)
            let port = base + UInt16(2 * entry)
            config += """
                FRIENDLYNAME "Virtual PCD \(entry)"
                DEVICENAME /dev/null:\(port)
                LIBPATH \(copy.path)
                CHANNELID \(port)


                """
            names += ["Virtual PCD \(entry) 00 00", "Virtual PCD \(entry) 00 01"]
            ports += [port, port + 1]
        }
        try config.write(to: directory.appendingPathComponent("conf/vpcd"), atomically: true, encoding: .utf8)
        let pid = try spawn(
            configDirectory: directory.appendingPathComponent("conf").path,
            logPath: directory.appendingPathComponent("pcscd.log").path)
        return PCSCDaemon(readerNames: names, ports: ports, directory: directory, processID: pid)
    }

    /// Spawns `pcscd --foreground --config DIR` with the private socket as descriptor 3.
    private static func spawn(configDirectory: String, logPath: String) throws -> pid_t {
        mkdir((socketPath as NSString).deletingLastPathComponent, 0o755)
        unlink(socketPath)
        var listener = try listenUnix(socketPath)
        if listener == 3 {
            let moved = fcntl(listener, F_DUPFD_CLOEXEC, 10)
            close(listener)
            listener = moved
        }
        defer { close(listener) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_adddup2(&actions, listener, 3)
        SpawnFiles.closeInherited(&actions, from: 4)
        // `exec` keeps the shell's pid, so LISTEN_PID=$$ names pcscd itself (sd_listen_fds checks it).
        let script = "LISTEN_PID=$$ LISTEN_FDS=1 exec pcscd --foreground --config \"$0\""
        let arguments = ["/bin/sh", "-c", script, configDirectory]
        var environment = ProcessInfo.processInfo.environment
        environment["LISTEN_FDNAMES"] = nil
        let envStrings = environment.map { "\($0.key)=\($0.value)" }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = envStrings.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        SpawnFiles.resetSignals(&attributes)
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &argv, &envp)
        guard result == 0 else { throw HarnessError("cannot start pcscd: \(String(cString: strerror(result)))") }
        return pid
    }

    private static func listenUnix(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(fd, 32) == 0 else {
            let text = String(cString: strerror(errno))
            close(fd)
            throw HarnessError("cannot listen on \(path): \(text)")
        }
        chmod(path, 0o666)
        return fd
    }

    /// A random block of `count` consecutive TCP ports that can all be bound on 0.0.0.0 now.
    public static func freePortBlock(count: Int) throws -> UInt16 {
        for _ in 0..<200 {
            let base = UInt16.random(in: 20000...31900)
            if (0..<count).allSatisfy({ canBind(base + UInt16($0)) }) { return base }
        }
        throw HarnessError("no block of \(count) free TCP ports found")
    }

    private static func canBind(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = INADDR_ANY
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// A first-come, first-served async lock: one private pcscd per test process at a time.
private actor DaemonLock {
    static let shared = DaemonLock()
    private var held = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        if !held {
            held = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func release() {
        if waiters.isEmpty {
            held = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}

/// A test-harness failure (environment, not the code under test).
public struct HarnessError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
