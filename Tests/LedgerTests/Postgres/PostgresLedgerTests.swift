import Foundation
import TestSupport
import Testing

@testable import Ledger

/// What only the PostgreSQL store adds: explicit schema versions, the exactly-once rules as constraints, the
/// station recorded with every attempt, and no password in a connection string.
@Suite struct PostgresLedgerTests {
    @Test func aStationRefusesASchemaOlderOrNewerThanItKnows() async throws {
        let conninfo = try PostgresTestServer.shared().createDatabase()
        let empty = try await #require(throws: LedgerError.self) {
            try await PostgresLedger.open(conninfo: conninfo, station: "s1")
        }
        #expect(empty.code == .schemaTooOld && empty.message.contains("provision ledger migrate"), "\(empty)")
        let first = try await PostgresLedger.migrate(conninfo: conninfo)
        #expect(first.from == 0 && first.to == PostgresLedger.schemaVersion)
        let again = try await PostgresLedger.migrate(conninfo: conninfo)
        #expect(again.from == PostgresLedger.schemaVersion, "a second migration finds nothing to do")
        _ = try await PostgresLedger.open(conninfo: conninfo, station: "s1")
        _ = try PostgresTestServer.shared().query(conninfo, "UPDATE ledger_schema SET version = version + 1")
        let newer = try await #require(throws: LedgerError.self) {
            try await PostgresLedger.open(conninfo: conninfo, station: "s1")
        }
        #expect(newer.code == .schemaTooNew && newer.message.contains("newer provision"), "\(newer)")
    }

    @Test func theSchemaRefusesASecondDoneRowForAUIDAndKeepsDoneRowsFinal() async throws {
        let store = try await Sample.store(.postgresql, rows: 3)
        let ledger = store.ledger
        let conninfo = try #require(store.conninfo)
        let server = try PostgresTestServer.shared()
        let uid = Sample.uid(1)
        _ = try await ledger.claim(job: "j", reader: "r", uid: uid)
        try await ledger.markDone(
            job: "j", row: 1, uid: uid, tag: Sample.tag(uid), attempt: Sample.attempt(uid, row: 1))
        // Bypass the API with psql: the database itself refuses what the rules forbid.
        #expect(throws: HarnessError.self) {
            try server.query(conninfo, "UPDATE records SET state = 'claimed', uid = '04A1B200000001' WHERE row = 2")
        }
        #expect(throws: HarnessError.self) {
            try server.query(conninfo, "UPDATE records SET state = 'pending', uid = NULL WHERE row = 1")
        }
        #expect(throws: HarnessError.self) { try server.query(conninfo, "DELETE FROM records WHERE row = 1") }
        #expect(
            try server.query(conninfo, "SELECT state, uid FROM records WHERE row = 1") == [["done", "04A1B200000001"]])
        // Every attempt names its station (the connection's application_name) and its reader.
        #expect(try server.query(conninfo, "SELECT station, reader FROM attempts") == [["test-station", "sim0"]])
    }

    @Test func twoStationsNeverClaimTheSameRow() async throws {
        let store = try await Sample.store(.postgresql, rows: 40)
        let stations = [store.ledger, try await store.another(station: "s2"), try await store.another(station: "s3")]
        let rows = try await withThrowingTaskGroup(of: [Int].self) { group in
            for (index, station) in stations.enumerated() {
                group.addTask {
                    var mine: [Int] = []
                    for n in 0..<20 {
                        let uid = Sample.uid(1_000 * (index + 1) + n)
                        guard let claimed = try await station.claim(job: "j", reader: "r\(index)", uid: uid) else {
                            break
                        }
                        mine.append(claimed.row)
                    }
                    return mine
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(rows.sorted() == Array(1...40), "every row claimed once: \(rows.sorted())")
    }

    @Test func aDroppedConnectionIsDisconnectedAndReconnectKeepsEveryCommittedClaim() async throws {
        let store = try await Sample.store(.postgresql, rows: 3)
        let ledger = try #require(store.ledger as? PostgresLedger)
        let conninfo = try #require(store.conninfo)
        let server = try PostgresTestServer.shared()
        let first = try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(1))
        #expect(first?.row == 1)
        // The server ends the session (as a restart or an administrator would).
        let ended = try server.query(
            conninfo,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                + "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        #expect(!ended.isEmpty && ended.allSatisfy { $0 == ["t"] }, "\(ended)")
        let lost = try await #require(throws: LedgerError.self) {
            try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(2))
        }
        #expect(lost.code == .disconnected, "\(lost)")
        // One line for the operator's alert, without libpq's severity.
        #expect(!lost.message.contains("FATAL:") && !lost.message.contains("\n"), "\(lost)")
        try await ledger.reconnect()
        // The claim committed before the drop is kept; the one that failed with it never happened.
        let resumed = try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(1))
        #expect(resumed?.row == 1 && resumed?.resumed == true)
        #expect(try await ledger.claim(job: "j", reader: "r", uid: Sample.uid(2))?.row == 2)
    }

    @Test func messagesCarryNoSeverityPrefixOfLibpqAndKeepTheSQLSTATE() async throws {
        let store = try await Sample.store(.postgresql, rows: 1)
        let ledger = try #require(store.ledger as? PostgresLedger)
        let failed = try await #require(throws: LedgerError.self) { try await ledger.rawQuery("SELECT 1 / 0") }
        #expect(failed.message == "division by zero [SQLSTATE 22012]", "\(failed)")
        #expect(failed.description.hasPrefix("postgres: division by zero [SQLSTATE 22012] ("), "\(failed)")
        // libpq puts the server's severity after its own text when a connection is refused.
        let server = try PostgresTestServer.shared()
        let refused = try await #require(throws: LedgerError.self) {
            try await PostgresLedger.open(conninfo: server.connInfo(database: "no_such_ledger"), station: "s1")
        }
        #expect(refused.code == .cannotOpen, "\(refused)")
        #expect(refused.message.contains("failed: database \"no_such_ledger\" does not exist"), "\(refused)")
        for error in [failed, refused] {
            #expect(!["ERROR:", "FATAL:", "PANIC:"].contains { error.description.contains($0) }, "\(error)")
            #expect(!error.message.hasSuffix("\n"))
        }
        #expect(
            PostgresConnection.message(
                "FATAL:  terminating connection due to administrator command\nserver closed "
                    + "the connection unexpectedly\nERROR:  x\n")
                == "terminating connection due to administrator command\nserver closed the connection unexpectedly\nx")
        #expect(
            PostgresConnection.message("FATAL:  terminating connection\nCONTEXT:  …\n", firstLineOnly: true)
                == "terminating connection")
    }

    @Test func aConnectionStringWithAPasswordIsRefusedWithoutEchoingIt() throws {
        for text in ["postgresql://ledger:s3cret@db.example/line", "host=db.example password=s3cret dbname=line"] {
            let error = try #require(throws: LedgerError.self) { try PostgresConnInfo(text) }
            #expect(error.code == .cannotOpen && error.message.contains("PGPASSWORD"))
            #expect(!error.message.contains("s3cret") && !error.description.contains("s3cret"))
        }
        #expect(try PostgresConnInfo("postgresql://ledger@db.example/line").redacted.contains("db.example"))
        #expect(
            PostgresConnInfo.isConnInfo("postgresql://db/line") && PostgresConnInfo.isConnInfo("host=/tmp dbname=x"))
        #expect(!PostgresConnInfo.isConnInfo("jobs/ledger.sqlite") && !PostgresConnInfo.isConnInfo("/a=b/l.sqlite"))
    }
}
