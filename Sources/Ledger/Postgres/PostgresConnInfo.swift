internal import CPostgres

/// A libpq connection string or URI that names a PostgreSQL ledger, checked to carry no password.
///
/// Passwords come only from `PGPASSWORD` or `~/.pgpass`, and a client key's passphrase (`sslpassword`) is refused
/// too (docs/stations.md), so the text is safe to show in logs, reports and errors as it is.
public struct PostgresConnInfo: Sendable, Hashable, CustomStringConvertible {
    /// The connection string as given.
    public let text: String
    /// The settings libpq reads from `text` (keyword to value; settings the text leaves out are absent).
    let settings: [String: String]

    /// Checks `text` parses and carries no password.
    ///
    /// The corresponding C function is `PQconninfoParse`.
    /// - Throws: `.cannotOpen` naming the problem (never echoing the text, which might hold a password).
    public init(_ text: String) throws(LedgerError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(text, &errorMessage) else {
            let reason = errorMessage.map { String(cString: $0) } ?? "out of memory"
            if let errorMessage { PQfreemem(errorMessage) }
            throw LedgerError(
                .cannotOpen,
                "the ledger is not a valid libpq connection string or URI: \(Self.parseProblem(reason, in: text))")
        }
        defer { PQconninfoFree(options) }
        var settings: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { settings[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        if settings["password", default: ""] != "" {
            throw LedgerError(
                .cannotOpen,
                "the ledger's connection string carries a password: remove it and set PGPASSWORD or use "
                    + "~/.pgpass (a password in a manifest or an argument ends up in logs and process lists)")
        }
        if settings["sslpassword", default: ""] != "" {
            throw LedgerError(
                .cannotOpen,
                "the ledger's connection string carries an sslpassword (a client key's passphrase): remove it and "
                    + "keep the client key unencrypted and owner-only (chmod 600), as ~/.postgresql/postgresql.key "
                    + "(a secret in a manifest or an argument ends up in logs and process lists)")
        }
        self.text = text
        self.settings = settings
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
