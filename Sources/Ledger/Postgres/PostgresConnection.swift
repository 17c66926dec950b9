internal import CPostgres
import Foundation

/// The C type `PGconn *`.
typealias PostgresConnectionPointer = OpaquePointer
/// The C type `PGresult *`.
typealias PostgresResultPointer = OpaquePointer

/// Owns one libpq connection and closes it in `deinit`.
///
/// Not Sendable: the connection is used only on the owning `PostgresLedger` actor's queue. The one call made
/// from elsewhere is `PQcancel`, through `PostgresCancelHandle`. Statements are written with `?` or `?N`
/// parameters (as for SQLite) and rewritten to `$N` once each; values travel as text with their type.
final class PostgresConnection {
    let connection: PostgresConnectionPointer
    /// The `PGcancel *` object of this connection, freed in `deinit` (and replaced by `reset()`).
    private var cancel: OpaquePointer?
    /// The connection string without its password, for messages.
    let location: String
    private var rewritten: [String: String] = [:]
    /// Statements sent to the server so far, one per round trip (`PQexec`, `PQexecParams`): what tests count to
    /// prove a claim or a done commit is one round trip.
    private(set) var roundTrips = 0

    /// Connects with `conninfo` (any libpq connection string or URI); `applicationName` names the station
    /// in `pg_stat_activity` and in the attempts it records.
    ///
    /// The server's notices (`NOTICE`, `WARNING`) are dropped: libpq's default prints them raw to stderr, into
    /// the operator's output (`WARNING:  terminating connection because of crash of another server process`
    /// before a dropped connection, which the line reports itself as a typed error).
    ///
    /// The corresponding C functions are `PQconnectdbParams` (with `expand_dbname`) and `PQsetNoticeProcessor`
    /// (the processor belongs to the `PGconn`, so it stays across `PQreset`).
    init(conninfo: String, applicationName: String, location: String) throws(LedgerError) {
        let keywords = ["dbname", "application_name", "client_encoding"]
        let values = [conninfo, applicationName, "UTF8"]
        let handle = withCStrings(keywords) { keys in
            withCStrings(values) { vals in PQconnectdbParams(keys, vals, 1) }
        }
        guard let handle else { throw LedgerError(.cannotOpen, "cannot connect to ledger \(location): out of memory") }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = Self.message(PQerrorMessage(handle))
            PQfinish(handle)
            throw LedgerError(.cannotOpen, "cannot connect to ledger \(location): \(message)\(Self.tlsHint(message))")
        }
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        self.connection = handle
        self.cancel = PQgetCancel(handle)
        self.location = location
    }

    deinit {
        if let cancel { PQfreeCancel(cancel) }
        PQfinish(connection)
    }

    /// Connects again with the same settings after the connection dropped (a server restart, the network).
    ///
    /// The corresponding C functions are `PQreset`, `PQstatus` and `PQgetCancel`.
    /// - Throws: `.disconnected` while the server cannot be reached.
    func reset() throws(LedgerError) {
        if let cancel { PQfreeCancel(cancel) }
        cancel = nil
        PQreset(connection)
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.message(PQerrorMessage(connection), firstLineOnly: true)
            throw LedgerError(.disconnected, "cannot reach ledger \(location): \(message)")
        }
        cancel = PQgetCancel(connection)
    }

    /// Whether the connection is gone (the server closed it or the network dropped).
    ///
    /// The corresponding C function is `PQstatus`.
    var isBroken: Bool { PQstatus(connection) == CONNECTION_BAD }

    /// Whether a statement failed because the connection is gone: when libpq has not noticed yet (a send that
    /// failed on a socket the server closed, as a server stopped at once leaves it), reading what the server
    /// sent tells. The corresponding C functions are `PQstatus` and `PQconsumeInput`.
    private var isGone: Bool {
        if isBroken { return true }
        _ = PQconsumeInput(connection)
        return isBroken
    }

    /// A handle that cancels this connection's running statement from another thread.
    var cancelHandle: PostgresCancelHandle { PostgresCancelHandle(cancel: cancel) }

    /// Runs `sql` (no parameters) and checks it succeeded; returns the result, which the caller clears.
    ///
    /// The corresponding C functions are `PQexecParams` and `PQresultStatus`.
    private func exec(_ sql: String, _ values: [SQLiteValue]) throws(LedgerError) -> PostgresResultPointer {
        let text = statement(sql)
        let types: [UInt32] = values.map(\.postgresType)
        let strings: [String?] = values.map(\.postgresText)
        roundTrips += 1
        let result = withOptionalCStrings(strings) { pointers in
            types.withUnsafeBufferPointer { typeBuffer in
                PQexecParams(
                    connection, text, Int32(values.count), typeBuffer.baseAddress, pointers, nil, nil, 0)
            }
        }
        guard let result else { throw failure(sql: sql) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let error = isGone ? failure(sql: sql) : Self.error(result, sql: sql)
            PQclear(result)
            throw error
        }
        return result
    }

    /// The error of a statement that got no result, or whose connection broke under it: `.disconnected`
    /// when the connection is gone.
    ///
    /// The corresponding C function is `PQerrorMessage`.
    private func failure(sql: String) -> LedgerError {
        guard isGone else { return LedgerError(.postgres, Self.message(PQerrorMessage(connection)), sql: sql) }
        let message = Self.message(PQerrorMessage(connection), firstLineOnly: true)
        return LedgerError(.disconnected, "lost the connection to ledger \(location): \(message)", sql: sql)
    }

    /// The statement with its `?` and `?N` parameters numbered `$N` (outside quoted text).
    private func statement(_ sql: String) -> String {
        if let known = rewritten[sql] { return known }
        var output = ""
        var next = 0
        var quoted = false
        var characters = sql.makeIterator()
        var pending: Character? = characters.next()
        while let character = pending {
            pending = characters.next()
            if character == "'" { quoted.toggle() }
            guard character == "?", !quoted else {
                output.append(character)
                continue
            }
            var digits = ""
            while let digit = pending, digit.isASCII, digit.isNumber {
                digits.append(digit)
                pending = characters.next()
            }
            if digits.isEmpty {
                next += 1
                digits = String(next)
            }
            output += "$" + digits
        }
        rewritten[sql] = output
        return output
    }

    /// A typed error from a failed result: the SQLSTATE decides the code.
    ///
    /// The corresponding C functions are `PQresultErrorField` (`PG_DIAG_SQLSTATE`) and `PQresultErrorMessage`.
    static func error(_ result: PostgresResultPointer, sql: String?) -> LedgerError {
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
        if let refusal = PostgresStationFunctions.Refusal(rawValue: state) {
            // A station function's refusal: its primary message alone, as the SQLite store words it.
            let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) } ?? ""
            return LedgerError(refusal.code, primary, sql: sql)
        }
        let code: LedgerError.Code =
            switch state {
            case let s where s.hasPrefix("23"): .constraint
            case "57014": .interrupted
            case "40001", "40P01", "55P03": .busy
            case "25006", "42501": .readOnly
            case "42P01": .schemaTooOld
            case let s where s.hasPrefix("08"): .disconnected
            case "57P01", "57P02", "57P03": .disconnected  // the server is shutting down or starting
            default: .postgres
            }
        let message = Self.message(PQresultErrorMessage(result), firstLineOnly: code == .disconnected)
        return LedgerError(code, "\(message) [SQLSTATE \(state)]", sql: sql)
    }

    /// libpq's text of a failure as a message: without the severity the server put before it (`ERROR:  `,
    /// `FATAL:  `, `PANIC:  `: the error's code and SQLSTATE say it already), and without the trailing newline.
    /// The one place every message of this connection is taken from libpq. `firstLineOnly` keeps the first line
    /// alone, for a dropped connection (an operator alert: the server's reason, not libpq's explanation of it).
    static func message(_ text: UnsafePointer<CChar>?, firstLineOnly: Bool = false) -> String {
        message(text.map { String(cString: $0) } ?? "", firstLineOnly: firstLineOnly)
    }

    /// What to check when libpq refused the server's certificate (another CA, another host name).
    static func tlsHint(_ message: String) -> String {
        guard message.contains("certificate") else { return "" }
        return " (sslrootcert must be the CA that signed the server's certificate, and the host name one the "
            + "certificate names: docs/stations.md, \"TLS\")"
    }

    /// `text` without libpq's severity prefixes (at its start, at the start of a line, or after libpq's own
    /// `…: ` as in `connection to server … failed: FATAL:  …`) and surrounding white space.
    static func message(_ text: String, firstLineOnly: Bool = false) -> String {
        let stripped = text.replacing(#/(^|\n|: )(?:ERROR|FATAL|PANIC): +/#) { $0.output.1 }.trimmingSpace()
        guard firstLineOnly else { return stripped }
        return String(stripped.prefix { $0 != "\n" }).trimmingSpace()
    }
}

