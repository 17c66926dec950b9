/// A ledger failure: what went wrong, SQLite's result code underneath if any, and the SQL involved.
///
/// Equality and hashing use `code` only, so callers and tests switch on codes.
public struct LedgerError: Error, Hashable, CustomStringConvertible {
    /// A stable, switchable reason.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// The file cannot be opened or created (missing folder, a directory, not a database, no permission).
        public static let cannotOpen = Code("cannotOpen")
        /// The database is read-only (file permissions, or opened read-only) and a write was attempted.
        public static let readOnly = Code("readOnly")
        /// The login lacks the role the change needs (a station login changing a job's record, which is the
        /// supervisor's on a ledger server): the server refused it and nothing was written.
        public static let roleRequired = Code("roleRequired")
        /// Another connection held the lock for longer than the busy timeout.
        public static let busy = Code("busy")
        /// The running statement was interrupted (task cancellation); its transaction was rolled back.
        public static let interrupted = Code("interrupted")
        /// The file's schema version is newer than this build understands.
        public static let schemaTooNew = Code("schemaTooNew")
        /// A read-only open of a file at an older schema version (read-only opens cannot migrate).
        public static let schemaTooOld = Code("schemaTooOld")
        /// A constraint (unique index, check) rejected a write.
        public static let constraint = Code("constraint")
        /// Any other SQLite failure; see `resultCode`.
        public static let sqlite = Code("sqlite")
        /// Any other PostgreSQL failure; the message names the server's SQLSTATE.
        public static let postgres = Code("postgres")
        /// The connection to the ledger server dropped (a server restart, the network): the statement's outcome
        /// is unknown to this side until `reconnect()`; a line pauses and reconnects with backoff.
        public static let disconnected = Code("disconnected")
        /// Another live process holds the station's lease (a second process with the same `--station`).
        public static let stationTaken = Code("stationTaken")
        /// This station's lease ran out (the process was frozen or cut off): it must not write another tag.
        public static let leaseLost = Code("leaseLost")
        /// The job is not registered in this ledger.
        public static let unknownJob = Code("unknownJob")
        /// The row does not exist in the job.
        public static let unknownRow = Code("unknownRow")
        /// The job exists with a different manifest or template hash.
        public static let manifestMismatch = Code("manifestMismatch")
        /// The UID already carries a done row (in this or another job).
        public static let alreadyProvisioned = Code("alreadyProvisioned")
        /// The job is already in the ledger a copy goes to (`LedgerCopy`): a job is copied once.
        public static let jobExists = Code("jobExists")
        /// A copied job's rows differ between the two ledgers (`LedgerCopy.verify`).
        public static let copyMismatch = Code("copyMismatch")
        /// The row is not in a state that allows the operation (for example not claimed by that UID).
        public static let invalidState = Code("invalidState")
        /// A stored value could not be decoded (for example fields JSON, a timestamp).
        public static let invalidData = Code("invalidData")
        /// The stable name.
        public var description: String { name }
    }

    /// The reason.
    public let code: Code
    /// What happened and what to do.
    public let message: String
    /// SQLite's (extended) result code, when SQLite reported the failure.
    public let resultCode: SQLiteResultCode?
    /// The statement that failed, if any (never includes bound values).
    public let sql: String?
    /// Where the error was raised (`fileID:line`).
    public let location: String

    /// Creates an error.
    public init(
        _ code: Code, _ message: String, resultCode: SQLiteResultCode? = nil, sql: String? = nil,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.code = code
        self.message = message
        self.resultCode = resultCode
        self.sql = sql
        self.location = "\(fileID):\(line)"
    }

    /// Maps an SQLite result code to the matching ledger code.
    static func code(for result: SQLiteResultCode) -> Code {
        switch result {
        case .busy, .locked: .busy
        case .readOnly: .readOnly
        case .interrupt: .interrupted
        case .constraint: .constraint
        case .cannotOpen, .notADatabase, .permission: .cannotOpen
        default: .sqlite
        }
    }

    /// Compares codes only.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    /// Hashes the code only.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    /// `code: message [result code] (location)`.
    public var description: String {
        var text = "\(code): \(message)"
        if let resultCode { text += " [\(resultCode)]" }
        return text + " (\(location))"
    }
}
