/// PostgreSQL schema migrations, explicit and versioned: `provision ledger migrate` runs them, a station only
/// checks the version (`ledger_schema.version`; migration *n* brings the database to version *n*).
extension PostgresLedger {
    /// The migrations in order (`SchemaSteps`, PostgreSQL's spelling): version 1 holds what SQLite's versions 1–8
    /// built, plus what several stations need.
    static let migrations = SchemaSteps.migrations(.postgres)

    /// The schema version this build reads and writes.
    public static var schemaVersion: Int { migrations.count }

    /// Brings the database at `conninfo` to this build's schema version, in one transaction that holds an
    /// advisory lock (two migrations at once run one after the other).
    ///
    /// `rolePrefix` names the group roles (`PostgresRoles`) when version 4 is first applied; `nil` keeps the
    /// recorded prefix (`provision` for a new ledger).
    ///
    /// - Returns: the versions before and after.
    /// - Throws: `.schemaTooNew` for a database newer than this build; `.invalidState` for a `rolePrefix` other
    ///   than the one recorded; `.readOnly` when the group roles are missing and the login may not create them;
    ///   connection errors as `open`.
    public static func migrate(conninfo: String, rolePrefix: String? = nil) async throws(LedgerError)
        -> (from: Int, to: Int)
    {
        let connection = try PostgresConnection(
            conninfo: try PostgresConnInfo(conninfo).text, applicationName: "provision ledger migrate",
            location: conninfo)
        return try connection.transaction(.immediate) { () throws(LedgerError) -> (from: Int, to: Int) in
            try connection.execute("SELECT pg_advisory_xact_lock(hashtext('provision ledger migrate'))")
            let stored = try storedVersion(connection)
            guard stored <= schemaVersion else { throw tooNew(stored, location: conninfo) }
            if let rolePrefix {
                try checkRolePrefix(rolePrefix, connection, stored: stored, location: conninfo)
                _ = try connection.query(
                    "SELECT set_config(?, ?, true)",
                    [
                        .text(PostgresRoles.prefixSetting), .text(rolePrefix),
                    ]
                ) { _ in 0 }
            }
            for version in stored..<schemaVersion {
                try connection.execute(migrations[version])
                try connection.run("UPDATE ledger_schema SET version = ?", [.int(version + 1)])
            }
            return (stored, schemaVersion)
        }
    }

    /// Refuses `prefix` on a ledger whose roles were named with another one (a ledger's roles keep their names).
    private static func checkRolePrefix(
        _ prefix: String, _ connection: PostgresConnection, stored: Int, location: String
    ) throws(LedgerError) {
        guard stored >= PostgresRoles.version else { return }
        let recorded = try connection.queryFirst("SELECT role_prefix FROM ledger_settings", []) { $0.text(0) }
        guard let recorded, recorded != prefix else { return }
        throw LedgerError(
            .invalidState,
            "ledger \(location) names its roles with the prefix \(recorded), not \(prefix): a ledger's roles keep "
                + "their names (leave out --role-prefix, or give --role-prefix \(recorded))")
    }

    /// The stored schema version, 0 for a database without the ledger's tables.
    static func storedVersion(_ connection: PostgresConnection) throws(LedgerError) -> Int {
        let exists = try connection.queryFirst("SELECT to_regclass('ledger_schema') IS NOT NULL", []) { $0.int(0) }
        guard exists == 1 else { return 0 }
        return try connection.queryFirst("SELECT version FROM ledger_schema", []) { $0.int(0) } ?? 0
    }

    /// Refuses a database not at this build's version.
    func checkVersion() throws(LedgerError) {
        let stored = try Self.storedVersion(connection)
        guard stored <= Self.schemaVersion else { throw Self.tooNew(stored, location: location) }
        guard stored == Self.schemaVersion else {
            throw LedgerError(
                .schemaTooOld,
                "ledger \(location) has schema version \(stored), older than \(Self.schemaVersion) that this "
                    + "provision knows: run provision ledger migrate --ledger '\(location)' (stations never "
                    + "migrate a shared ledger themselves)")
        }
    }

    static func tooNew(_ stored: Int, location: String) -> LedgerError {
        LedgerError(
            .schemaTooNew,
            "ledger \(location) has schema version \(stored), newer than \(schemaVersion) that this provision "
                + "knows: use a newer provision on this station")
    }
}
