import Foundation

/// Where a job's ledger lives: a SQLite file (one station, the default) or a PostgreSQL server (a line of
/// stations), as `--ledger` or a manifest's `ledger` names it.
public enum LedgerLocation: Sendable, Hashable, CustomStringConvertible {
    /// A SQLite file.
    case file(URL)
    /// A PostgreSQL database, by a libpq connection string or URI that carries no password.
    case server(PostgresConnInfo)

    /// Reads `text`: a `postgresql://` URI or `key=value` connection string names a server, anything else
    /// a file (relative paths against `base`).
    ///
    /// - Throws: `.cannotOpen` for a connection string that does not parse or carries a password.
    public init(_ text: String, relativeTo base: URL) throws(LedgerError) {
        if PostgresConnInfo.isConnInfo(text) {
            self = .server(try PostgresConnInfo(text))
        } else {
            let url = text.hasPrefix("/") ? URL(fileURLWithPath: text) : base.appendingPathComponent(text)
            self = .file(url.standardizedFileURL)
        }
    }

    /// The file, for a SQLite ledger.
    public var fileURL: URL? {
        if case .file(let url) = self { url } else { nil }
    }

    /// The path or the connection string (never a password: a connection string cannot carry one).
    public var description: String {
        switch self {
        case .file(let url): url.path
        case .server(let conninfo): conninfo.redacted
        }
    }
}
