import Foundation
import TestSupport
import Testing

@testable import Ledger

/// The ledger stores the shared ledger tests run against (`@Test(arguments: StoreKind.allCases)`).
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgresql

    var testDescription: String { rawValue }
}

/// One test's ledger store and what keeps it alive: a temporary SQLite file, or a fresh database on the
/// test PostgreSQL server (migrated to the current schema).
struct TestStore: Sendable {
    let kind: StoreKind
    let ledger: any LedgerStore
    /// The SQLite file's folder (SQLite only).
    let folder: TemporaryFolder?
    /// The database's connection string (PostgreSQL only).
    let conninfo: String?

    /// An empty store of `kind`.
    static func open(_ kind: StoreKind) async throws -> TestStore {
        switch kind {
        case .sqlite:
            let folder = try TemporaryFolder()
            return TestStore(
                kind: kind, ledger: try await Ledger.open(path: folder.path()), folder: folder, conninfo: nil)
        case .postgresql:
            let conninfo = try PostgresTestServer.shared().createDatabase()
            _ = try await PostgresLedger.migrate(conninfo: conninfo)
            let ledger = try await PostgresLedger.open(conninfo: conninfo, station: "test-station")
            return TestStore(kind: kind, ledger: ledger, folder: nil, conninfo: conninfo)
        }
    }

    /// Another connection to the same store (another worker or process).
    func another(station: String = "other-station") async throws -> any LedgerStore {
        if let folder { return try await Ledger.open(path: folder.path()) }
        return try await PostgresLedger.open(conninfo: try #require(conninfo), station: station)
    }

    /// Runs fixed SQL on a new connection and returns the rows as text.
    func rawQuery(_ sql: String) async throws -> [[String?]] {
        switch try await another() {
        case let sqlite as Ledger: try await sqlite.rawQuery(sql)
        case let postgres as PostgresLedger: try await postgres.rawQuery(sql)
        default: throw HarnessError("unknown store")
        }
    }
}

extension Sample {
    /// A store of `kind` with job `j` registered and rows `1...count` pending.
    static func store(_ kind: StoreKind, rows count: Int) async throws -> TestStore {
        let store = try await TestStore.open(kind)
        try await store.ledger.registerJob(name: "j", manifestHash: manifestHash, templateHash: templateHash)
        try await store.ledger.addRows(job: "j", rows: rows(1...count))
        return store
    }
}
