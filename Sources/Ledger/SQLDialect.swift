/// What the ledger's two stores spell differently in their schema (`SchemaSteps`); everything else is written once.
enum SQLDialect: Sendable {
    case sqlite
    case postgres

    /// A table's integer key that the database numbers itself.
    var rowID: String {
        switch self {
        case .sqlite: "INTEGER PRIMARY KEY"
        case .postgres: "bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY"
        }
    }

    /// A 64-bit integer column (SQLite's INTEGER holds 64 bits; PostgreSQL's integer 32).
    var bigInteger: String {
        switch self {
        case .sqlite: "INTEGER"
        case .postgres: "bigint"
        }
    }

    /// An aggregate counting the group's rows where `condition` holds.
    func countWhere(_ condition: String) -> String {
        switch self {
        case .sqlite: "sum(\(condition))"
        case .postgres: "count(*) FILTER (WHERE \(condition))"
        }
    }

    /// The `attempts` column naming the station that wrote the attempt (with its leading space and trailing
    /// comma): only a server ledger has several stations.
    var attemptsStation: String {
        switch self {
        case .sqlite: ""
        case .postgres: " station text NOT NULL DEFAULT current_setting('application_name'),"
        }
    }

    /// The `outbox` column naming the transaction that wrote an event (with its leading newline and trailing comma):
    /// on a server, where transactions commit out of sequence order, a reader takes only events of transactions
    /// older than every one still running (`SQLConnection.outboxSettled`), so a follower never skips one.
    var outboxTransaction: String {
        switch self {
        case .sqlite: ""
        case .postgres: "\n    tx           xid8 NOT NULL DEFAULT pg_current_xact_id(),"
        }
    }
}
