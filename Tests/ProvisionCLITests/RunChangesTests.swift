import Foundation
import TestSupport
import Testing

/// Issue 27 items 10 and 11: a records file that changed since the job started, and output folders
/// proven writable before the first tag.
@Suite(.serialized) struct RunChangesTests {
    private func run(_ folder: JobFolder, _ extra: [String] = [], uid: String = "04000000000001")
        throws -> ProvisionProcess.Outcome
    {
        try ProvisionProcess.run(
            ["run", "job.json", "--reader", folder.sim(uid: uid, options: "count=2"), "--quiet"] + extra,
            directory: folder.url)
    }

    private func appendRows(_ folder: JobFolder, _ rows: String) throws {
        let csv = folder.url.appendingPathComponent("rows.csv")
        let handle = try FileHandle(forWritingTo: csv)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(rows.utf8))
        try handle.close()
    }

    @Test func rowsAppendedToAStartedJobAreRefusedThenAddedWhenAccepted() throws {
        let folder = try JobFolder(rows: 4)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        #expect(try run(folder).status == 1, "two tags for four rows")
        try appendRows(folder, "SKU-5,Item 5\nSKU-6,Item 6\n")
        let refused = try run(folder, uid: "04000000000011")
        #expect(refused.status == 65 && refused.stderr.contains("--accept-new-rows"), "\(refused.stderr)")
        #expect(try folder.query("SELECT count(*) FROM records") == [["4"]])
        let accepted = try run(folder, ["--accept-new-rows"], uid: "04000000000011")
        #expect(accepted.status == 1, "\(accepted.stderr)")
        #expect(try folder.query("SELECT count(*), max(row) FROM records") == [["6", "6"]])
        let events = try folder.query("SELECT kind, detail FROM events WHERE kind = 'rowsAppended'")
        #expect(events.count == 1 && events.first?[1].hasPrefix("2 row(s) appended") == true, "\(events)")
        // The file now matches what the ledger recorded: the next run needs no flag.
        #expect(try run(folder, uid: "04000000000021").status == 0)
    }

    @Test func aChangedRowIsRefusedEvenWithAcceptNewRowsAndRecordedWithAcceptChanged() throws {
        let folder = try JobFolder(rows: 3)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        #expect(try run(folder).status == 1)
        let csv = "sku,name\nSKU-1,Item 1\nSKU-2,Renamed\nSKU-3,Item 3\n"
        try Data(csv.utf8).write(to: folder.url.appendingPathComponent("rows.csv"))
        let appendOnly = try run(folder, ["--accept-new-rows"], uid: "04000000000011")
        #expect(appendOnly.status == 65, "\(appendOnly.stderr)")
        #expect(appendOnly.stderr.contains("rows.csv:3: row 2 differs"), "\(appendOnly.stderr)")
        let accepted = try run(folder, ["--accept-changed-manifest"], uid: "04000000000011")
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(try folder.query("SELECT count(*) FROM events WHERE kind = 'recordsAccepted'") == [["1"]])
        // Registered rows keep their registered fields.
        let row2 = try folder.query("SELECT fields_json FROM records WHERE row = 2")
        #expect(row2.first?.first?.contains("Item 2") == true, "\(row2)")
    }

    @Test func anUnwritableReportsFolderStopsTheRunBeforeTheFirstTag() throws {
        let folder = try JobFolder(rows: 1, extra: #", "reports": "locked/out""#)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let locked = folder.url.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        // Root ignores mode bits: a file where the folder should be cannot be written by anyone.
        try Data().write(to: locked.appendingPathComponent("out"))
        let outcome = try run(folder)
        #expect(outcome.status == 73, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("reports folder") && outcome.stderr.contains("no tag was touched"))
        #expect(!FileManager.default.fileExists(atPath: folder.store.path), "a tag was presented")
    }
}
