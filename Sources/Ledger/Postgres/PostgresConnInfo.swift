internal import CPostgres

/// A libpq connection string or URI that names a PostgreSQL ledger, checked to carry no password.
///
/// Passwords come only from `PGPASSWORD` or `~/.pgpass` (docs/stations.md), so the text is safe to show in
/// logs, reports and errors as it is.
public struct PostgresConnInfo: Sendable, Hashable, CustomStringConvertible {
    /// The connection string as given.
    public let text: String

    /// Checks `text` parses and carries no password.
    ///
    /// The corresponding C function is `PQconninfoParse`.
    /// - Throws: `.cannotOpen` naming the problem (never echoing the text, which might hold a password).
    public init(_ text: String) throws(LedgerError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(text, &errorMessage) else {
            let reason = errorMessage.map { String(cString: $0) } ?? "out of memory"
            if let errorMessage { PQfreemem(errorMessage) }
            throw LedgerError(.cannotOpen, "the ledger is not a valid libpq connection string or URI: \(reason)")
        }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "password", let value = option.pointee.val, value.pointee != 0 {
                throw LedgerError(
                    .cannotOpen,
                    "the ledger's connection string carries a password: remove it and set PGPASSWORD or use "
                        + "~/.pgpass (a password in a manifest or an argument ends up in logs and process lists)")
            }
            option += 1
        }
        self.text = text
    }

    /// Whether `ledger` names a PostgreSQL ledger (a `postgresql://` or `postgres://` URI, or a `key=value`
    /// connection string) rather than a SQLite file.
    public static func isConnInfo(_ ledger: String) -> Bool {
        if ledger.hasPrefix("postgresql://") || ledger.hasPrefix("postgres://") { return true }
        guard let equals = ledger.firstIndex(of: "=") else { return false }
        return !ledger[..<equals].isEmpty && ledger[..<equals].allSatisfy { $0.isLetter || $0 == "_" }
    }

    /// The text, safe to show (it carries no password).
    public var redacted: String { text }
    public var description: String { text }
}
