/// `provision ledger grant`: binds an existing login to one of the ledger's group roles (`PostgresRoles`), and a
/// station login to the station names it may use. Logins and their passwords stay the operator's.
extension PostgresLedger {
    /// What a grant did, or why it could not.
    public enum GrantOutcome: Sendable, Hashable {
        /// `login` is now a member of `group`; a station login may use `stations` (and no others).
        case granted(group: String, stations: [String])
        /// There is no role named `login` on the server.
        case noSuchLogin
        /// The role named `login` exists but may not log in (a group).
        case notALogin
    }

    /// Makes `login` a member of the ledger's `group`; for a station, `stations` replaces the names it may use.
    ///
    /// Runs as the ledger's owner (with CREATEROLE) or a superuser, in one transaction.
    /// - Throws: `.schemaTooOld` / `.schemaTooNew` for a ledger not at this build's version; `.readOnly` when the
    ///   connecting role may not grant the group or write `station_logins`; connection errors as `open`.
    public static func grant(
        conninfo: String, group: PostgresRoles.Group, login: String, stations: [String]
    ) async throws(LedgerError) -> GrantOutcome {
        let connection = try PostgresConnection(
            conninfo: try PostgresConnInfo(conninfo).text, applicationName: "provision ledger grant",
            location: conninfo)
        return try connection.transaction(.immediate) { () throws(LedgerError) -> GrantOutcome in
            let stored = try storedVersion(connection)
            guard stored == schemaVersion else {
                guard stored < schemaVersion else { throw tooNew(stored, location: conninfo) }
                throw LedgerError(
                    .schemaTooOld,
                    "ledger \(conninfo) has schema version \(stored), older than \(schemaVersion) that this "
                        + "provision knows: run provision ledger migrate --ledger '\(conninfo)' first")
            }
            let canLogin = try connection.queryFirst(
                "SELECT rolcanlogin FROM pg_roles WHERE rolname = ?", [.text(login)]
            ) { $0.text(0) }
            guard let canLogin else { return .noSuchLogin }
            guard canLogin == "t" else { return .notALogin }
            let role = try connection.queryFirst("SELECT provision_role(?)", [.text(group.rawValue)]) { $0.text(0) }
            guard let role else { throw LedgerError(.invalidData, "ledger \(conninfo) has no ledger_settings row") }
            let statement = try connection.queryFirst(
                "SELECT format('GRANT %I TO %I', ?::text, ?::text)", [.text(role), .text(login)]
            ) { $0.text(0) }
            try connection.execute(statement ?? "")
            guard group == .station else { return .granted(group: role, stations: []) }
            try connection.run("DELETE FROM station_logins WHERE login = ?", [.text(login)])
            for station in stations {
                try connection.run(
                    "INSERT INTO station_logins (login, station) VALUES (?, ?)", [.text(login), .text(station)])
            }
            return .granted(group: role, stations: stations)
        }
    }
}
