internal import CSQLite

/// An SQLite result code (`int`), primary or extended.
///
/// The low byte is the primary code (`SQLITE_BUSY`); extended codes add detail in the higher bits
/// (`SQLITE_BUSY_SNAPSHOT`). A primary code used as a pattern matches its extended codes:
/// `case .constraint:` matches `SQLITE_CONSTRAINT_UNIQUE`.
public struct SQLiteResultCode: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    /// The C value.
    public let rawValue: Int32

    /// Wraps a C result code.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code (the low eight bits).
    public var primary: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xFF) }

    /// Whether this is a primary code rather than an extended one.
    public var isPrimary: Bool { rawValue == rawValue & 0xFF }

    /// SQLite's English text for the code.
    ///
    /// The corresponding C function is `sqlite3_errstr`.
    public var description: String {
        "\(String(cString: sqlite3_errstr(rawValue))) (\(rawValue))"
    }

    /// Matches equal codes, and a primary pattern against any of its extended codes.
    public static func ~= (pattern: SQLiteResultCode, value: SQLiteResultCode) -> Bool {
        pattern == value || (pattern.isPrimary && pattern == value.primary)
    }

    /// The corresponding C constant is `SQLITE_OK`.
    public static let ok = SQLiteResultCode(rawValue: SQLITE_OK)
    /// The corresponding C constant is `SQLITE_ERROR`.
    public static let error = SQLiteResultCode(rawValue: SQLITE_ERROR)
    /// The corresponding C constant is `SQLITE_INTERNAL`.
    public static let internalError = SQLiteResultCode(rawValue: SQLITE_INTERNAL)
    /// The corresponding C constant is `SQLITE_PERM`.
    public static let permission = SQLiteResultCode(rawValue: SQLITE_PERM)
    /// The corresponding C constant is `SQLITE_ABORT`.
    public static let abort = SQLiteResultCode(rawValue: SQLITE_ABORT)
    /// The corresponding C constant is `SQLITE_BUSY`.
    public static let busy = SQLiteResultCode(rawValue: SQLITE_BUSY)
    /// The corresponding C constant is `SQLITE_LOCKED`.
    public static let locked = SQLiteResultCode(rawValue: SQLITE_LOCKED)
    /// The corresponding C constant is `SQLITE_NOMEM`.
    public static let noMemory = SQLiteResultCode(rawValue: SQLITE_NOMEM)
    /// The corresponding C constant is `SQLITE_READONLY`.
    public static let readOnly = SQLiteResultCode(rawValue: SQLITE_READONLY)
    /// The corresponding C constant is `SQLITE_INTERRUPT`.
    public static let interrupt = SQLiteResultCode(rawValue: SQLITE_INTERRUPT)
    /// The corresponding C constant is `SQLITE_IOERR`.
    public static let ioError = SQLiteResultCode(rawValue: SQLITE_IOERR)
    /// The corresponding C constant is `SQLITE_CORRUPT`.
    public static let corrupt = SQLiteResultCode(rawValue: SQLITE_CORRUPT)
    /// The corresponding C constant is `SQLITE_FULL`.
    public static let full = SQLiteResultCode(rawValue: SQLITE_FULL)
    /// The corresponding C constant is `SQLITE_CANTOPEN`.
    public static let cannotOpen = SQLiteResultCode(rawValue: SQLITE_CANTOPEN)
    /// The corresponding C constant is `SQLITE_SCHEMA`.
    public static let schema = SQLiteResultCode(rawValue: SQLITE_SCHEMA)
    /// The corresponding C constant is `SQLITE_CONSTRAINT`.
    public static let constraint = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT)
    /// The corresponding C constant is `SQLITE_MISMATCH`.
    public static let mismatch = SQLiteResultCode(rawValue: SQLITE_MISMATCH)
    /// The corresponding C constant is `SQLITE_MISUSE`.
    public static let misuse = SQLiteResultCode(rawValue: SQLITE_MISUSE)
    /// The corresponding C constant is `SQLITE_RANGE`.
    public static let range = SQLiteResultCode(rawValue: SQLITE_RANGE)
    /// The corresponding C constant is `SQLITE_NOTADB`.
    public static let notADatabase = SQLiteResultCode(rawValue: SQLITE_NOTADB)
    /// The corresponding C constant is `SQLITE_ROW`.
    public static let row = SQLiteResultCode(rawValue: SQLITE_ROW)
    /// The corresponding C constant is `SQLITE_DONE`.
    public static let done = SQLiteResultCode(rawValue: SQLITE_DONE)

    /// An extended code: `primary | (detail << 8)`, as sqlite3.h spells it (its macros do not import into Swift).
    private init(extending primary: Int32, _ detail: Int32) { self.init(rawValue: primary | (detail << 8)) }

    /// The corresponding C constant is `SQLITE_BUSY_SNAPSHOT`.
    public static let busySnapshot = SQLiteResultCode(extending: SQLITE_BUSY, 2)
    /// The corresponding C constant is `SQLITE_CANTOPEN_ISDIR`.
    public static let cannotOpenIsDirectory = SQLiteResultCode(extending: SQLITE_CANTOPEN, 2)
    /// The corresponding C constant is `SQLITE_READONLY_DBMOVED`.
    public static let readOnlyDatabaseMoved = SQLiteResultCode(extending: SQLITE_READONLY, 4)
    /// The corresponding C constant is `SQLITE_CONSTRAINT_UNIQUE`.
    public static let constraintUnique = SQLiteResultCode(extending: SQLITE_CONSTRAINT, 8)
    /// The corresponding C constant is `SQLITE_CONSTRAINT_PRIMARYKEY`.
    public static let constraintPrimaryKey = SQLiteResultCode(extending: SQLITE_CONSTRAINT, 6)
    /// The corresponding C constant is `SQLITE_CONSTRAINT_CHECK`.
    public static let constraintCheck = SQLiteResultCode(extending: SQLITE_CONSTRAINT, 1)
    /// The corresponding C constant is `SQLITE_CONSTRAINT_NOTNULL`.
    public static let constraintNotNull = SQLiteResultCode(extending: SQLITE_CONSTRAINT, 5)
    /// The corresponding C constant is `SQLITE_CONSTRAINT_TRIGGER` (a `RAISE(ABORT, …)`).
    public static let constraintTrigger = SQLiteResultCode(extending: SQLITE_CONSTRAINT, 7)
}
