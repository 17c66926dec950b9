import Foundation
import TestSupport
import Testing

/// Starts `provision` in `folder` and returns the process (stdout/stderr discarded to files).
private func start(_ arguments: [String], in folder: JobFolder) throws -> Process {
    let process = Process()
    process.executableURL = ProvisionProcess.executableURL
    process.arguments = arguments
    process.currentDirectoryURL = folder.url
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(
        forWritingTo: {
            let url = folder.url.appendingPathComponent("stderr-\(UUID().uuidString.prefix(6)).txt")
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            return url
        }())
    try process.run()
    return process
}

/// Waits until the ledger records at least `count` done rows (or the process ends).
private func waitForDone(_ count: Int, in folder: JobFolder, while process: Process) throws {
    let deadline = Date().addingTimeInterval(120)
    while process.isRunning, Date() < deadline {
        if FileManager.default.fileExists(atPath: folder.ledger.path),
            let done = try? folder.query("SELECT count(*) FROM records WHERE state = 'done'").first?.first,
            let value = Int(done), value >= count
        {
            return
        }
        Thread.sleep(forTimeInterval: 0.05)
    }
}

@Suite(.serialized) struct RunResumeTests {
    /// Datasheet timing makes each tag take ~170 ms, so a signal lands mid-job.
    private func spec(_ folder: JobFolder) -> String {
        folder.sim(uid: "04000000000001", options: "timing=datasheet")
    }

    @Test func sigintFinishesTheTagThenStopsAndARerunCompletes() throws {
        let folder = try JobFolder(rows: 30)
        let process = try start(["run", "job.json", "--reader", spec(folder), "--quiet"], in: folder)
        try waitForDone(3, in: folder, while: process)
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        let afterStop = try folder.query("SELECT state, count(*) FROM records GROUP BY state")
        #expect(!afterStop.contains { $0[0] == "claimed" }, "SIGINT lets the tag in progress finish: \(afterStop)")
        let rerun = try ProvisionProcess.run(
            ["run", "job.json", "--reader", spec(folder), "--quiet"], directory: folder.url)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(
            try folder.query("SELECT count(*), count(DISTINCT row), count(DISTINCT uid) FROM tags") == [
                ["30", "30", "30"]
            ])
    }

    @Test func sigkillLosesNothingAndTheClaimedRowFinishesOnItsOwnTag() throws {
        let folder = try JobFolder(rows: 30)
        var kills = 0
        for round in 0..<3 {
            let process = try start(["run", "job.json", "--reader", spec(folder), "--quiet"], in: folder)
            try waitForDone(4 + round * 8, in: folder, while: process)
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                kills += 1
            }
            process.waitUntilExit()
            // Invariants after every kill: no row done twice, no UID on two rows.
            #expect(try folder.query("SELECT count(*) - count(DISTINCT row) FROM tags") == [["0"]])
            #expect(try folder.query("SELECT count(*) FROM records WHERE state = 'claimed' AND uid IS NULL") == [["0"]])
        }
        #expect(kills > 0)
        let claimed = try folder.query("SELECT row, uid FROM records WHERE state = 'claimed'")
        let rerun = try ProvisionProcess.run(
            ["run", "job.json", "--reader", spec(folder), "--quiet"], directory: folder.url)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(
            try folder.query("SELECT count(*), count(DISTINCT row), count(DISTINCT uid) FROM tags") == [
                ["30", "30", "30"]
            ])
        for pair in claimed {
            // A claim left by a kill was finished by the same UID.
            #expect(try folder.query("SELECT uid FROM records WHERE row = \(pair[0])") == [[pair[1]]])
        }
    }
}
