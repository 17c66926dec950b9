import Foundation

/// One forgery a login tries on a PostgreSQL ledger, and what the server must answer (`StationForgeryTests`).
struct ForgeryCase: Sendable {
    /// Who tries it: `stationA` holds no claim, `stationB` holds the claim (and did every done row).
    enum Role: String, CaseIterable, Sendable {
        case stationA, stationB, verifier, supervisor, publisher

        /// The role's column head in the matrix.
        var title: String {
            switch self {
            case .stationA: "station A (no claim)"
            case .stationB: "station B (holds the claim)"
            case .verifier: "verifier"
            case .supervisor: "supervisor"
            case .publisher: "publisher"
            }
        }
    }

    /// What the server answers: an error's SQLSTATE, or the rows the statement changed (or returned).
    enum Outcome: Hashable, Sendable, CustomStringConvertible {
        case refused(String)
        case rows(Int)

        /// The matrix cell.
        var description: String {
            switch self {
            case .refused(let state): "refused (\(state))"
            case .rows(0): "0 rows"
            case .rows(let count): "may (\(count) row\(count == 1 ? "" : "s"))"
            }
        }

        /// An answer as the test's DO block reports it (`rows N`, `SQLSTATE S`).
        init?(reported: String) {
            if reported.hasPrefix("rows "), let count = Int(reported.dropFirst(5)) {
                self = .rows(count)
            } else if reported.hasPrefix("SQLSTATE ") {
                self = .refused(String(reported.dropFirst(9)))
            } else {
                return nil
            }
        }
    }

    /// The matrix row the case belongs to (several cases may share one: the generic sweep's columns).
    let forgery: String
    let role: Role
    /// The statement, with `{job}`, `{done}` (a done tag's UID, station B's), `{claimed}` (station B's claimed
    /// tag), `{event}` (an unpublished outbox event) and `{now}` filled in by the test.
    let sql: String
    let expected: Outcome

    /// SQLSTATE 42501: insufficient privilege, a failed row-level security check, or a function's role check.
    static let denied = Outcome.refused("42501")

    /// The forgeries of issue 43's list, the counters and the job record, each with the answer of every role
    /// that tries it.
    static let named: [ForgeryCase] = namedRows.flatMap { forgery, sql, outcomes in
        ForgeryCase.Role.allCases.compactMap { role in
            outcomes[role].map { ForgeryCase(forgery: forgery, role: role, sql: sql, expected: $0) }
        }
    }

    /// The named forgeries: the matrix row, the statement, and each role's answer.
    private static let namedRows: [(String, String, [Role: Outcome])] = stationRows + outboxRows

    /// The forgeries of the outbox (docs/events.md): only the publisher marks events published, through its
    /// function; nobody writes or changes an event directly.
    private static let outboxRows: [(String, String, [Role: Outcome])] = [
        (
            "Read an outbox event",
            "SELECT 1 FROM outbox WHERE id = '{event}'",
            [.stationA: .rows(1), .verifier: denied, .supervisor: .rows(1), .publisher: .rows(1)]
        ),
        (
            "Read the jobs' names",
            "SELECT name FROM jobs",
            [.publisher: .rows(1)]
        ),
        (
            "Read the job record or a row (`manifest_sha256`, `records`, `attempts`)",
            "SELECT manifest_sha256 FROM jobs UNION ALL SELECT uid FROM records UNION ALL SELECT station FROM attempts",
            [.publisher: denied]
        ),
        (
            "Insert an outbox event directly",
            "INSERT INTO outbox (id, job, outcome, payload, created_at) "
                + "VALUES ('forged', '{job}', 'done', '{}', '{now}')",
            [.stationA: denied, .stationB: denied, .verifier: denied, .supervisor: denied, .publisher: denied]
        ),
        (
            "Mark an event published directly: `UPDATE outbox SET published_at`",
            "UPDATE outbox SET published_at = '{now}' WHERE id = '{event}'",
            [.stationA: denied, .stationB: denied, .verifier: denied, .supervisor: denied, .publisher: denied]
        ),
        (
            "Mark an event published (function; a publisher's or its own station's acknowledgement)",
            "SELECT 1 WHERE provision_mark_published(ARRAY['{event}'], '{now}') = 1",
            [.stationA: denied, .stationB: .rows(1), .verifier: denied, .supervisor: denied, .publisher: .rows(1)]
        ),
        (
            "Change a row, an attempt or a counter: `UPDATE records SET state = 'pending'`",
            "UPDATE records SET state = 'pending' WHERE uid = '{done}'",
            [.publisher: denied]
        ),
        (
            "Record a SUN counter (function)",
            "SELECT 1 WHERE provision_advance_sun_counter('{job}', '{done}', 1000, '{now}')",
            [.publisher: denied]
        ),
    ]

