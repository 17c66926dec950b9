import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A token in another process: `p11-kit server` in front of a `SoftHSMToken`, reached through p11-kit's client
/// module, as a network HSM would be.
///
/// The server runs in the foreground in its own process group, with the token's `SOFTHSM2_CONF`, serving one
/// socket in the token's folder. Its client module (`p11-kit-client.so`) reads `P11_KIT_SERVER_ADDRESS` when it
/// is initialised; each server gets its own copy of the client module, so several servers can be used from one
/// test process (see `SoftHSMToken`). The client offers AES-ECB and SHA256-HMAC but not AES-CMAC or AES-CBC
/// (docs/reference/pkcs11.md §3). `stop()` kills the whole process group: the server forks a `p11-kit-remote`
/// child per client, which would outlive the server alone.
public final class P11KitServer: Sendable {
    /// The server's process id, which is also its process group id.
    public let pid: pid_t
    /// The socket's address, `unix:path=…`.
    public let address: String
    /// This server's private copy of the client module.
    public let clientModulePath: String
    private let stopped = Atomic<Bool>(false)

    /// p11-kit's client module (Debian's `p11-kit-modules`).
    public static let systemClientModule: String? = [
        "/usr/lib/x86_64-linux-gnu/pkcs11/p11-kit-client.so", "/usr/lib/aarch64-linux-gnu/pkcs11/p11-kit-client.so",
    ].first { FileManager.default.fileExists(atPath: $0) }.map {
        URL(fileURLWithPath: $0).resolvingSymlinksInPath().path
    }

    private init(pid: pid_t, address: String, clientModulePath: String) {
        self.pid = pid
        self.address = address
        self.clientModulePath = clientModulePath
    }

    deinit { stop() }

    /// Starts a server for `token` and returns once its socket accepts connections (the server prints its
    /// address when it listens). A server started again for the same token (the token coming back after `stop`)
    /// listens at the same address, so a client that lost the first finds the second.
    /// - Throws: `HarnessError` when p11-kit is not installed or the server does not start.
    public static func start(_ token: SoftHSMToken) throws -> P11KitServer {
        guard let client = systemClientModule, let provider = SoftHSMToken.systemModule,
            FileManager.default.isExecutableFile(atPath: "/usr/bin/p11-kit")
        else { throw HarnessError("p11-kit is not installed: make test-deps (apt-get install p11-kit)") }
        let socket = token.directory + "/p11.sock"
        let clientCopy = token.directory + "/p11-kit-client.so"
        if !FileManager.default.fileExists(atPath: clientCopy) {
            try FileManager.default.copyItem(atPath: client, toPath: clientCopy)
        }
        try? FileManager.default.removeItem(atPath: socket)
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw HarnessError("pipe failed: errno \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, token.directory + "/server.log", O_WRONLY | O_CREAT, 0o600)
        SpawnFiles.closeInherited(&actions, from: 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let arguments = [
            "/usr/bin/env", "SOFTHSM2_CONF=\(token.configPath)", "/usr/bin/p11-kit", "server", "-f", "--provider",
            provider, "-n", socket, "pkcs11:token=\(token.label)",
        ]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
        close(pipe[1])
        defer { close(pipe[0]) }
        guard spawned == 0 else { throw HarnessError("cannot run p11-kit server: errno \(spawned)") }
        let server = P11KitServer(pid: pid, address: "unix:path=\(socket)", clientModulePath: clientCopy)
        // The first line, `P11_KIT_SERVER_ADDRESS=…; export …`, comes once the socket listens; EOF means it died.
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(pipe[0], &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
        guard String(decoding: line, as: UTF8.self).hasPrefix("P11_KIT_SERVER_ADDRESS="),
            FileManager.default.fileExists(atPath: socket)
        else {
            server.stop()
            let log = (try? String(contentsOfFile: token.directory + "/server.log", encoding: .utf8)) ?? ""
            throw HarnessError("p11-kit server did not start: \(log.suffix(1_000))")
        }
        return server
    }

    /// Calls `body` with the client module's path while `P11_KIT_SERVER_ADDRESS` names this server, serialised
    /// with every other module load of the process: load the client module inside.
    public func withClientEnvironment<T>(_ body: (String) throws -> T) rethrows -> T {
        try ModuleEnvironment.with(["P11_KIT_SERVER_ADDRESS": address]) { try body(clientModulePath) }
    }

    /// Takes the token away: SIGKILL to the server's whole process group, then reaps the server.
    public func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
}
