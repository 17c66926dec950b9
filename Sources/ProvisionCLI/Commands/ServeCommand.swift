import Foundation
import HTTPService
import Ledger
import NFCTags
import Provisioning
import Reports

#if canImport(Glibc)
    import Glibc
#endif

/// `provision serve --listen ADDRESS --manifest JOB…`: tap verification as an HTTP service (API v1, docs/api.md) on
/// the jobs' ledgers (keyed SUN and NTAG21x jobs), with the verifier `verify-url` uses (`TapService`).
struct ServeCommand: Command {
    static let name = "serve"
    static let summary = "verify tap URLs over HTTP (API v1) on the jobs' ledgers, with metrics"
    static let help = """
        Usage: provision serve --listen tcp:HOST:PORT|unix:PATH --manifest JOB [--manifest JOB …]
                               [--ledger FILE|postgresql://…] [--max-connections N] [--per-client-connections N]
                               [--connection-timeout SECONDS] [--trusted-clients NETWORK,…]
                               [--uid-burst N] [--uid-per-minute N] [--counter-window N]
                               [--allow-root] [--allow-extractable-key] [--json]

        Answers tap URLs of keyed jobs (their tags' SUN messages) and NTAG21x jobs (a {{mac:…}} in the URL,
        with the chip's counter mirror or without) over HTTP, with the verifier `verify-url` uses: a SUN is
        checked with the job's keys derived from its master key, an NTAG21x MAC with the job's key over the
        row's values (its counter, outside the MAC, accepted when it rises by at most --counter-window, a
        larger jump suspicious and not stored). A counter is recorded in the job's ledger in one
        transaction with its check, so several serve processes on one ledger (a PostgreSQL server, or one
        SQLite file on one machine) accept each tap once. The service starts once every job's keys are
        loaded and its ledger is open, prints the address it listens on (with port 0, the port it picked),
        and runs until SIGTERM or SIGINT, which finish the requests in flight and exit 0. SIGHUP reloads
        the manifests and their keys: the jobs are replaced from the next request on, or, when a manifest or
        key cannot be loaded, kept as they were, with the reason on stderr.

        Endpoints (docs/api.md; the OpenAPI 3.1 document is served at /v1/openapi.json):
          GET  /v1/verify?url=PERCENT-ENCODED-URL    POST /v1/verify {"url": "…"}
               200 {"verdict": "valid|replayed|invalid|suspicious", "counter", "job", "product"}, the verdict
               also in the Provision-Verdict header; product holds only the row fields the manifest
               lists in "public" (e.g. "public": ["sku", "lot"]); an invalid answer says nothing else
          GET  /healthz      200 when every ledger answers, else 503 with the reason
          GET  /metrics      Prometheus text format 0.0.4: verdicts, request latency, ledger errors, and
                             the line (rows by state, tags done per station, first-pass yield, tags per hour)
        Limits: a URL over \(TapURL.maximumLength) bytes 414, a body over 4096 bytes 413, a malformed request
        400, over 100 requests in a burst or 50 a second sustained from one client 429 with Retry-After
        (/healthz, /metrics and --trusted-clients are never limited; a request from a trusted client
        with X-Forwarded-For is limited as the last untrusted address in it). Connections: at most
        --max-connections open at once, at most --per-client-connections from one TCP client address, each
        closed after --connection-timeout seconds without a byte from the client; request headers over
        32 KiB are refused. A connection over the per-client limit is closed unanswered; over
        --max-connections it waits to be accepted.

        Options:
          --listen ADDRESS      tcp:HOST:PORT (port 0: any free port) or unix:PATH (a socket, mode 0660)
          --manifest FILE       a keyed or NTAG21x job to verify (repeat for several); its keys come from its
                                keys section (an owner-only file, the environment or a PKCS#11 token)
          --ledger FILE|URI     the ledger of every job, instead of each manifest's
          --max-connections N   open connections at once, all clients together (default 1024)
          --per-client-connections N
                                open connections at once from one TCP client address (default 64;
                                Unix-socket clients, a proxy, count only against --max-connections)
          --connection-timeout SECONDS
                                close a connection idle this long, mid-request too (default 10)
          --uid-burst N         answers for one genuine tag (UID) at once before a replayed one is 429
                                (default 10; each process keeps its own buckets); a valid tap is always
                                answered
          --uid-per-minute N    the rate that tag's bucket refills (default 12; 0: never)
          --counter-window N    NTAG21x jobs: the largest rise of a mirrored counter accepted
                                (default 1000, as verify-url's); a SUN counter is inside
                                the MAC and needs none (64 when no job is NTAG21x)
          --trusted-clients NETWORK,…
                                clients not rate-limited whose X-Forwarded-For is believed: ADDRESS,
                                ADDRESS/BITS or unix (default 127.0.0.0/8,::1,unix: loopback)
          --allow-root          run as root (refused without it: exit 77)
          --allow-extractable-key
                                accept a token key that is not sensitive or is extractable (65 without)
          --json                print {"version": 2, "listen", "jobs"} once listening (docs/json.md)
        \(LedgerTLS.help)

        Exit: 0 stopped by SIGTERM or SIGINT, 64 usage, 65 bad job or key, 66 missing file, key or
        ledger, 69 ledger server unreachable or the address cannot be listened on, 77 root without
        --allow-root or a key file readable by others.

        Examples:
          provision serve --listen tcp:127.0.0.1:8080 --manifest jobs/sun.json
          provision serve --listen unix:/run/provision/serve-1.sock --manifest a.json --manifest b.json \\
              --ledger 'postgresql://serve@db/line?sslmode=verify-full&sslrootcert=/etc/provision/ca.pem'
          curl -s 'http://127.0.0.1:8080/v1/verify?url=https%3A%2F%2Fe.io%2Ft%3Fp%3D…%26m%3D…'

        """

