internal import CSQLite

/// The C type `sqlite3 *`.
typealias SQLiteDatabasePointer = OpaquePointer

/// Owns one SQLite connection, caches its prepared statements, and closes it in `deinit`.
///
/// Not Sendable: SQLite connections are used only on the owning `Ledger` actor's queue. The one call
/// allowed from elsewhere is `sqlite3_interrupt`, through `InterruptHandle`.
final class SQLiteConnection {
    /// The open connection.
    let database: SQLiteDatabasePointer
    /// The file path, for messages.
    let path: String
    private var cache: [String: SQLiteStatement] = [:]

    /// Opens (or creates) `path`.
    ///
    /// The corresponding C function is `sqlite3_open_v2`.
    ///
    /// Extended result codes are switched on (`sqlite3_extended_result_codes`) and the busy timeout set
    /// (`sqlite3_busy_timeout`).
    init(path: String, readOnly: Bool, busyTimeoutMilliseconds: Int32) throws(LedgerError) {
        var handle: SQLiteDatabasePointer?
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let result = sqlite3_open_v2(path, &handle, flags, nil)
        guard result == SQLITE_OK, let handle else {
            let error = LedgerError(
                .cannotOpen, "cannot open ledger \(path): \(handle.map { Self.message($0) } ?? "out of memory")",
                resultCode: SQLiteResultCode(rawValue: handle.map { sqlite3_extended_errcode($0) } ?? result))
            sqlite3_close_v2(handle)
            throw error
        }
        self.database = handle
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
    }

    deinit {
        cache.removeAll()
        sqlite3_close_v2(database)
    }

    /// Whether the main database was opened read-only.
    ///
    /// The corresponding C function is `sqlite3_db_readonly`.
    var isReadOnly: Bool { sqlite3_db_readonly(database, "main") == 1 }

    /// Whether no transaction is open.
    ///
    /// The corresponding C function is `sqlite3_get_autocommit`.
    var isAutocommit: Bool { sqlite3_get_autocommit(database) != 0 }

    /// Rows changed by the last statement.
    ///
    /// The corresponding C function is `sqlite3_changes`.
    var changes: Int { Int(sqlite3_changes(database)) }

    /// A handle that can interrupt this connection from another thread.
    var interruptHandle: InterruptHandle { InterruptHandle(database: database) }

    /// Runs a fixed script of one or more statements without parameters (DDL, pragmas, `BEGIN`/`COMMIT`).
    func execute(_ script: String) throws(LedgerError) {
        var remaining = Substring(script)
        while !remaining.allSatisfy({ $0.isWhitespace || $0 == ";" }) {
            let (statement, rest) = try prepareFirst(remaining)
            remaining = rest
            guard let statement else { continue }
            defer { sqlite3_finalize(statement) }
            var result = sqlite3_step(statement)
            while result == SQLITE_ROW { result = sqlite3_step(statement) }
            guard result == SQLITE_DONE else { throw Self.error(database: database, result: result, sql: script) }
        }
    }

    /// Runs `sql` with bound `values` and returns the number of rows changed.
    @discardableResult
    func run(_ sql: String, _ values: [SQLiteValue] = []) throws(LedgerError) -> Int {
        let statement = try cached(sql)
        try statement.bind(values)
        defer { statement.finish() }
        while try statement.step() {}
        return changes
    }

    /// Runs a query with bound `values` and maps every row.
    func query<T>(
        _ sql: String, _ values: [SQLiteValue] = [], _ map: (SQLiteStatement) throws(LedgerError) -> T
    ) throws(LedgerError) -> [T] {
        let statement = try cached(sql)
        try statement.bind(values)
        defer { statement.finish() }
        var rows: [T] = []
        while try statement.step() { rows.append(try map(statement)) }
        return rows
    }

    /// Runs a query and maps its first row, or returns `nil` when there is none.
    func queryFirst<T>(
        _ sql: String, _ values: [SQLiteValue] = [], _ map: (SQLiteStatement) throws(LedgerError) -> T
    ) throws(LedgerError) -> T? {
        let statement = try cached(sql)
        try statement.bind(values)
        defer { statement.finish() }
        return try statement.step() ? map(statement) : nil
    }

    /// Rows changed by every statement since the connection opened.
    ///
    /// The corresponding C function is `sqlite3_total_changes64`.
    var totalChanges: Int64 { sqlite3_total_changes64(database) }

    /// Runs `body` in a transaction: commits if it returns, rolls back if anything throws.
    ///
    /// `BEGIN`, `COMMIT` and `ROLLBACK` are prepared once and reused (a tag's claim and commit each run one).
    func transaction<T>(_ mode: TransactionMode, _ body: () throws(LedgerError) -> T) throws(LedgerError) -> T {
        try run(mode.beginStatement)
        do {
            let value = try body()
            try run("COMMIT")
            return value
        } catch {
            if !isAutocommit { _ = try? run("ROLLBACK") }
            throw error
        }
    }

    /// Sets `PRAGMA synchronous` for the commits that follow (outside a transaction).
    ///
    /// Prepared afresh each time, never from the statement cache: SQLite applies this pragma while it
    /// compiles the statement, so re-stepping a cached one is not guaranteed to set it again.
    func setSynchronous(_ level: SynchronousLevel) throws(LedgerError) {
        try execute(level.pragma)
    }