@available(*, unavailable)
extension PostgresConnection: Sendable {}

extension PostgresConnection: SQLConnection {
    func execute(_ script: String) throws(LedgerError) {
        roundTrips += 1
        let result = PQexec(connection, script)
        guard let result else { throw failure(sql: script) }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw isGone ? failure(sql: script) : Self.error(result, sql: script)
        }
    }

    @discardableResult
    func run(_ sql: String, _ values: [SQLiteValue] = []) throws(LedgerError) -> Int {
        let result = try exec(sql, values)
        defer { PQclear(result) }
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    func query<T>(_ sql: String, _ values: [SQLiteValue] = [], _ map: (PostgresRow) throws(LedgerError) -> T)
        throws(LedgerError) -> [T]
    {
        let result = try exec(sql, values)
        defer { PQclear(result) }
        var rows: [T] = []
        let count = PQntuples(result)
        rows.reserveCapacity(Int(count))
        let columns = PostgresRow.columns(of: result, sql: sql)
        for index in 0..<count { rows.append(try map(PostgresRow(result: result, row: index, columns: columns))) }
        return rows
    }

    func queryFirst<T>(_ sql: String, _ values: [SQLiteValue] = [], _ map: (PostgresRow) throws(LedgerError) -> T)
        throws(LedgerError) -> T?
    {
        let result = try exec(sql, values)
        defer { PQclear(result) }
        guard PQntuples(result) > 0 else { return nil }
        return try map(PostgresRow(result: result, row: 0, columns: PostgresRow.columns(of: result, sql: sql)))
    }

    /// Runs `body` in a READ COMMITTED transaction; row locks and unique indexes keep stations apart.
    ///
    /// A commit the server turned into a rollback (an earlier statement failed) throws.
    func transaction<T>(_ mode: TransactionMode, _ body: () throws(LedgerError) -> T) throws(LedgerError) -> T {
        try transaction(mode, begin: "BEGIN", body)
    }

    /// Runs `body` in a transaction opened by `begin` (`BEGIN` and settings for this transaction only, in one
    /// round trip).
    func transaction<T>(_ mode: TransactionMode, begin: String, _ body: () throws(LedgerError) -> T)
        throws(LedgerError) -> T
    {
        try execute(begin)
        do throws(LedgerError) {
            let value = try body()
            let result = try exec("COMMIT", [])
            defer { PQclear(result) }
            guard String(cString: PQcmdStatus(result)) == "COMMIT" else {
                throw LedgerError(.postgres, "the ledger's transaction was rolled back by the server", sql: "COMMIT")
            }
            return value
        } catch {
            if PQtransactionStatus(connection) != PQTRANS_IDLE { _ = try? execute("ROLLBACK") }
            throw error
        }
    }

    var nextRowLock: String { " FOR UPDATE SKIP LOCKED" }
    var rowLock: String { " FOR UPDATE" }
    var outboxSettled: String { " AND tx < pg_snapshot_xmin(pg_current_snapshot())" }

    func readTogether<T>(_ body: () throws(LedgerError) -> T) throws(LedgerError) -> T { try body() }
}

