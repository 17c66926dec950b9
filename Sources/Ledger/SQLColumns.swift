/// A statement's result columns by name, resolved once per statement so rows are read by name, not position.
///
/// A column named twice (a join's `row` and `row`) is ambiguous and cannot be read by name: alias it.
struct SQLColumns {
    /// The statement, for the message of a name it does not return.
    let sql: String
    private let indexes: [String: Int32]

    /// The columns `0..<count`, named by `name`.
    init(sql: String, count: Int32, name: (Int32) -> String) {
        self.sql = sql
        var indexes: [String: Int32] = [:]
        for index in 0..<count {
            let key = name(index)
            indexes[key] = indexes[key] == nil ? index : -1
        }
        self.indexes = indexes
    }

    /// The index of `column`, `nil` when the statement does not return it exactly once.
    func position(of column: String) -> Int32? {
        guard let index = indexes[column], index >= 0 else { return nil }
        return index
    }

    /// The index of `column`; a name the statement does not return (once) is a programming error.
    func index(of column: String) -> Int32 {
        guard let index = position(of: column) else {
            preconditionFailure("column '\(column)' is not returned once by: \(sql)")
        }
        return index
    }
}

extension SQLRow {
    /// An integer column by name (`0` for `NULL`).
    func int(_ column: String) -> Int { int(columns.index(of: column)) }
    /// An integer column by name, `nil` for `NULL`.
    func optionalInt(_ column: String) -> Int? { optionalInt(columns.index(of: column)) }
    /// A text column by name (`""` for `NULL`).
    func text(_ column: String) -> String { text(columns.index(of: column)) }
    /// A text column by name, `nil` for `NULL`.
    func optionalText(_ column: String) -> String? { optionalText(columns.index(of: column)) }
}