    /// `PRAGMA synchronous` as the connection reports it (0 OFF, 1 NORMAL, 2 FULL).
    var synchronous: Int { (try? queryFirst("PRAGMA synchronous", [], { $0.int(0) })) ?? -1 }

    /// Makes every commit so far durable: syncs the write-ahead log, as a `synchronous=FULL` commit would.
    ///
    /// The corresponding C calls are `sqlite3_file_control(SQLITE_FCNTL_JOURNAL_POINTER)` and the WAL
    /// file's `xSync` (SQLite's own VFS method, `fdatasync` on Linux). A connection that has not opened its
    /// WAL yet has nothing to sync.
    func syncJournal() throws(LedgerError) {
        guard let (file, sync) = try journalFile() else { return }
        let result = sync(file, SQLITE_SYNC_NORMAL)
        guard result == SQLITE_OK else {
            throw LedgerError(
                LedgerError.code(for: SQLiteResultCode(rawValue: result)), "cannot sync the ledger's WAL of \(path)",
                resultCode: SQLiteResultCode(rawValue: result))
        }
    }

    /// Whether the connection has its WAL file open (then `syncJournal()` syncs it).
    var journalIsOpen: Bool { ((try? journalFile()) ?? nil) != nil }

    private typealias SyncMethod = @convention(c) (UnsafeMutablePointer<sqlite3_file>?, Int32) -> Int32

    /// The WAL's `sqlite3_file` and its `xSync` method, or `nil` when the WAL is not open.
    private func journalFile() throws(LedgerError) -> (UnsafeMutablePointer<sqlite3_file>, SyncMethod)? {
        var file: UnsafeMutablePointer<sqlite3_file>?
        let found = sqlite3_file_control(database, "main", SQLITE_FCNTL_JOURNAL_POINTER, &file)
        guard found == SQLITE_OK else { throw Self.error(database: database, result: found, sql: nil) }
        guard let file, let methods = file.pointee.pMethods, let sync = methods.pointee.xSync else { return nil }
        return (file, sync)
    }

    /// A cached prepared statement for `sql`.
    private func cached(_ sql: String) throws(LedgerError) -> SQLiteStatement {
        if let statement = cache[sql] { return statement }
        let statement = try SQLiteStatement(database: database, sql: sql)
        cache[sql] = statement
        return statement
    }

    /// Compiles the first statement of `script`.
    ///
    /// The corresponding C function is `sqlite3_prepare_v2`.
    private func prepareFirst(_ script: Substring) throws(LedgerError) -> (SQLiteStatementPointer?, Substring) {
        let utf8 = Array(script.utf8) + [0]
        var statement: SQLiteStatementPointer?
        var consumed = 0
        let result = utf8.withUnsafeBufferPointer { buffer -> Int32 in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                guard let base = chars.baseAddress else { return SQLITE_MISUSE }
                var tail: UnsafePointer<CChar>?
                let result = sqlite3_prepare_v2(database, base, Int32(chars.count), &statement, &tail)
                consumed = tail.map { base.distance(to: $0) } ?? chars.count - 1
                return result
            }
        }
        guard result == SQLITE_OK else {
            throw Self.error(database: database, result: result, sql: String(script))
        }
        let rest = Substring(decoding: utf8[consumed..<(utf8.count - 1)], as: UTF8.self)
        return (statement, rest)
    }

    /// The text of the connection's last error.
    ///
    /// The corresponding C function is `sqlite3_errmsg`.
    static func message(_ database: SQLiteDatabasePointer) -> String {
        String(cString: sqlite3_errmsg(database))
    }

    /// A typed error for a failed call, with SQLite's extended code and message.
    static func error(database: SQLiteDatabasePointer, result: Int32, sql: String?) -> LedgerError {
        let extended = sqlite3_extended_errcode(database)
        let code = SQLiteResultCode(rawValue: extended & 0xFF == result & 0xFF ? extended : result)
        return LedgerError(LedgerError.code(for: code), message(database), resultCode: code, sql: sql)
    }
}

@available(*, unavailable)
extension SQLiteConnection: Sendable {}

/// Carries the connection pointer to a task-cancellation handler.
///
/// `@unchecked Sendable`: `sqlite3_interrupt` is the one SQLite call documented as safe to make from
/// another thread while the connection runs a statement, and the `Ledger` actor keeps the connection open
/// for as long as any operation that installed this handler is running.
struct InterruptHandle: @unchecked Sendable {
    let database: SQLiteDatabasePointer

    /// Makes the running statement fail with `SQLITE_INTERRUPT`.
    ///
    /// The corresponding C function is `sqlite3_interrupt`.
    func interrupt() { sqlite3_interrupt(database) }
}

/// SQLite's `BEGIN IMMEDIATE` holds the database's only write lock, so reads need no row locks.
extension SQLiteConnection: SQLConnection {
    var nextRowLock: String { "" }
    var rowLock: String { "" }
    var outboxSettled: String { "" }

    func readTogether<T>(_ body: () throws(LedgerError) -> T) throws(LedgerError) -> T {
        try transaction(.deferred, body)
    }
}
