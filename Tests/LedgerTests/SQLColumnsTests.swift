import Testing

@testable import Ledger

/// Rows are read by column name on both stores, whatever order the statement lists its columns in.
@Suite struct SQLColumnsTests {
    @Test func resolvesNamesOnceAndRefusesAmbiguousOnes() {
        let names = ["job", "row", "state", "row"]
        let columns = SQLColumns(sql: "SELECT …", count: Int32(names.count)) { names[Int($0)] }
        #expect(columns.position(of: "job") == 0)
        #expect(columns.position(of: "state") == 2)
        #expect(columns.position(of: "row") == nil)  // named twice: alias it
        #expect(columns.position(of: "uid") == nil)
    }

    @Test(arguments: StoreKind.allCases) func readsByName(_ kind: StoreKind) async throws {
        let store = try await TestStore.open(kind)
        let sql = "SELECT 'x' AS b, 7 AS a, NULL AS c, 'y' AS d"
        let expected = Reading(a: 7, b: "x", c: nil, d: "y")
        if let ledger = store.ledger as? Ledger {
            #expect(try await ledger.readingByName(sql) == expected)
        } else if let ledger = store.ledger as? PostgresLedger {
            #expect(try await ledger.readingByName(sql) == expected)
        } else {
            Issue.record("unexpected store \(type(of: store.ledger))")
        }
    }

    /// The fixed row `readsByName` reads.
    struct Reading: Equatable {
        var a: Int
        var b: String
        var c: String?
        var d: String?
    }
}

extension SQLLedger {
    /// Reads the test statement's one row by column names, in an order unlike the statement's.
    fileprivate func readingByName(_ sql: String) async throws(LedgerError) -> SQLColumnsTests.Reading? {
        try await perform { () throws(LedgerError) in
            try connection.queryFirst(sql, []) {
                SQLColumnsTests.Reading(
                    a: $0.int("a"), b: $0.text("b"), c: $0.optionalText("c"), d: $0.optionalText("d"))
            }
        }
    }
}
