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
}
