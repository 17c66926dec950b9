internal import CSQLite

/// Facts about the linked SQLite.
public enum SQLiteLibrary {
    /// The SQLite version, e.g. `3.40.1`. The corresponding C function is `sqlite3_libversion`.
    public static var version: String { String(cString: sqlite3_libversion()) }
}
