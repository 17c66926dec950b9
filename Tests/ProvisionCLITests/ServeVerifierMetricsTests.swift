import Foundation
import Ledger
import TestSupport
import Testing

/// `provision serve` on a PostgreSQL ledger logged in as a `verifier` login, which may not read `attempts`: the line
/// metrics come from `provision_line_figures` (docs/serve.md, "Watching it"), with the values the run left; and
/// `/healthz` answers 503 while the ledger server cannot be reached.
@Suite struct ServeVerifierMetricsTests {
    static let uids: [[UInt8]] = (1...2).map { [0x04, 0x5C, 0x13, 0x00, 0x00, 0x00, UInt8($0)] }

    @Test(.timeLimit(.minutes(3))) func aVerifierLoginServesTheLineMetrics() async throws {
        let job = try await SUNTapJob()
        let ledger = try await Ledger.open(path: job.folder.ledger.path)
        try await ledger.markKeyedTagDone(job: job.folder.job, uid: Self.uids[0])
        // Row 2: a failed attempt at another reader first, then done: first-pass yield 1 of 2 rows.
        try await ledger.recordAttempt(
            job: job.folder.job,
            AttemptRecord(
                uid: Self.uids[1], row: 2, reader: "s2/sim1", outcome: .failed, failureClass: "tagLost",
                startedAt: Date(), finishedAt: Date()))
        try await ledger.markKeyedTagDone(job: job.folder.job, uid: Self.uids[1])
        let line = try StationLine.migrated(folder: job.folder)
        let copy = try ProvisionProcess.run(
            ["ledger", "copy", "--from", job.folder.ledger.path, "--to", line.conninfo(line.owner)],
            directory: job.folder.url)
        #expect(copy.status == 0, "\(copy.stderr)")
        // The login cannot read the attempts themselves.
        #expect(try line.sql("SELECT count(*) FROM attempts", as: line.gate).output.contains("permission denied"))
        let server = try await ServeProcess(job, ["--ledger", line.conninfo(line.gate)])
        let text = try await server.get("/metrics").body
        for expected in [
            "provision_serve_ledger_errors_total 0",
            #"provision_line_rows{job="t",state="done"} 2"#, #"provision_line_rows{job="t",state="pending"} 1"#,
            #"provision_line_station_tags_done{job="t",station="s2/sim1"} 0"#,
            #"provision_line_station_tags_done{job="t",station="sim0"} 2"#,
            #"provision_line_first_pass_yield_ratio{job="t"} 0.5"#,
        ] {
            #expect(text.contains(expected + "\n"), "\(expected) not in\n\(text)")
        }
        #expect(text.contains(#"provision_line_tags_per_hour{job="t"} "#))
        let file = try Fixtures.temporaryDirectory("metrics").appendingPathComponent("metrics.txt")
        try Data(text.utf8).write(to: file)
        let check = try await onThread {
            try ClientScript.run("/bin/sh", ["-c", "promtool check metrics < '\(file.path)'"], timeoutSeconds: 60)
        }
        #expect(check.status == 0, "promtool: \(check.stdout)\(check.stderr)")
        #expect(try await server.child.stop() == 0)
    }

    @Test(.timeLimit(.minutes(3))) func healthzIs503WhileTheLedgerServerCannotBeReachedAnd200WhenItIsBack() async throws
    {
        let job = try await SUNTapJob()
        let line = try StationLine.migrated(folder: job.folder)
        let copy = try ProvisionProcess.run(
            ["ledger", "copy", "--from", job.folder.ledger.path, "--to", line.conninfo(line.owner)],
            directory: job.folder.url)
        #expect(copy.status == 0, "\(copy.stderr)")
        let server = try await ServeProcess(job, ["--ledger", line.conninfo(line.gate)])
        let up = try await server.get("/healthz")
        #expect(up.status == 200 && up.body.hasPrefix("ok: "), "\(up)")
        // The server refuses the database's connections and drops serve's: it cannot be reached.
        let postgres = line.admin.replacing("dbname=\(line.database)", with: "dbname=postgres")
        _ = try line.server.query(postgres, "ALTER DATABASE \(line.database) ALLOW_CONNECTIONS false")
        _ = try line.server.query(
            postgres, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(line.database)'")
        let down = try await server.get("/healthz")
        #expect(down.status == 503 && down.body.hasPrefix("unhealthy: "), "\(down)")
        #expect(!down.body.contains(line.database), "no connection details over HTTP: \(down.body)")
        #expect(try await server.get("/metrics").body.contains("provision_serve_ledger_errors_total "))
        _ = try line.server.query(postgres, "ALTER DATABASE \(line.database) ALLOW_CONNECTIONS true")
        // The server is back: serve connects again, without a restart.
        let back = try await server.get("/healthz")
        #expect(back.status == 200 && back.body.hasPrefix("ok: "), "\(back)")
        try await server.checkAnswersAgainstOpenAPI()
        #expect(try await server.child.stop() == 0)
    }
}
