import Foundation
import Ledger
import Reports

/// `provision ledger migrate` and `ledger copy`: brings a PostgreSQL ledger to this build's schema, explicitly,
/// once per server; moves jobs from a SQLite ledger to a server when a line outgrows one station.
struct LedgerCommand: Command {
    static let name = "ledger"
    static let summary =
        "ledger server tools: create or upgrade a PostgreSQL ledger's schema and roles (ledger migrate), bind a "
        + "login to a role (ledger grant), move jobs from a SQLite ledger to it (ledger copy)"
    static let help = """
        Usage: provision ledger migrate MANIFEST [--ledger URI] [--role-prefix P] [--json]
               provision ledger migrate --ledger URI [--role-prefix P] [--json]
               provision ledger grant station|verifier|supervisor|publisher LOGIN [--stations A,B] [--ledger URI]
                                      [--json]
               provision ledger copy --from FILE --to URI [--job NAME] [--json]

        migrate: creates the tables of a PostgreSQL ledger, or upgrades them to the schema this provision
        knows, in one transaction (two migrations at once run one after the other). Stations never migrate
        a shared ledger themselves: a station whose server has an older or a newer schema is refused with
        a message naming both versions, so upgrade every station's provision, then migrate once.
        A SQLite ledger file needs no migrate: it is upgraded when a command opens it. migrate also creates
        the server-wide group roles provision_station, provision_verifier, provision_supervisor and
        provision_publisher (NOLOGIN; --role-prefix P names them P_station, … for several ledgers on one
        server, recorded in the ledger), which needs CREATEROLE, and their grants and checks in the ledger's
        database. A publisher reads the outbox of tag events and may only mark them published
        (docs/events.md).

        grant: makes an existing login a member of one of those roles (run it as the ledger's owner or a
        superuser; it never creates logins or handles passwords). A station login may act only as the
        station names --stations gives (default: the name equal to the login); a new grant replaces them.

        copy: moves every job of a SQLite ledger file (or only --job NAME), its history included, to a
        migrated server, when a line outgrows one station: rows (a claimed row stays claimed by its UID:
        present that tag at a station of the server to finish it), attempts, events, counters, the key
        journal and SUN counters, in one server transaction per job. Attempt and event ids are renumbered
        in their order; a copied attempt's station is the STATION of its reader name STATION/READER, else
        "copied". A job the server already has, or a UID done in the job that the server has done in
        another job, is refused before anything is written. Every copied row is then compared with the
        file, column by column. Stop the station that uses the file first; the file is only read.

        The connection string is a libpq URI or key=value string without a password (PGPASSWORD or
        ~/.pgpass hold it); migrate needs a role with CREATE on the database (docs/stations.md, "Roles").

        Options:
          --ledger URI     migrate: the server (instead of the MANIFEST's "ledger")
          --from FILE      copy: the SQLite ledger file (e.g. reports/batch/ledger.sqlite)
          --to URI         copy: the migrated server
          --job NAME       copy: only this job (default: every job of the file)
          --role-prefix P  migrate: name the group roles P_station, P_verifier, P_supervisor, P_publisher
                           (lower-case letters, digits, '_'; default provision)
          --stations A,B   grant station: the station names the login may use (default: LOGIN)
          --json           migrate: print {"version": 2, "ledger", "from", "to"}; grant: print {"version": 2,
                           "ledger", "role", "group", "login", "stations"}; copy: print
                           {"version": 2, "jobs": [{"job", "rows", "attempts", "events", "key_changes",
                           "sun_counters", "counters"}], "verified": true}
        \(LedgerTLS.help)

        Exit codes: 0 migrated or already current, or copied and verified; 64 usage (not a server ledger,
        a --from that is not a file); 65 bad manifest, or a copy refused (job already on the server, a UID
        done in another job, no such job, a --role-prefix other than the recorded one); 66 missing manifest;
        69 server unreachable; 73 the server's schema is newer than this provision, or not migrated (copy,
        grant); 74 a copy that does not verify, other server errors; 77 not permitted (migrate without
        CREATEROLE while the group roles are missing, grant by a role that may not grant them).

        Examples: LEDGER='postgresql://ledger.line.local/provision?sslmode=verify-full&sslrootcert=line-ca.pem'
                  provision ledger migrate --ledger "$LEDGER"
                  provision ledger grant station bench_1 --stations s1,s2 --ledger "$LEDGER"
                  provision ledger copy --from reports/batch/ledger.sqlite --to "$LEDGER"

        """

    /// What `ledger` is asked to do.
    enum Action: Sendable, Hashable {
        /// `migrate [MANIFEST] [--ledger URI] [--role-prefix P]`.
        case migrate(manifest: String?, ledger: String?, rolePrefix: String?)
        /// `grant station|verifier|supervisor|publisher LOGIN [--stations A,B] [--ledger URI]`.
        case grant(group: PostgresRoles.Group, login: String, stations: [String], ledger: String?)
        /// `copy --from FILE --to URI [--job NAME]`.
        case copy(from: String, to: PostgresConnInfo, job: String?)
    }

    /// The subcommand and its arguments.
    var action: Action
    /// `--json`.
    var json = false
    /// `--insecure-ledger`: a ledger server over TCP without a verified certificate (`LedgerTLS`).
    var insecureLedger = false

    /// The `--json` result document of `migrate` (docs/json.md, version 2).
    struct Document: Encodable, Sendable {
        var version = JSONDocument.version
        var ledger: String
        var from: Int
        var to: Int
    }

