/// How a connection to a PostgreSQL ledger travels, as its connection string (and libpq's `PG…` environment
/// variables) decide: a Unix socket on this machine, or TCP with or without a verified server certificate.
public enum PostgresTransport: Sendable, Hashable {
    /// Every host is a Unix socket folder (`/…`, `@…`) or none is given (libpq's default socket).
    case unixSocket
    /// TCP with `sslmode=verify-full`, or `verify-ca` with a pinned CA (`sslrootcert`).
    case verifiedTLS
    /// TCP without a verified server: `sslmode` is what libpq will use (`prefer` when none is set).
    case unverifiedTCP(sslmode: String)
}

extension PostgresConnInfo {
    /// Whether `text` is a `postgresql://` (or `postgres://`) URI rather than a `key=value` string.
    public static func isURI(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// How a connection travels: libpq's `PGHOST`, `PGHOSTADDR`, `PGSSLMODE` and `PGSSLROOTCERT` in `environment`
    /// stand in for settings the text leaves out, as libpq reads them.
    ///
    /// A `service` (from `pg_service.conf`) with no host in the text may name a remote server, so it counts as TCP.
    public func transport(environment: [String: String]) -> PostgresTransport {
        func setting(_ keyword: String, _ variable: String) -> String {
            settings[keyword].flatMap { $0.isEmpty ? nil : $0 } ?? environment[variable] ?? ""
        }
        let hosts = setting("host", "PGHOST").split(separator: ",", omittingEmptySubsequences: false)
        let addresses = setting("hostaddr", "PGHOSTADDR").split(separator: ",")
        let service = setting("service", "PGSERVICE")
        let namesTCPHost = hosts.contains { !$0.isEmpty && !$0.hasPrefix("/") && !$0.hasPrefix("@") }
        let tcp =
            namesTCPHost || addresses.contains { !$0.isEmpty } || (hosts.allSatisfy(\.isEmpty) && !service.isEmpty)
        guard tcp else { return .unixSocket }
        let mode = setting("sslmode", "PGSSLMODE")
        switch mode {
        case "verify-full": return .verifiedTLS
        case "verify-ca" where !setting("sslrootcert", "PGSSLROOTCERT").isEmpty: return .verifiedTLS
        default: return .unverifiedTCP(sslmode: mode.isEmpty ? "prefer" : mode)
        }
    }
}