/// Carries the connection's `PGcancel` object to a task-cancellation handler.
///
/// `@unchecked Sendable`: `PQcancel` is documented as safe to call from another thread (and a signal
/// handler) while the connection runs a statement; the `PostgresLedger` actor keeps the connection, and so
/// this object, alive for as long as any operation that installed the handler is running.
struct PostgresCancelHandle: @unchecked Sendable {
    let cancel: OpaquePointer?

    /// Asks the server to cancel the running statement (it then fails with SQLSTATE 57014).
    ///
    /// The corresponding C function is `PQcancel`.
    func interrupt() {
        guard let cancel else { return }
        var buffer = [CChar](repeating: 0, count: 256)
        _ = PQcancel(cancel, &buffer, Int32(buffer.count))
    }
}

extension SQLiteValue {
    /// The PostgreSQL type OID the value is sent as (`0` lets the server infer a `NULL`'s type).
    fileprivate var postgresType: UInt32 {
        switch self {
        case .integer: 20  // int8
        case .real: 701  // float8
        case .text: 25  // text
        case .blob: 17  // bytea
        case .null: 0
        }
    }

    /// The value in PostgreSQL's text format, `nil` for `NULL`.
    fileprivate var postgresText: String? {
        switch self {
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): value
        case .blob(let bytes): "\\x" + bytes.map { String(format: "%02x", $0) }.joined()
        case .null: nil
        }
    }
}

extension String {
    /// The text without leading and trailing white space (libpq messages end in a newline).
    fileprivate func trimmingSpace() -> String {
        var text = Substring(self)
        while let last = text.last, last.isWhitespace { text.removeLast() }
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        return String(text)
    }
}

/// Calls `body` with NUL-terminated copies of `strings` that live for the call.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    withOptionalCStrings(strings) { body($0) }
}

/// Calls `body` with NUL-terminated copies of `strings` (`nil` stays a null pointer) that live for the call,
/// followed by a terminating null pointer.
private func withOptionalCStrings<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.flatMap { strdup($0) } }
    defer { for copy in copies { free(copy) } }
    return body(copies.map { $0.map { UnsafePointer($0) } } + [nil])
}
