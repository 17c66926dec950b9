import Foundation
import Ledger
import Reports

/// `provision ledger grant`: binds an existing server login to one of the ledger's group roles, and a station
/// login to the station names it may use (docs/stations.md, "Roles"). It never creates logins or handles passwords.
extension LedgerCommand {
    /// The `--json` result document of `grant` (docs/json.md, version 2).
    struct GrantDocument: Encodable, Sendable {
        var version = JSONDocument.version
        var ledger: String
        /// `station`, `verifier`, `supervisor` or `publisher`.
        var role: String
        /// The group role the login is now a member of (`provision_station`).
        var group: String
        var login: String
        /// The station names a station login may use (empty for the other roles).
        var stations: [String]
    }

    static let grantUsage =
        "provision ledger grant station|verifier|supervisor|publisher LOGIN [--stations A,B] [--ledger URI]"

    /// `grant station|verifier|supervisor|publisher LOGIN [--stations A,B] [--ledger URI]`.
    static func parseGrant(_ args: Arguments) throws(CLIError) -> Action {
        try args.requirePositionals(3...3, usage: grantUsage)
        for option in ["from", "to", "job", "role-prefix"] where args.value(option) != nil {
            throw .usage("--\(option) does not belong to provision ledger grant", option: option)
        }
        guard let group = PostgresRoles.Group(rawValue: args.positionals[1]) else {
            throw .usage(
                "unknown role '\(args.positionals[1])'; the roles are station, verifier, supervisor, publisher")
        }
        let login = args.positionals[2]
        guard !login.isEmpty, login.utf8.count <= 63 else {
            throw .usage("LOGIN must be a server role name of 1 to 63 bytes; usage: \(grantUsage)")
        }
        var stations = [login]
        if let list = args.value("stations") {
            guard group == .station else {
                throw .usage("--stations binds station logins only, not a \(group.rawValue)", option: "stations")
            }
            stations = []
            for name in list.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            where !stations.contains(name) {
                stations.append(name)
            }
        }
        if group == .station {
            for name in stations where name.wholeMatch(of: #/[A-Za-z0-9._-]{1,64}/#) == nil {
                throw .usage(
                    "station name '\(name)' is not 1 to 64 letters, digits, '.', '_' or '-'",
                    option: args.value("stations") == nil ? nil : "stations")
            }
        }
        return .grant(
            group: group, login: login, stations: group == .station ? stations : [], ledger: args.value("ledger"))
    }

    /// Runs `grant`.
    func grant(
        group: PostgresRoles.Group, login: String, stations: [String], ledger: String?, context: CommandContext
    ) async throws -> ExitCode {
        let location = try LedgerChoice(ledger: ledger).location(for: nil, context: context)
        guard case .server(let conninfo) = location else {
            throw CLIError.usage(
                "ledger \(location) is a SQLite file: only a server ledger has roles", option: "ledger")
        }
        try LedgerTLS(allowInsecure: insecureLedger).check(conninfo, warnings: context.err)
        let outcome: PostgresLedger.GrantOutcome
        do {
            outcome = try await PostgresLedger.grant(
                conninfo: conninfo.text, group: group, login: login, stations: stations)
        } catch  where error.code == .cannotOpen {
            throw ErrorTable.cliError(LedgerServerUnreachable(error.message))
        } catch  where error.code == .readOnly {
            throw CLIError(
                .noPermission,
                "ledger: \(error.message); run provision ledger grant as the ledger's owner (with CREATEROLE) or a "
                    + "superuser")
        } catch {
            throw JobContext.cliError(error)
        }
        switch outcome {
        case .noSuchLogin:
            throw CLIError.usage(
                "there is no role \(login) on the server of ledger \(conninfo.redacted): create the login first "
                    + "(e.g. CREATE ROLE \(login) LOGIN, with a password or certificate set your way: provision "
                    + "never handles passwords), then run provision ledger grant again")
        case .notALogin:
            throw CLIError.usage(
                "role \(login) may not log in (a group?): grant the ledger's roles to a login role "
                    + "(ALTER ROLE \(login) LOGIN, or another role)")
        case .granted(let role, let bound):
            if json {
                try context.output.document(
                    GrantDocument(
                        ledger: conninfo.redacted, role: group.rawValue, group: role, login: login, stations: bound))
            } else if group == .station {
                context.output.line(
                    "login \(login) is a member of \(role) and may act as station "
                        + bound.joined(separator: ", ") + " on ledger \(conninfo.redacted)")
            } else {
                context.output.line("login \(login) is a member of \(role) on ledger \(conninfo.redacted)")
            }
            return .success
        }
    }
}