    /// `--listen`.
    var listen: HTTPListenAddress
    /// `--manifest`, once or more.
    var manifests: [String]
    /// `--ledger FILE|URI`: every job's ledger instead of its manifest's.
    var ledger: String?
    /// `--allow-root`.
    var allowRoot = false
    /// `--allow-extractable-key`.
    var allowExtractableKey = false
    /// `--insecure-ledger`.
    var insecureLedger = false
    /// `--json`.
    var json = false
    /// `--max-connections`, `--per-client-connections`, `--connection-timeout`.
    var limits = Limits()

    /// `--trusted-clients`.
    var trustedClients = TrustedClients.loopback
    /// `--counter-window N` (`nil`: not given, `MACMirrorVerifier.defaultCounterWindow`).
    var counterWindow: Int?

    /// The connection limits of the options, with their defaults.
    struct Limits: Equatable {
        var maxConnections = 1024
        var perClientConnections = 64
        var connectionTimeoutSeconds = 10
        var uidBurst = 10
        var uidPerMinute = 12
    }

    /// The `--json` document printed once listening.
    struct Document: Encodable {
        var version = JSONDocument.version
        /// The bound address (`tcp:127.0.0.1:PORT`, `unix:PATH`).
        var listen: String
        /// The jobs served.
        var jobs: [String]
    }

    static func parse(_ arguments: [String]) throws(CLIError) -> ServeCommand {
        let args = try Arguments(
            arguments, flags: ["allow-root", "allow-extractable-key", "json", LedgerTLS.flag],
            options: [
                "listen", "manifest", "ledger", "max-connections", "per-client-connections", "connection-timeout",
                "trusted-clients", "uid-burst", "uid-per-minute", "counter-window",
            ])
        try args.requirePositionals(0...0, usage: "provision serve --listen ADDRESS --manifest JOB")
        guard let text = args.value("listen") else {
            throw .usage("serve needs --listen tcp:HOST:PORT or unix:PATH", option: "listen")
        }
        let listen: HTTPListenAddress
        do {
            listen = try HTTPListenAddress(parsing: text)
        } catch {
            throw .usage("--listen: \(error)", option: "listen")
        }
        let manifests = args.all("manifest")
        guard !manifests.isEmpty else { throw .usage("serve needs at least one --manifest JOB", option: "manifest") }
        var command = ServeCommand(listen: listen, manifests: manifests, ledger: args.value("ledger"))
        command.allowRoot = args.flag("allow-root")
        command.allowExtractableKey = args.flag("allow-extractable-key")
        command.insecureLedger = args.flag(LedgerTLS.flag)
        command.json = args.flag("json")
        command.limits.maxConnections = try args.integer("max-connections", in: 1...1_000_000) ?? 1024
        command.limits.perClientConnections = try args.integer("per-client-connections", in: 1...1_000_000) ?? 64
        command.limits.connectionTimeoutSeconds = try args.integer("connection-timeout", in: 1...3600) ?? 10
        command.limits.uidBurst = try args.integer("uid-burst", in: 1...1_000_000) ?? 10
        command.limits.uidPerMinute = try args.integer("uid-per-minute", in: 0...1_000_000) ?? 12
        command.counterWindow = try args.integer("counter-window", in: 1...0xFF_FFFF)
        if let text = args.value("trusted-clients") {
            do {
                command.trustedClients = try TrustedClients(parsing: text)
            } catch {
                throw .usage("--trusted-clients: \(error)", option: "trusted-clients")
            }
        }
        return command
    }

    /// Refuses to serve as root (`euid` 0) unless `allowed`: a network service holding the jobs' keys runs as a user
    /// of its own.
    ///
    /// - Throws: `CLIError` 77 naming `--allow-root`.
    static func refuseRoot(euid: UInt32, allowed: Bool) throws(CLIError) {
        guard euid == 0, !allowed else { return }
        throw CLIError(
            .noPermission,
            "serve refuses to run as root: run it as a user of its own (docs/serve.md), or give --allow-root",
            field: "--allow-root")
    }

