/// A value bound to a statement parameter: SQLite's five storage classes.
enum SQLiteValue: Sendable, Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case null

    /// An integer, or `NULL` for `nil`.
    static func int(_ value: Int?) -> SQLiteValue {
        value.map { .integer(Int64($0)) } ?? .null
    }

    /// A text value, or `NULL` for `nil`.
    static func string(_ value: String?) -> SQLiteValue {
        value.map { .text($0) } ?? .null
    }

    /// `1` or `0`.
    static func bool(_ value: Bool) -> SQLiteValue { .integer(value ? 1 : 0) }
}

/// How a transaction takes its locks; the raw value is the SQL keyword.
enum TransactionMode: String, Sendable {
    /// Takes the write lock on the first write (`BEGIN DEFERRED`); for read-only work.
    case deferred = "DEFERRED"
    /// Takes the write lock at once (`BEGIN IMMEDIATE`), so read-then-write claims never race.
    case immediate = "IMMEDIATE"

    /// The `BEGIN` statement for this mode.
    var beginStatement: String { "BEGIN \(rawValue)" }
}

/// When a write transaction's commit reaches the disk.
public enum Durability: Sendable, Hashable {
    /// Synced before the call returns (`synchronous=FULL`).
    case immediate
    /// Committed before the call returns, synced by this connection's next commit that writes, or by
    /// `Ledger.sync()`: survives a crash of the process; after a power loss it may be undone, never torn.
    case deferred
}

/// The `PRAGMA synchronous` levels the ledger uses.
enum SynchronousLevel: Sendable {
    /// Every commit syncs the WAL (`FULL`, the connection's setting).
    case full
    /// The commit reaches the WAL without a sync (`NORMAL`): it survives a crash of the process, and the
    /// next synced commit or `syncJournal()` makes it durable.
    case normal

    var pragma: String {
        switch self {
        case .full: "PRAGMA synchronous = FULL"
        case .normal: "PRAGMA synchronous = NORMAL"
        }
    }
}