    /// The forgeries of the stations' tables and functions.
    private static let stationRows: [(String, String, [Role: Outcome])] = [
        (
            "Insert SUN counter 16777215 for another station's tag",
            "INSERT INTO sun_counters (job, uid, counter, verified_at) VALUES ('{job}', '{done}', 16777215, '{now}')",
            [.stationA: denied, .stationB: denied, .verifier: denied, .supervisor: denied]
        ),
        (
            "… through the counter function",
            "SELECT 1 WHERE provision_advance_sun_counter('{job}', '{done}', 16777215, '{now}')",
            [.stationA: denied, .stationB: denied, .supervisor: denied]
        ),
        (
            "Record the next SUN counter of a tag (function)",
            "SELECT 1 WHERE provision_advance_sun_counter('{job}', '{done}', 1000, '{now}')",
            [.verifier: .rows(1)]
        ),
        (
            "Record a claimed tag's first SUN counter (function; a run's read-back)",
            "SELECT 1 WHERE provision_advance_sun_counter('{job}', '{claimed}', 3, '{now}')",
            [.stationA: denied, .stationB: .rows(1)]
        ),
        (
            "Set the NTAG21x seen counters back: `UPDATE seen_counters SET counter = 0`",
            "UPDATE seen_counters SET counter = 0",
            [.stationA: denied, .stationB: denied, .verifier: denied, .supervisor: denied]
        ),
        (
            "Delete the seen counters",
            "DELETE FROM seen_counters", [.verifier: denied, .supervisor: denied]
        ),
        (
            "Move a seen counter back through the function",
            "SELECT 1 WHERE provision_advance_seen_counter('{job}', '{done}', 0, '{now}', 1000)",
            [.stationA: denied, .verifier: .rows(0), .supervisor: denied]
        ),
        (
            "Move a seen counter forward within the window (function)",
            "SELECT 1 WHERE provision_advance_seen_counter('{job}', '{done}', 9, '{now}', 1000)",
            [.verifier: .rows(1)]
        ),
        (
            "Update another station's done row: `key_fingerprint`",
            "UPDATE records SET key_fingerprint = 'v1:forged' WHERE uid = '{done}'",
            [.stationA: denied, .verifier: denied, .supervisor: denied]
        ),
        (
            "Update another station's done row: `claimed_by`",
            "UPDATE records SET claimed_by = 's2/forged' WHERE uid = '{done}'",
            [.stationA: denied, .verifier: denied, .supervisor: denied]
        ),
        (
            "Set another station's finished key change to `abandoned`",
            "UPDATE key_changes SET state = 'abandoned' WHERE state = 'done'",
            [.stationA: denied, .verifier: denied, .supervisor: denied]
        ),
        (
            "Take over another station's lease",
            "UPDATE stations SET instance = 'forged', lease_expires = now() + interval '1 hour' WHERE name = 's1'",
            [.stationA: denied, .verifier: denied, .supervisor: denied]
        ),
        (
            "Rewrite the job record: `manifest_sha256`",
            "UPDATE jobs SET manifest_sha256 = repeat('0', 64)",
            [.stationA: denied, .stationB: denied, .verifier: denied, .supervisor: denied]
        ),
        (
            "Rewrite the job record: `finished_at`",
            "UPDATE jobs SET finished_at = '{now}'",
            [.stationA: denied, .stationB: denied, .verifier: denied, .supervisor: denied]
        ),
        (
            "Accept a changed manifest (function; `run --accept-changed-manifest`)",
            "SELECT provision_change_job('{job}', repeat('0', 64), NULL, NULL, 'manifestAccepted', 'forged')",
            [.stationA: denied, .stationB: denied, .verifier: denied, .supervisor: .rows(1)]
        ),
        (
            "Mark the job finished while a row is not done (function)",
            "SELECT 1 WHERE provision_mark_job('{job}', true) = 1",
            [.stationA: denied, .stationB: denied, .verifier: denied, .supervisor: .rows(1)]
        ),
        (
            "Mark the job started (function; every run's start)",
            "SELECT 1 WHERE provision_mark_job('{job}', false) = 1",
            [.stationA: .rows(1), .verifier: denied, .supervisor: .rows(1)]
        ),
        (
            "Register a new job (function; a station's first start)",
            "SELECT provision_register_job('forged', repeat('0', 64), repeat('0', 64))",
            [.stationA: .rows(1), .verifier: denied, .supervisor: denied]
        ),
        (
            "Insert a job directly",
            "INSERT INTO jobs (name, manifest_sha256, template_sha256, created_at) "
                + "VALUES ('forged', 'x', 'x', '{now}')",
            [.stationA: denied, .verifier: denied, .supervisor: denied]
        ),
        (
            "Append a row to a started job directly",
            "INSERT INTO records (job, row, fields_json, message_sha256, message_length, state, created_at) "
                + "VALUES ('{job}', 99, '{}', 'x', 1, 'pending', '{now}')",
            [.stationA: denied, .stationB: denied, .verifier: denied]
        ),
        (
            "Append a row to a started job (function; `run --accept-new-rows`)",
            "SELECT 1 WHERE provision_add_rows('{job}', '[{\"row\": 99, \"fields_json\": \"{}\", "
                + "\"message_sha256\": \"x\", \"message_length\": 1}]') = 1",
            [.stationA: denied, .stationB: denied, .verifier: denied, .supervisor: .rows(1)]
        ),
        (
            "Insert an event in another station's name",
            "INSERT INTO events (job, kind, actor, at) VALUES ('{job}', 'failed', 's1', '{now}')",
            [.stationA: denied, .verifier: denied]
        ),
        (
            "Insert a job-record change event (`rowsAppended`) in its own station name",
            "INSERT INTO events (job, kind, actor, at) VALUES ('{job}', 'rowsAppended', 's2', '{now}')",
            [.stationA: denied]
        ),
        (
            "Insert an event in its own station name",
            "INSERT INTO events (job, kind, actor, at) VALUES ('{job}', 'failed', 's2', '{now}')",
            [.stationA: .rows(1)]
        ),
    ]

