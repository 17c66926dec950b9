import Foundation
import TestSupport
import Testing

/// `--json` through the built binary: stdout is exactly one JSON document — the result, or an error
/// document with the same exit code as without `--json` — and human text stays off stdout.
@Suite struct JSONDocumentTests {
    /// Runs `provision` and parses its whole stdout as one JSON object (two documents do not parse).
    private func document(
        _ arguments: [String], status: Int32, directory: URL? = nil, stdin: Data? = nil
    ) throws -> [String: Any] {
        let outcome = try ProvisionProcess.run(arguments, stdin: stdin, directory: directory)
        #expect(outcome.status == status, "\(arguments): \(outcome.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))
        return try #require(object as? [String: Any], "\(arguments): \(outcome.stdout)")
    }

    /// The `error` object of an error document, checked for its exit code and message.
    private func error(_ arguments: [String], status: Int32, directory: URL? = nil) throws -> [String: Any] {
        let object = try document(arguments, status: status, directory: directory)
        #expect(object["version"] as? Int == 2)
        let body = try #require(object["error"] as? [String: Any], "\(arguments)")
        #expect(body["exit"] as? Int == Int(status))
        #expect((body["message"] as? String)?.isEmpty == false)
        return body
    }

    @Test func usageErrorsAreErrorDocuments() throws {
        for arguments in [
            ["readers", "extra", "--json"], ["inspect", "--json", "--timeout", "0"], ["lock", "--json", "--nope"],
            ["write", "--json"], ["run", "--json"], ["audit", "--json"], ["report", "--json"],
            ["release", "job.json", "--json"], ["verify-url", "https://a", "--json"],
            ["ndef", "decode", "a", "b", "--json"],
        ] {
            let body = try error(arguments, status: 64)
            #expect(body["class"] as? String == "usage", "\(arguments)")
        }
        let named = try error(["inspect", "--json", "--timeout", "x"], status: 64)
        #expect(named["field"] as? String == "--timeout")
    }

    @Test func missingInputsAreErrorDocuments() throws {
        let folder = try JobFolder(rows: 1)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        for arguments in [
            ["run", "nope.json", "--json"], ["audit", "job.json", "--json"], ["report", "job.json", "--json"],
            ["release", "job.json", "--row", "1", "--json"],
            ["verify-url", "https://a", "--manifest", "no.json", "--json"],
            ["write", "--json", "missing.json"],
        ] {
            let body = try error(arguments, status: 66, directory: folder.url)
            #expect(body["class"] as? String == "noInput" || body["class"] as? String == "fileMissing", "\(arguments)")
        }
        let write = try error(["write", "--json", "missing.json"], status: 66, directory: folder.url)
        #expect(write["file"] as? String == "missing.json")
    }

    @Test func anUnavailableReaderIsAnErrorDocument() throws {
        let store = try SimStore()
        defer { store.remove() }
        let body = try error(["inspect", "--json", "--reader", store.spec("population=stored")], status: 69)
        #expect(body["class"] as? String == "unavailable")
        let bad = try error(["write", "--json", "--uri", "https://a", "--reader", "sim:ntag999"], status: 64)
        #expect(bad["class"] as? String == "readerSpec")
    }

    @Test func badNDEFInputIsAnErrorDocument() throws {
        let body = try error(["ndef", "decode", "--json"], status: 65)
        #expect(body["class"] as? String == "ndef")
        let decoded = try document(
            ["ndef", "decode", "--json"], status: 0, stdin: Data("D1 01 02 55 04 61".utf8))
        #expect((decoded["records"] as? [[String: Any]])?.first?["type"] as? String == "uri")
    }

    @Test func lockReportsOneDocumentAndKeepsItsPromptOnStderr() throws {
        let store = try SimStore(chip: "ntag213")
        defer { store.remove() }
        let refused = try ProvisionProcess.run(["lock", "--json", "--reader", store.spec()], stdin: Data("no\n".utf8))
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("Type LOCK to continue"))
        let notConfirmed = try #require(
            try JSONSerialization.jsonObject(with: Data(refused.stdout.utf8)) as? [String: Any])
        #expect(notConfirmed["outcome"] as? String == "notConfirmed")
        #expect((notConfirmed["writes"] as? [Any])?.isEmpty == true)
        let locked = try document(["lock", "--json", "--yes", "--reader", store.spec()], status: 0)
        #expect(locked["version"] as? Int == 2 && locked["outcome"] as? String == "locked")
        #expect(locked["uid"] as? String == store.uid)
        let writes = try #require(locked["writes"] as? [[String: Any]])
        #expect(writes.contains { $0["unit"] as? Int == 3 && $0["data"] as? String == "E1 10 12 0F" })
    }

    @Test func runWithRowsLeftPrintsItsSummaryAndReleaseRefusesAPendingRow() throws {
        let folder = try JobFolder(rows: 2)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let one = folder.sim(uid: "04000000000001", options: "count=1")
        let summary = try document(
            ["run", "job.json", "--reader", one, "--quiet", "--json"], status: 1, directory: folder.url)
        #expect(summary["version"] as? Int == 2)
        #expect((summary["rows"] as? [String: Any])?["done"] as? Int == 1)
        #expect((summary["rows"] as? [String: Any])?["pending"] as? Int == 1)
        let pending = try error(["release", "job.json", "--row", "2", "--json"], status: 65, directory: folder.url)
        #expect(pending["class"] as? String == "ledgerInvalidState")
        let report = try document(["report", "job.json", "--json"], status: 0, directory: folder.url)
        #expect((report["rows"] as? [String: Any])?["done"] as? Int == 1)
    }
}
