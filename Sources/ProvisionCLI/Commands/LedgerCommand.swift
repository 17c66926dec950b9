import Foundation
import Ledger

/// `provision ledger migrate`: brings a PostgreSQL ledger to this build's schema, explicitly, once per server.
struct LedgerCommand: Command {
    static let name = "ledger"
    static let summary = "ledger server tools: create or upgrade a PostgreSQL ledger's schema (ledger migrate)"
    static let help = """
        Usage: provision ledger migrate MANIFEST [--ledger URI] [--json]
               provision ledger migrate --ledger URI [--json]

        Creates the tables of a PostgreSQL ledger, or upgrades them to the schema this provision knows,
        in one transaction (two migrations at once run one after the other). Stations never migrate a
        shared ledger themselves: a station whose server has an older or a newer schema is refused with
        a message naming both versions, so upgrade every station's provision, then migrate once.
        A SQLite ledger file needs no migrate: it is upgraded when a command opens it.

        The connection string is a libpq URI or key=value string without a password (PGPASSWORD or
        ~/.pgpass hold it); the role needs CREATE on the database (docs/stations.md, "Roles").

        Options:
          --ledger URI     the server (instead of the MANIFEST's "ledger")
          --json           print {"version": 1, "ledger", "from", "to"}

        Exit codes: 0 migrated or already current, 64 usage (not a server ledger), 65 bad manifest,
        66 missing manifest, 69 server unreachable, 73 the server's schema is newer than this provision,
        74 other server errors.

        Example: provision ledger migrate --ledger 'postgresql://ledger.line.local/provision'

        """

    /// The manifest naming the ledger, if any.
    var manifest: String?
    /// `--ledger URI`.
    var ledger: String?
    /// `--json`.
    var json = false

    /// The `--json` result document (version 1).
    struct Document: Encodable, Sendable {
        var version = 1
        var ledger: String
        var from: Int
        var to: Int
    }

    static func parse(_ arguments: [String]) throws(CLIError) -> LedgerCommand {
        let args = try Arguments(arguments, flags: ["json"], options: ["ledger"])
        try args.requirePositionals(1...2, usage: "provision ledger migrate [MANIFEST] [--ledger URI]")
        guard args.positionals[0] == "migrate" else {
            throw .usage("unknown ledger subcommand '\(args.positionals[0])'; the one there is: migrate")
        }
        let manifest = args.positionals.count > 1 ? args.positionals[1] : nil
        if manifest == nil, args.value("ledger") == nil {
            throw .usage("give a MANIFEST or --ledger URI", option: "ledger")
        }
        return LedgerCommand(manifest: manifest, ledger: args.value("ledger"), json: args.flag("json"))
    }

    func run(context: CommandContext) async throws -> ExitCode {
        let job = try manifest.map { path throws(CLIError) in try JobContext.load(path, context: context) }
        let location = try LedgerChoice(ledger: ledger).location(for: job?.manifest, context: context)
        guard case .server(let conninfo) = location else {
            throw CLIError.usage(
                "ledger \(location) is a SQLite file: it is upgraded when opened, only a server ledger is migrated",
                option: "ledger")
        }
        let versions: (from: Int, to: Int)
        do {
            versions = try await PostgresLedger.migrate(conninfo: conninfo.text)
        } catch  where error.code == .cannotOpen {
            throw CLIError(.unavailable, "ledger server: \(error.message)")
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
