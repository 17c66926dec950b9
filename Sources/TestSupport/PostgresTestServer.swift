import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway PostgreSQL server for tests (docs/reference/postgres.md §1): one per test process, started on first
/// use, one database per test case.
///
/// `initdb -N` and `pg_ctl` run as the `postgres` OS user through `setpriv` when the tests run as root
/// (initdb refuses root); the shared server listens on a Unix socket in a short temporary folder only (no TCP;
/// `PostgresTLSServer` is one with TLS on TCP too), with `fsync` and `synchronous_commit` on. It is stopped like
/// `pg_ctl -m immediate` (SIGQUIT to the postmaster) when the test process exits. A server that cannot start fails
/// the test with the reason.
public final class PostgresTestServer: Sendable {
    /// The socket folder (also the server's home), e.g. `/tmp/pgt.AbC123`.
    public let directory: String
    /// The server's binaries (`pg_config --bindir`).
    public let binaries: String
    /// The port: the socket's name (`.s.PGSQL.PORT`), and the TCP port of a server that also listens on TCP.
    public let port: Int
    private let databases = Atomic<Int>(0)
    /// Each started server's postmaster process id and folder, stopped and removed at exit.
    private static let running = Mutex<[(pid: Int32, folder: String)]>([])
    private static let started = Mutex<Result<PostgresTestServer, HarnessError>?>(nil)

    private init(directory: String, binaries: String, port: Int) {
        self.directory = directory
        self.binaries = binaries
        self.port = port
    }

    /// The process's server, started on the first call.
    /// - Throws: `HarnessError` with the failing command's output when the server cannot start.
    public static func shared() throws -> PostgresTestServer {
        try started.withLock { stored -> Result<PostgresTestServer, HarnessError> in
            if let stored { return stored }
            let outcome = Result { () throws(HarnessError) -> PostgresTestServer in try start() }
            stored = outcome
            return outcome
        }.get()
    }

    /// A new empty database on the server and its connection string (no password: `trust` on the socket).
    public func createDatabase() throws -> String {
        let name = "t\(getpid())_\(databases.add(1, ordering: .relaxed).newValue)"
        _ = try Self.run(
            binaries + "/psql",
            ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-c", "CREATE DATABASE \(name)"] + [
                "host=\(directory) port=\(port) user=ledger dbname=postgres"
            ])
        return connInfo(database: name)
    }

    /// The connection string of `database`.
    public func connInfo(database: String) -> String {
        "host=\(directory) port=\(port) user=ledger dbname=\(database)"
    }

    /// Runs `sql` with psql on `conninfo` and returns its rows, fields split at `|` (as an engineer would read).
    public func query(_ conninfo: String, _ sql: String) throws -> [[String]] {
        let output = try Self.run(
            binaries + "/psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql, conninfo])
        return output.split(separator: "\n").map {
            $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        }
    }

    /// Starts a server on `port` with the extra server `options` (`-c name=value …`); `prepare` runs on the
    /// data folder (and the user that runs the server: uid, gid) after `initdb` and before the start.
    static func start(
        port: Int = 5432, options: String = "",
        prepare: (_ data: String, _ owner: (uid: uid_t, gid: gid_t)?) throws(HarnessError) -> Void = { _, _ in }
    ) throws(HarnessError) -> PostgresTestServer {
        let binaries: String
        do {
            binaries = try run("/usr/bin/pg_config", ["--bindir"]).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw HarnessError(
                "PostgreSQL is not installed (pg_config: \(error)): apt-get install postgresql libpq-dev")
        }
        guard FileManager.default.isExecutableFile(atPath: binaries + "/initdb") else {
            throw HarnessError("no initdb in \(binaries): apt-get install postgresql")
        }
        var template = Array("/tmp/pgt.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw HarnessError("mkdtemp failed: errno \(errno)") }
        let directory = String(cString: made)
        var prefix: [String] = []
        var owner: (uid: uid_t, gid: gid_t)?
        if getuid() == 0 {
            guard let user = getpwnam("postgres") else {
                throw HarnessError("running as root and there is no postgres user to run the server as")
            }
            chmod(directory, 0o755)
            chown(directory, user.pointee.pw_uid, user.pointee.pw_gid)
            owner = (user.pointee.pw_uid, user.pointee.pw_gid)
            prefix = [
                "/usr/bin/setpriv", "--reuid=\(user.pointee.pw_uid)", "--regid=\(user.pointee.pw_gid)",
                "--clear-groups",
                "--", "/usr/bin/env", "HOME=\(directory)",
            ]
        }
        func asServer(_ command: String, _ arguments: [String]) throws(HarnessError) {
            let line = prefix + [command] + arguments
            do { _ = try run(line[0], Array(line.dropFirst())) } catch {
                let log = (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? ""
                throw HarnessError("the test PostgreSQL server did not start: \(error)\n\(log.suffix(2_000))")
            }
        }
        try asServer(
            binaries + "/initdb",
            [
                "-D", directory + "/data", "-U", "ledger", "-A", "trust", "-E", "UTF8", "--locale=C", "-N",
            ])
        try prepare(directory + "/data", owner)
        try asServer(
            binaries + "/pg_ctl",
            [
                "-D", directory + "/data", "-l", directory + "/server.log", "-w", "-t", "30", "start", "-o",
                "-c listen_addresses='' -k \(directory) -p \(port) -c fsync=on -c synchronous_commit=on \(options)",
            ])
        let pidText = (try? String(contentsOfFile: directory + "/data/postmaster.pid", encoding: .utf8)) ?? ""
        guard let pid = Int32(pidText.split(separator: "\n").first ?? "") else {
            throw HarnessError("the test PostgreSQL server left no postmaster.pid in \(directory)/data")
        }
        let first = running.withLock { servers in
            servers.append((pid, directory))
            return servers.count == 1
        }
        if first {
            atexit {
                // SIGQUIT is pg_ctl's immediate stop; once a postmaster is gone (at most 5 s), its folder goes.
                for server in PostgresTestServer.running.withLock({ $0 }) {
                    kill(server.pid, SIGQUIT)
                    for _ in 0..<500 where kill(server.pid, 0) == 0 { usleep(10_000) }
                    try? FileManager.default.removeItem(atPath: server.folder)
                }
            }
        }
        return PostgresTestServer(directory: directory, binaries: binaries, port: port)
    }

    /// Runs a command and returns its output; throws with its output when it exits non-zero.
    ///
    /// `posix_spawn` and `waitpid`, not `Process`: Foundation's `Process` notices a child's end through a
    /// descriptor the server `pg_ctl` leaves running would inherit and hold open forever.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws(HarnessError) -> String {
        let outputPath = NSTemporaryDirectory() + "pgt-\(UUID().uuidString).out"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        SpawnFiles.closeInherited(&actions, from: 3)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw HarnessError("cannot run \(executable): errno \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // WIFEXITED and WEXITSTATUS, spelled out (the macros do not import).
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            throw HarnessError("\(executable) \(arguments.joined(separator: " ")) failed (status \(status)): \(text)")
        }
        return text
    }
}
