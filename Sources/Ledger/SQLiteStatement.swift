internal import CSQLite

/// The C type `sqlite3_stmt *`.
typealias SQLiteStatementPointer = OpaquePointer

/// Owns one prepared statement and finalizes it in `deinit`.
///
/// Not Sendable: a statement belongs to its connection and is used only on the owning actor's queue.
final class SQLiteStatement {
    /// The prepared statement.
    let pointer: SQLiteStatementPointer
    /// The SQL text, for error reports.
    let sql: String
    private let database: SQLiteDatabasePointer

    /// Compiles `sql`.
    ///
    /// The corresponding C function is `sqlite3_prepare_v2`.
    init(database: SQLiteDatabasePointer, sql: String) throws(LedgerError) {
        var statement: SQLiteStatementPointer?
        let result = sqlite3_prepare_v2(database, sql, -1, &statement, nil)
        guard result == SQLITE_OK, let statement else {
            throw SQLiteConnection.error(database: database, result: result, sql: sql)
        }
        self.pointer = statement
        self.sql = sql
        self.database = database
    }

    deinit { sqlite3_finalize(pointer) }

    /// Resets the statement and binds `values` to parameters 1…n.
    ///
    /// The corresponding C functions are `sqlite3_reset`, `sqlite3_clear_bindings` and `sqlite3_bind_*`.
    func bind(_ values: [SQLiteValue]) throws(LedgerError) {
        sqlite3_reset(pointer)
        sqlite3_clear_bindings(pointer)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let result: Int32
            switch value {
            case .integer(let number): result = sqlite3_bind_int64(pointer, index, number)
            case .real(let number): result = sqlite3_bind_double(pointer, index, number)
            case .text(let text): result = sqlite3_bind_text(pointer, index, text, -1, csqlite_transient())
            case .blob(let bytes):
                result = bytes.withUnsafeBytes { buffer in
                    guard let base = buffer.baseAddress else { return sqlite3_bind_zeroblob(pointer, index, 0) }
                    return sqlite3_bind_blob(pointer, index, base, Int32(buffer.count), csqlite_transient())
                }
            case .null: result = sqlite3_bind_null(pointer, index)
            }
            guard result == SQLITE_OK else {
                throw SQLiteConnection.error(database: database, result: result, sql: sql)
            }
        }
    }

    /// Advances to the next row; `false` when done.
    ///
    /// The corresponding C function is `sqlite3_step`.
    func step() throws(LedgerError) -> Bool {
        let result = sqlite3_step(pointer)
        switch result {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = SQLiteConnection.error(database: database, result: result, sql: sql)
            sqlite3_reset(pointer)
            throw error
        }
    }

    /// Releases the statement's read snapshot and bindings.
    ///
    /// The corresponding C function is `sqlite3_reset`.
    func finish() {
        sqlite3_reset(pointer)
        sqlite3_clear_bindings(pointer)
    }

    /// The result columns by name, resolved on first use and kept with the (cached) statement.
    ///
    /// The corresponding C function is `sqlite3_column_name`.
    private(set) lazy var columns = SQLColumns(sql: sql, count: columnCount) { index in
        sqlite3_column_name(pointer, index).map { String(cString: $0) } ?? ""
    }

    /// Number of result columns.
    ///
    /// The corresponding C function is `sqlite3_column_count`.
    var columnCount: Int32 { sqlite3_column_count(pointer) }

    /// Whether column `index` is `NULL`.
    ///
    /// The corresponding C function is `sqlite3_column_type`.
    func isNull(_ index: Int32) -> Bool { sqlite3_column_type(pointer, index) == SQLITE_NULL }

    /// Column `index` as an integer.
    ///
    /// The corresponding C function is `sqlite3_column_int64`.
    func int(_ index: Int32) -> Int { Int(sqlite3_column_int64(pointer, index)) }

    /// Column `index` as an integer, `nil` if `NULL`.
    func optionalInt(_ index: Int32) -> Int? { isNull(index) ? nil : int(index) }

    /// Column `index` as text (`""` if `NULL`).
    ///
    /// The corresponding C function is `sqlite3_column_text`.
    func text(_ index: Int32) -> String {
        guard let characters = sqlite3_column_text(pointer, index) else { return "" }
        return String(cString: characters)
    }

    /// Column `index` as text, `nil` if `NULL`.
    func optionalText(_ index: Int32) -> String? { isNull(index) ? nil : text(index) }
}

@available(*, unavailable)
extension SQLiteStatement: Sendable {}

extension SQLiteStatement: SQLRow {}
