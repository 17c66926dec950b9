internal import CPostgres

/// One row of a libpq result; values arrive in PostgreSQL's text format.
///
/// Valid only while its result is (inside the `query` call that made it).
struct PostgresRow: SQLRow {
    let result: PostgresResultPointer
    let row: Int32
    /// The result's columns by name, resolved once for all its rows (`columns(of:sql:)`).
    let columns: SQLColumns

    /// The columns of `result` by name.
    ///
    /// The corresponding C functions are `PQnfields` and `PQfname`.
    static func columns(of result: PostgresResultPointer, sql: String) -> SQLColumns {
        SQLColumns(sql: sql, count: PQnfields(result)) { index in
            PQfname(result, index).map { String(cString: $0) } ?? ""
        }
    }

    /// Whether the column is `NULL`.
    ///
    /// The corresponding C function is `PQgetisnull`.
    func isNull(_ index: Int32) -> Bool { PQgetisnull(result, row, index) == 1 }

    /// An integer column; booleans read as 1 and 0, `NULL` as 0.
    func int(_ index: Int32) -> Int {
        let value = text(index)
        switch value {
        case "t": return 1
        case "f": return 0
        default: return Int(value) ?? 0
        }
    }

    func optionalInt(_ index: Int32) -> Int? { isNull(index) ? nil : int(index) }

    /// A text column (`""` for `NULL`).
    ///
    /// The corresponding C function is `PQgetvalue`.
    func text(_ index: Int32) -> String { String(cString: PQgetvalue(result, row, index)) }

    func optionalText(_ index: Int32) -> String? { isNull(index) ? nil : text(index) }

    /// The number of columns.
    ///
    /// The corresponding C function is `PQnfields`.
    var columnCount: Int32 { PQnfields(result) }
}
