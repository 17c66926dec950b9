/// Schema migrations, numbered by `PRAGMA user_version` (migration *n* brings the file to version *n*).
extension Ledger {
    /// The migrations in order (`SchemaSteps`, SQLite's spelling).
    static let migrations = SchemaSteps.migrations(.sqlite)

    /// The schema version this build writes.
    public static var schemaVersion: Int { migrations.count }

    /// The schema version of the ledger file at `path`, read without opening a `Ledger` (which would
    /// migrate it, or refuse it read-only).
    public static func storedSchemaVersion(path: String) throws(LedgerError) -> Int {
        let connection = try SQLiteConnection(path: path, readOnly: true, busyTimeoutMilliseconds: 5_000)
        return try connection.queryFirst("PRAGMA user_version") { $0.int(0) } ?? 0
    }

    /// The file's `PRAGMA user_version`.
    func storedVersion() throws(LedgerError) -> Int {
        try connection.queryFirst("PRAGMA user_version") { $0.int(0) } ?? 0
    }

    /// Applies every migration newer than the file, in one `BEGIN IMMEDIATE` transaction.
    func migrate() throws(LedgerError) {
        try connection.transaction(.immediate) { () throws(LedgerError) in
            let stored = try storedVersion()
            guard stored <= Self.schemaVersion else { throw tooNew(stored) }
            for version in stored..<Self.schemaVersion {
                try connection.execute(Self.migrations[version])
                // PRAGMA takes no parameters; the value is this build's own constant.
                try connection.execute("PRAGMA user_version = \(version + 1)")
            }
        }
    }

    /// Refuses a file that is not at this build's version (read-only opens cannot migrate).
    func checkVersion() throws(LedgerError) {
        let stored = try storedVersion()
        guard stored <= Self.schemaVersion else { throw tooNew(stored) }
        guard stored == Self.schemaVersion else {
            throw LedgerError(
                .schemaTooOld,
                "ledger \(path) has schema version \(stored), older than \(Self.schemaVersion) (a read-only open "
                    + "does not upgrade it)", resultCode: .readOnly)
        }
    }

    private func tooNew(_ stored: Int) -> LedgerError {
        LedgerError(
            .schemaTooNew,
            "ledger \(path) has schema version \(stored), newer than \(Self.schemaVersion): use a newer provision")
    }
}
