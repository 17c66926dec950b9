/// One table of job data that `LedgerCopy` moves from a SQLite ledger to a PostgreSQL one: the columns both
/// schemas share (same names, same text formats), how rows are matched, and what the copy leaves out.
///
/// Values travel as the text both databases show (`SQLRow.optionalText`: integers in decimal, `NULL` as `nil`);
/// integer columns are bound as integers on the way in. Identity columns (`id`) are renumbered by the server and
/// left out; tables without a natural key are compared in recorded order (their ids' order).
struct CopyTable: Sendable {
    /// How a column's value is bound on the server.
    enum Kind: Sendable {
        case integer
        case text
    }

    /// The table's name in both schemas.
    let name: String
    /// The column naming the job (`name` in `jobs`).
    let jobColumn: String
    /// The shared columns, in the order they are read and written.
    let columns: [(name: String, kind: Kind)]
    /// The columns that identify a row within the job (empty: rows are matched in recorded order).
    let key: [String]
    /// The `ORDER BY` both sides read in.
    let order: String
    /// Columns of either schema the copy does not move: identity columns, and the server's derived column.
    let leftOut: Set<String>
    /// A server-only column derived from one shared column (attempts' `station`, from `reader`), written and
    /// verified like the others.
    let derived: (name: String, source: String, value: @Sendable (String?) -> String)?

    /// The shared column names, then the derived one: what the server side reads and writes.
    var serverColumns: [String] { columns.map(\.name) + (derived.map { [$0.name] } ?? []) }

    /// A source row with the derived column's value appended, as the server should hold it.
    func withDerived(_ row: [String?]) -> [String?] {
        guard let derived, let index = columns.firstIndex(where: { $0.name == derived.source }) else { return row }
        return row + [derived.value(row[index])]
    }

    /// The indices of `key` in `columns`.
    var keyIndices: [Int] { key.compactMap { name in columns.firstIndex { $0.name == name } } }

    /// `SELECT <columns> FROM <table> WHERE <job column> = ? ORDER BY <order>` over `names`.
    func select(_ names: [String]) -> String {
        "SELECT \(names.joined(separator: ", ")) FROM \(name) WHERE \(jobColumn) = ? ORDER BY \(order)"
    }

    /// What one row is called in messages: its key's values, or its place in recorded order.
    func describe(_ row: [String?], position: Int) -> String {
        let indices = keyIndices
        guard !indices.isEmpty else {
            let uid = columns.firstIndex { $0.name == "uid" }.flatMap { row[$0] }.map { ", uid \($0)" } ?? ""
            return "row \(position + 1) in recorded order\(uid)"
        }
        return indices.map { "\(columns[$0].name) \(row[$0] ?? "NULL")" }.joined(separator: ", ")
    }

    /// Every table of a job's data, parents first (`records` and `attempts` reference `jobs`).
    ///
    /// PostgreSQL's `stations` (lease rows) is not job data and is not copied.
    static let all: [CopyTable] = [
        jobs, records, attempts, events, seenCounters, keyChanges, sunCounters, jobKeys, outbox,
    ]

    private static func text(_ names: String...) -> [(name: String, kind: Kind)] { names.map { ($0, .text) } }
    private static func integer(_ names: String...) -> [(name: String, kind: Kind)] { names.map { ($0, .integer) } }

    static let jobs = CopyTable(
        name: "jobs", jobColumn: "name",
        columns: text("name", "manifest_sha256", "template_sha256") + integer("total_rows")
            + text("created_at", "started_at", "finished_at", "records_sha256", "public_fields"),
        key: ["name"], order: "name", leftOut: [], derived: nil)

    static let records = CopyTable(
        name: "records", jobColumn: "job",
        columns: text("job") + integer("row") + text("fields_json", "message_sha256") + integer("message_length")
            + text("state", "uid", "claimed_by") + integer("attempts")
            + text("created_at", "claimed_at", "finished_at", "chip", "bytes_sha256") + integer("byte_count", "locked")
            + text("signature_status", "written_at", "recorded_at", "key_id", "key_fingerprint")
            + integer("reissue_of") + text("original_message", "family"),
        key: ["row"], order: "row", leftOut: [], derived: nil)

    static let attempts = CopyTable(
        name: "attempts", jobColumn: "job",
        columns: text("job", "uid") + integer("row") + text("reader", "outcome", "failure_class", "failure_detail")
            + text("phase")
            + integer(
                "page", "detect_us", "identify_us", "write_us", "verify_us", "lock_us", "ledger_us", "removal_us",
                "exchanges", "airtime_us") + text("started_at", "finished_at"),
        key: [], order: "id", leftOut: ["id", "station"],
        derived: ("station", "reader", { LedgerCopy.station(ofReader: $0 ?? "") }))

    static let events = CopyTable(
        name: "events", jobColumn: "job",
        columns: text("job") + integer("row") + text("kind", "actor", "detail", "at"),
        key: [], order: "id", leftOut: ["id"], derived: nil)

    static let seenCounters = CopyTable(
        name: "seen_counters", jobColumn: "job", columns: text("job", "uid") + integer("counter") + text("seen_at"),
        key: ["uid"], order: "uid", leftOut: [], derived: nil)

    static let keyChanges = CopyTable(
        name: "key_changes", jobColumn: "job",
        columns: text("job", "uid") + integer("key_number", "old_version", "new_version")
            + text("key_id", "old_fingerprint", "new_fingerprint", "state", "intended_at", "resolved_at"),
        key: [], order: "id", leftOut: ["id", "station"], derived: nil)  // a copied change names no station

    static let sunCounters = CopyTable(
        name: "sun_counters", jobColumn: "job", columns: text("job", "uid") + integer("counter") + text("verified_at"),
        key: ["uid", "counter"], order: "uid, counter", leftOut: ["station"], derived: nil)  // the server names it

    /// The job's events, published or not, under their own ids (consumers dedupe by id: docs/events.md); the
    /// server numbers them again in their order and stamps its own transaction.
    static let outbox = CopyTable(
        name: "outbox", jobColumn: "job",
        columns: text("id", "job") + integer("row")
            + text("station", "outcome", "payload", "created_at", "published_at"),
        key: ["id"], order: "sequence", leftOut: ["sequence", "tx"], derived: nil)

    static let jobKeys = CopyTable(
        name: "job_keys", jobColumn: "job", columns: text("job", "key_id", "fingerprint", "recorded_at"),
        key: ["key_id"], order: "key_id", leftOut: [], derived: nil)
}
