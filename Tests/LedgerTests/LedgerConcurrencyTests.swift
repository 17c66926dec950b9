import Foundation
import Testing

@testable import Ledger

/// Several connections and a separate process claiming from one file: no row is handed out twice.
@Suite struct LedgerConcurrencyTests {
    /// Claims until the job runs dry, one new UID per claim; returns the rows claimed.
    static func drain(_ ledger: Ledger, worker: Int) async throws -> [Int] {
        var rows: [Int] = []
        var n = 0
        while true {
            n += 1
            guard
                let claimed = try await ledger.claim(job: "j", reader: "w\(worker)", uid: Sample.uid(worker << 16 | n))
            else { return rows }
            #expect(!claimed.resumed)
            rows.append(claimed.row)
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func fourConnectionsNeverClaimTheSameRow() async throws {
        let folder = try TemporaryFolder()
        let total = 160
        _ = try await Sample.ledger(at: folder.path(), rows: total)
        var ledgers: [Ledger] = []
        for _ in 0..<4 { ledgers.append(try await Ledger.open(path: folder.path())) }
        let perWorker = try await withThrowingTaskGroup(of: [Int].self) { group in
            for (worker, ledger) in ledgers.enumerated() {
                group.addTask { try await Self.drain(ledger, worker: worker + 1) }
            }
            var all: [[Int]] = []
            for try await rows in group { all.append(rows) }
            return all
        }
        let union = perWorker.flatMap { $0 }
        #expect(union.count == total)
        #expect(Set(union) == Set(1...total))
        #expect(perWorker.filter { !$0.isEmpty }.count >= 2, "claims should interleave across connections")
        let check = try await Ledger.open(path: folder.path())
        #expect(try await check.counts(job: "j").claimed == total)
        #expect(try await check.rawQuery("SELECT count(DISTINCT uid) FROM records") == [["\(total)"]])
    }

    @Test(
        .timeLimit(.minutes(5)),
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"),
            "needs the sqlite3 shell"))
    func sqliteShellInAnotherProcessClaimsAlongside() async throws {
        let folder = try TemporaryFolder()
        let total = 120
        let shellClaims = 120
        _ = try await Sample.ledger(at: folder.path(), rows: total)
        var script = ".timeout 10000\n"
        for n in 1...shellClaims {
            script += """
                BEGIN IMMEDIATE;
                UPDATE records SET state = 'claimed', uid = printf('CC%012X', \(n)), claimed_by = 'shell'
                WHERE job = 'j' AND row = (SELECT row FROM records WHERE job = 'j' AND state = 'pending'
                                           ORDER BY row LIMIT 1)
                RETURNING row;
                COMMIT;

                """
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [folder.path()]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let writer = Task.detached {
            input.fileHandleForWriting.write(Data(script.utf8))
            try input.fileHandleForWriting.close()
        }
        let a = try await Ledger.open(path: folder.path())
        let b = try await Ledger.open(path: folder.path())
        async let fromA = Self.drain(a, worker: 1)
        async let fromB = Self.drain(b, worker: 2)
        let swiftRows = try await fromA + fromB
        try await writer.value
        let shellOutput = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let shellErrors = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(shellErrors)")
        let shellRows = shellOutput.split(separator: "\n").compactMap { Int($0) }
        let union = swiftRows + shellRows
        #expect(union.count == total)
        #expect(Set(union) == Set(1...total))
        let shellHeld = try await a.rawQuery("SELECT row FROM records WHERE claimed_by = 'shell' ORDER BY row")
        #expect(shellHeld.compactMap { $0.first.flatMap { $0 }.flatMap { Int($0) } } == shellRows.sorted())
    }
}