    func run(context: CommandContext) async throws -> ExitCode {
        try Self.refuseRoot(euid: geteuid(), allowed: allowRoot)
        let (jobs, files) = try await loadJobs(context: context)
        let service = TapService(jobs: jobs)
        let diagnostics = context.output.diagnostics
        let uidPolicy = RateLimiter.Policy(perSecond: Double(limits.uidPerMinute) / 60, burst: Double(limits.uidBurst))
        let api = ServeAPI(
            service: service, ledgerFiles: files, uidLimiter: RateLimiter(policy: uidPolicy),
            log: { diagnostics.line($0) })
        let server: HTTPServer
        do {
            var configuration = HTTPServer.Configuration()
            configuration.unlimitedPaths = ["/healthz", "/metrics"]
            configuration.maxConnections = limits.maxConnections
            configuration.maxConnectionsPerClient = limits.perClientConnections
            configuration.connectionTimeoutSeconds = limits.connectionTimeoutSeconds
            configuration.trustedClients = trustedClients
            server = try HTTPServer(
                listen: listen, configuration: configuration, immediate: api.immediate, handler: api.handle)
        } catch {
            throw CLIError(.unavailable, error.description, field: "--listen")
        }
        let names = jobs.map(\.verifier.job)
        if json {
            try context.output.document(Document(listen: server.address.description, jobs: names), pretty: false)
        } else {
            context.output.line(
                "listening on \(server.address) for job\(names.count == 1 ? "" : "s") " + names.joined(separator: ", "))
        }
        let signal = await reloadingOnHangUp(api, context: context) {
            await Interrupts.waitForTermination {
                while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            }
        }
        server.stop()
        if let signal { context.output.diagnostics.line("serve: stopped by signal \(signal)") }
        return .success
    }

    /// Every `--manifest`'s job (a keyed job's master key from its keys section, an NTAG21x job's MAC keys; its
    /// verifier, ledger and public fields), and the ledger file of each job whose ledger is a file (`/healthz`
    /// checks it is still there).
    func loadJobs(context: CommandContext) async throws(CLIError) -> ([TapServiceJob], [String: String]) {
        let contexts = try checkedManifests(context: context)
        var jobs: [TapServiceJob] = []
        var files: [String: String] = [:]
        for (path, var job) in contexts {
            var served: TapServiceJob
            if let keyed = job.manifest.keyed, Self.isKeyed(job) {
                let master = try VerifyURLCommand.masterKey(
                    keyed.options.masterKeyID, keys: [], job: job, context: context,
                    allowExtractable: allowExtractableKey)
                served = try await VerifyURLCommand.tapServiceJob(
                    job, master: master, station: "serve", insecureLedger: insecureLedger, context: context)
            } else {
                let custody = context.keyCustody(allowExtractable: allowExtractableKey)
                try job.loadKeys(environment: context.environment, custody: custody)
                served = try await VerifyURLCommand.macMirrorServiceJob(
                    job, counterWindow: counterWindow ?? MACMirrorVerifier.defaultCounterWindow,
                    revealsUnknownUIDs: false, station: "serve", insecureLedger: insecureLedger, context: context)
            }
            served.publicFields = job.manifest.publicFields.map(\.name)
            // A tap's answer waits for its counter's sync, never for a checkpoint on the same queue.
            if let file = served.ledger as? Ledger {
                do {
                    try await file.checkpointInBackground()
                } catch {
                    throw CLIError(.ioError, "ledger \(file.path): \(error.message)", file: path)
                }
            }
            jobs.append(served)
            files[job.manifest.job] = job.manifest.ledger.fileURL?.path
        }
        return (jobs, files)
    }

    /// Every `--manifest` read and checked before any key or ledger is opened (a refusal opens nothing): public
    /// fields, a job given twice, `--counter-window` without an NTAG21x job.
    private func checkedManifests(context: CommandContext) throws(CLIError) -> [(String, JobContext)] {
        var contexts: [(String, JobContext)] = []
        for path in manifests {
            let job = try JobContext.load(path, context: context, ledger: ledger)
            do {
                try job.manifest.checkPublicFields()
            } catch {
                throw ErrorTable.cliError(error, message: error.description)
            }
            guard !contexts.contains(where: { $0.1.manifest.job == job.manifest.job }) else {
                throw CLIError(.dataError, "job \(job.manifest.job) is given twice", file: path)
            }
            contexts.append((path, job))
        }
        if counterWindow != nil, contexts.allSatisfy({ Self.isKeyed($0.1) }) {
            throw .usage(
                "--counter-window is for NTAG21x counter mirrors, and no job given is one (a SUN counter is inside "
                    + "the MAC, so every rise is accepted)", option: "counter-window")
        }
        return contexts
    }

    /// Whether a job's taps carry a keyed dynamic message (SUN), not an NTAG21x MAC mirror.
    private static func isKeyed(_ job: JobContext) -> Bool {
        job.manifest.keyed != nil && job.manifest.dynamicMessage != nil
    }
}
