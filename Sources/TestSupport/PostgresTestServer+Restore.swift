/// Loading a committed plain-SQL dump (`pg_dump --no-owner --no-privileges`) into a test database.
extension PostgresTestServer {
    /// Runs the SQL file at `path` with psql on `conninfo`, stopping at the first error.
    ///
    /// - Throws: `HarnessError` with psql's message when a statement fails.
    public func restore(_ conninfo: String, from path: String) throws {
        _ = try Self.run(binaries + "/psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-f", path, conninfo])
    }
}
