internal import CPostgres

/// Facts about the linked libpq, for `provision --version`.
public enum PostgresLibrary {
    /// libpq's version, e.g. `15.18`: `PQlibVersion` gives major × 10000 + minor (since PostgreSQL 10).
    public static var version: String {
        let number = Int(PQlibVersion())
        return "\(number / 10000).\(number % 10000)"
    }
}
