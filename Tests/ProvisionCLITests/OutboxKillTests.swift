import Foundation
import TestSupport
import Testing

/// The outbox under SIGKILL (issue 45): `run` is killed at moments spread over a tag's whole cycle (detection,
/// claim, write, verify, lock, the done commit, removal); after every kill each done row has exactly one event,
/// and no event exists for an outcome that did not happen. The event is in the done commit's transaction, so a kill
/// leaves both or neither.
@Suite(.serialized) struct OutboxKillTests {
    /// A done row without exactly one `done` event, or a `done` event whose row is not done by that UID: both empty.
    static let violations = [
        """
        SELECT r.row FROM records r WHERE r.state = 'done'
          AND (SELECT count(*) FROM outbox o WHERE o.job = r.job AND o.row = r.row AND o.outcome = 'done') <> 1
        """,
        """
        SELECT o.sequence FROM outbox o WHERE o.outcome <> 'done' OR NOT EXISTS (
            SELECT 1 FROM records r WHERE r.job = o.job AND r.row = o.row AND r.state = 'done'
              AND instr(o.payload, '"uid":"' || r.uid || '"') > 0)
        """,
    ]

    @Test func everyDoneRowHasExactlyOneEventAfterKillsAcrossATagsCycle() async throws {
        let folder = try JobFolder(rows: 80, extra: #", "public": ["sku"]"#)
        // Datasheet timing: a tag's cycle takes about 170 ms; the kills land 0, 17, 34, … 170 ms after a done
        // commit was seen, so together they hit each step of the next tag's cycle.
        let spec = folder.sim(uid: "04000000000001", options: "timing=datasheet")
        var kills = 0
        for step in 0..<11 {
            let run = try ProvisionProcess.start(
                ["run", "job.json", "--reader", spec], directory: folder.url, name: "run-\(step)")
            let before = try Self.doneRows(folder)
            // Polling, the pause and the kill run on a thread of their own: a test task on the shared pool can be
            // starved for longer than the whole job takes on a loaded machine, and the kill would come too late.
            let delay = useconds_t(17_000 * step)
            guard try await onThread({ Self.killAfterDone(before + 1, in: folder, run: run, delay: delay) }) else {
                let running = run.isRunning
                run.signal(SIGKILL)
                let ended = try await run.wait()
                Issue.record(
                    """
                    run \(step) made no done row after \(before) (still running: \(running); exit \(ended.status); \
                    done rows now \((try? Self.doneRows(folder)) ?? -1)):
                    \(ended.stdout.suffix(2000))\(ended.stderr.suffix(2000))
                    """)
                break
            }
            kills += 1
            _ = try await run.wait()
            for sql in Self.violations {
                #expect(try folder.query(sql).isEmpty, "after kill \(step): \(sql)")
            }
        }
        #expect(kills == 11)
        let rerun = try ProvisionProcess.run(["run", "job.json", "--reader", spec, "--quiet"], directory: folder.url)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        for sql in Self.violations { #expect(try folder.query(sql).isEmpty, "at the end: \(sql)") }
        #expect(try folder.query("SELECT count(*), count(DISTINCT id) FROM outbox") == [["80", "80"]])
    }

    static func doneRows(_ folder: JobFolder) throws -> Int {
        guard FileManager.default.fileExists(atPath: folder.ledger.path) else { return 0 }
        return Int(try folder.query("SELECT count(*) FROM records WHERE state = 'done'").first?.first ?? "0") ?? 0
    }

    /// Waits (up to two minutes, blocking its thread) until the ledger holds `count` done rows, then `delay` µs, then
    /// SIGKILLs `run`; `false` (nothing sent) when the rows never come or `run` ended first.
    static func killAfterDone(
        _ count: Int, in folder: JobFolder, run: ProvisionProcess.Background, delay: useconds_t
    ) -> Bool {
        for _ in 0..<12_000 {
            if (try? doneRows(folder)) ?? 0 >= count {
                usleep(delay)
                run.signal(SIGKILL)
                return true
            }
            guard run.isRunning else { return false }
            usleep(10_000)
        }
        return false
    }
}
