import Foundation

/// A row of a query result: SQLite's statement and PostgreSQL's result row both are one, so the ledger's row
/// decoders serve both stores. Decoders read columns by name (`SQLColumns`); the index readers serve those
/// and single-value statements (`PRAGMA`, `SELECT count(*)`).
protocol SQLRow {
    /// The statement's columns by name, resolved once per statement.
    var columns: SQLColumns { get }
    /// An integer column (`0` for `NULL`).
    func int(_ index: Int32) -> Int
    /// An integer column, `nil` for `NULL`.
    func optionalInt(_ index: Int32) -> Int?
    /// A text column (`""` for `NULL`).
    func text(_ index: Int32) -> String
    /// A text column, `nil` for `NULL`.
    func optionalText(_ index: Int32) -> String?
}

/// A database connection the ledger's operations run on: SQLite's or PostgreSQL's. Not Sendable: one actor owns it.
///
/// Statements are written once with `?` (or `?N`) parameters; a connection whose database numbers them
/// differently rewrites them.
protocol SQLConnection: AnyObject {
    associatedtype Row: SQLRow
    /// Runs a script of statements without values.
    func execute(_ script: String) throws(LedgerError)
    /// Runs one statement and returns the rows it changed.
    @discardableResult
    func run(_ sql: String, _ values: [SQLiteValue]) throws(LedgerError) -> Int
    /// Runs a query and maps every row.
    func query<T>(_ sql: String, _ values: [SQLiteValue], _ row: (Row) throws(LedgerError) -> T) throws(LedgerError)
        -> [T]
    /// Runs a query and maps its first row, or returns `nil`.
    func queryFirst<T>(_ sql: String, _ values: [SQLiteValue], _ row: (Row) throws(LedgerError) -> T)
        throws(LedgerError) -> T?
    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ mode: TransactionMode, _ body: () throws(LedgerError) -> T) throws(LedgerError) -> T
    /// What a claim appends to its pick of the next pending row: nothing where the transaction already holds
    /// the database's only write lock (SQLite), `FOR UPDATE SKIP LOCKED` where stations claim side by side.
    var nextRowLock: String { get }
    /// What a read-then-write appends to its read of a row: `FOR UPDATE` where writers run side by side.
    var rowLock: String { get }
    /// What a read of the outbox adds to its `WHERE`: nothing where commits follow sequence order (SQLite's one
    /// writer), else a condition that keeps events of transactions not older than every running one for later.
    var outboxSettled: String { get }
    /// Runs `body`'s reads together where that is cheaper than one by one: SQLite in one read transaction (one WAL
    /// read lock, taken and dropped with file locks, instead of one a statement); PostgreSQL as they are (a
    /// transaction would add two round trips).
    func readTogether<T>(_ body: () throws(LedgerError) -> T) throws(LedgerError) -> T
}

/// A ledger store whose operations are SQL statements on one `SQLConnection`: the operations are written
/// once (Ledger+Claims.swift and its siblings) and run on SQLite and PostgreSQL alike.
protocol SQLLedger: LedgerStore {
    associatedtype Connection: SQLConnection
    /// The connection; used only on the actor's own executor.
    var connection: Connection { get }
    /// Runs `body` on the connection with task cancellation routed to the database's interrupt call.
    func perform<T>(_ body: () throws(LedgerError) -> T) async throws(LedgerError) -> T
    /// Runs `body` in a transaction with the given durability, on the store's queue (the caller is there).
    func transactionNow<T>(_ mode: TransactionMode, durability: Durability, _ body: () throws(LedgerError) -> T)
        throws(LedgerError) -> T
    /// Moves tag `uid`'s seen counter in `job` forward to `counter` (at most `window` above it) inside the caller's
    /// transaction; returns whether this call moved it (Ledger+Counters.swift; a server does it in its function).
    func advanceSeenCounter(job: String, uid: String, counter: Int, at time: String, window: Int)
        throws(LedgerError) -> Bool
    /// Records SUN counter `counter` of tag `uid` in `job` unless one as high is recorded, inside the caller's
    /// transaction; returns whether it was recorded (Ledger+SUNCounters.swift; a server does it in its function).
    func recordSUNCounter(job: String, uid: String, counter: Int, at time: String) throws(LedgerError) -> Bool
    /// Inserts one batch of `addRows` as `pending` in one transaction, skipping rows present, and refreshes the
    /// job's total; returns the rows inserted (Ledger+Jobs.swift; a server does it in its function).
    func insertRows(_ batch: [RowInput], job: String) async throws(LedgerError) -> Int
    /// Inserts job `name` with its hashes inside the caller's transaction (Ledger+Jobs.swift; a server does it in
    /// its function).
    func insertJob(name: String, manifestHash: String, templateHash: String) throws(LedgerError)
    /// Replaces job `name`'s hashes and records the `manifestAccepted` event with `detail` inside the caller's
    /// transaction (Ledger+Jobs.swift; on a server the supervisor's, through its function).
    func acceptManifestChange(name: String, manifestHash: String, templateHash: String, detail: String)
        throws(LedgerError)
}

extension SQLLedger {
    /// Runs `body` in a transaction (`perform`'s cancellation rules) with the given durability.
    func write<T>(_ mode: TransactionMode, durability: Durability, _ body: () throws(LedgerError) -> T)
        async throws(LedgerError) -> T
    {
        try await perform { () throws(LedgerError) -> T in try transactionNow(mode, durability: durability, body) }
    }

    /// A write transaction, durable when it returns.
    func write<T>(_ body: () throws(LedgerError) -> T) async throws(LedgerError) -> T {
        try await write(.immediate, durability: .immediate, body)
    }

    /// A write transaction with the given durability.
    func write<T>(durability: Durability, _ body: () throws(LedgerError) -> T) async throws(LedgerError) -> T {
        try await write(.immediate, durability: durability, body)
    }

    /// Appends an audit-trail entry (inside the caller's transaction).
    func insertEvent(job: String?, row: Int?, kind: String, actor: String?, detail: String?) throws(LedgerError) {
        try connection.run(
            "INSERT INTO events(job, row, kind, actor, detail, at) VALUES (?, ?, ?, ?, ?, ?)",
            [.string(job), .int(row), .text(kind), .string(actor), .string(detail), .text(LedgerFormat.time(Date()))])
    }
}