    static func parse(_ arguments: [String]) throws(CLIError) -> LedgerCommand {
        let args = try Arguments(
            arguments, flags: ["json", LedgerTLS.flag],
            options: ["ledger", "from", "to", "job", "role-prefix", "stations"])
        let insecure = args.flag(LedgerTLS.flag)
        switch args.positionals.first {
        case "migrate":
            try args.requirePositionals(1...2, usage: "provision ledger migrate [MANIFEST] [--ledger URI]")
            for option in ["from", "to", "job", "stations"] where args.value(option) != nil {
                throw .usage("--\(option) does not belong to provision ledger migrate", option: option)
            }
            let rolePrefix = args.value("role-prefix")
            if let rolePrefix, !PostgresRoles.isValidPrefix(rolePrefix) {
                throw .usage(
                    "--role-prefix must be 1 to 40 lower-case letters, digits or '_', not starting with a digit",
                    option: "role-prefix")
            }
            let manifest = args.positionals.count > 1 ? args.positionals[1] : nil
            if manifest == nil, args.value("ledger") == nil {
                throw .usage("give a MANIFEST or --ledger URI", option: "ledger")
            }
            return LedgerCommand(
                action: .migrate(manifest: manifest, ledger: args.value("ledger"), rolePrefix: rolePrefix),
                json: args.flag("json"),
                insecureLedger: insecure)
        case "copy":
            return LedgerCommand(action: try parseCopy(args), json: args.flag("json"), insecureLedger: insecure)
        case "grant":
            return LedgerCommand(action: try parseGrant(args), json: args.flag("json"), insecureLedger: insecure)
        case let other:
            throw .usage(
                other.map { "unknown ledger subcommand '\($0)'; the ones there are: migrate, grant, copy" }
                    ?? "missing subcommand; usage: provision ledger migrate|grant|copy …")
        }
    }

    /// `copy --from FILE --to URI [--job NAME]`.
    private static func parseCopy(_ args: Arguments) throws(CLIError) -> Action {
        let usage = "provision ledger copy --from FILE --to URI [--job NAME]"
        try args.requirePositionals(1...1, usage: usage)
        if args.value("ledger") != nil {
            throw .usage("ledger copy reads --from FILE and writes --to URI; it takes no --ledger", option: "ledger")
        }
        for option in ["role-prefix", "stations"] where args.value(option) != nil {
            throw .usage("--\(option) does not belong to provision ledger copy", option: option)
        }
        guard let from = args.value("from"), !from.isEmpty else {
            throw .usage("missing --from FILE; usage: \(usage)", option: "from")
        }
        guard !PostgresConnInfo.isConnInfo(from) else {
            throw .usage("--from must be a SQLite ledger file; the server goes in --to", option: "from")
        }
        guard let text = args.value("to"), !text.isEmpty else {
            throw .usage("missing --to URI; usage: \(usage)", option: "to")
        }
        guard PostgresConnInfo.isConnInfo(text) else {
            throw .usage(
                "--to must be a PostgreSQL server (postgresql://host/db or a libpq key=value string)", option: "to")
        }
        let to: PostgresConnInfo
        do { to = try PostgresConnInfo(text) } catch { throw .usage("--to: \(error.message)", option: "to") }
        if let job = args.value("job"), job.isEmpty { throw .usage("--job needs a job name", option: "job") }
        return .copy(from: from, to: to, job: args.value("job"))
    }

    func run(context: CommandContext) async throws -> ExitCode {
        switch action {
        case .migrate(let manifest, let ledger, let rolePrefix):
            try await migrate(manifest: manifest, ledger: ledger, rolePrefix: rolePrefix, context: context)
        case .grant(let group, let login, let stations, let ledger):
            try await grant(group: group, login: login, stations: stations, ledger: ledger, context: context)
        case .copy(let from, let to, let job): try await copy(from: from, to: to, job: job, context: context)
        }
    }

    /// Runs `migrate`.
    private func migrate(
        manifest: String?, ledger: String?, rolePrefix: String?, context: CommandContext
    ) async throws -> ExitCode {
        let job = try manifest.map { path throws(CLIError) in try JobContext.load(path, context: context) }
        let location = try LedgerChoice(ledger: ledger).location(for: job?.manifest, context: context)
        guard case .server(let conninfo) = location else {
            throw CLIError.usage(
                "ledger \(location) is a SQLite file: it is upgraded when opened, only a server ledger is migrated",
                option: "ledger")
        }
        try LedgerTLS(allowInsecure: insecureLedger).check(conninfo, warnings: context.err)
        let versions: (from: Int, to: Int)
        do {
            versions = try await PostgresLedger.migrate(conninfo: conninfo.text, rolePrefix: rolePrefix)
        } catch  where error.code == .cannotOpen {
            throw ErrorTable.cliError(LedgerServerUnreachable(error.message))
        } catch  where error.code == .readOnly {
            throw CLIError(.noPermission, "ledger: \(error.message)")
        } catch {
            throw JobContext.cliError(error)
        }
        if json {
            try context.output.document(Document(ledger: conninfo.redacted, from: versions.from, to: versions.to))
        } else if versions.from == versions.to {
            context.output.line("ledger \(conninfo.redacted) is at schema version \(versions.to): nothing to do")
        } else {
            context.output.line(
                "ledger \(conninfo.redacted) migrated from schema version \(versions.from) to \(versions.to)")
        }
        return .success
    }
}