    /// The generic sweep: every `UPDATE` of every column and every `DELETE` of every table in `columns`
    /// (table → columns, from the live catalogue), by a station login that holds no claim, the verifier and the
    /// publisher.
    static func sweep(_ columns: [(table: String, columns: [String])]) -> [ForgeryCase] {
        columns.flatMap { table, names in
            [ForgeryCase.Role.stationA, .verifier, .publisher].flatMap { role in
                names.map {
                    ForgeryCase(
                        forgery: "`UPDATE` of any column of `\(table)`", role: role,
                        sql: "UPDATE \(table) SET \"\($0)\" = DEFAULT", expected: denied)
                } + [
                    ForgeryCase(
                        forgery: "`DELETE` from `\(table)`", role: role, sql: "DELETE FROM \(table)",
                        expected: denied)
                ]
            }
        }
    }

    /// The markdown matrix of `cases`: one row a forgery, in order, one column a role.
    static func matrix(_ cases: [ForgeryCase]) -> String {
        var order: [String] = []
        var cells: [String: [Role: Set<String>]] = [:]
        for item in cases {
            if cells[item.forgery] == nil { order.append(item.forgery) }
            cells[item.forgery, default: [:]][item.role, default: []].insert(item.expected.description)
        }
        let head = "| What a login tries | " + Role.allCases.map(\.title).joined(separator: " | ") + " |"
        let rule = "|---|" + Role.allCases.map { _ in "---|" }.joined()
        let rows = order.map { forgery in
            "| \(forgery) | "
                + Role.allCases.map { cells[forgery]?[$0]?.sorted().joined(separator: ", ") ?? "—" }
                .joined(separator: " | ") + " |"
        }
        return ([head, rule] + rows).joined(separator: "\n")
    }
}
