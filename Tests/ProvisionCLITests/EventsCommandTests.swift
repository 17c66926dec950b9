import Foundation
import JSONReader
import TestSupport
import Testing

/// `provision events` (docs/events.md) end to end on a ledger file: `run` writes one event a done row, in the
/// done commit; `events` prints them (`--json-lines`, `--since`), and `--follow` sees events another process appends.
@Suite(.serialized) struct EventsCommandTests {
    /// A job folder whose `sku` column is public.
    static func folder(rows: Int) throws -> JobFolder {
        try JobFolder(rows: rows, extra: #", "public": ["sku"]"#)
    }

    /// The JSON objects of `text`'s lines.
    static func objects(_ text: String) throws -> [[String: JSONValue]] {
        try text.split(separator: "\n").map { line in
            guard case .object(let object) = try JSONValue.parse(Array(line.utf8)) else {
                throw HarnessError("not a JSON object: \(line)")
            }
            return object
        }
    }

    @Test func runWritesOneEventADoneRowAndEventsPrintsThem() throws {
        let folder = try Self.folder(rows: 4)
        let run = try ProvisionProcess.run(
            ["run", "job.json", "--reader", folder.sim(uid: "04000000000001"), "--quiet"], directory: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        let listed = try ProvisionProcess.run(["events", "job.json", "--json-lines"], directory: folder.url)
        #expect(listed.status == 0, "\(listed.stderr)")
        let events = try Self.objects(listed.stdout)
        #expect(events.count == 4)
        let uids = Dictionary(
            uniqueKeysWithValues: try folder.query("SELECT row, uid FROM records").map { ($0[0], $0[1]) })
        for (index, event) in events.enumerated() {
            #expect(event["sequence"] == .integer(Int64(index + 1)))
            #expect(event["published"] == .null)
            guard case .object(let payload)? = event["payload"] else { throw HarnessError("no payload: \(event)") }
            let row = index + 1
            #expect(payload["outcome"] == .string("done") && payload["row"] == .integer(Int64(row)))
            #expect(payload["public"] == .object(["sku": .string("SKU-\(row)")]))
            #expect(payload["uid"] == uids[String(row)].map(JSONValue.string))
            #expect(payload["v"] == .integer(1) && payload["job"] == .string("t"))
        }
        #expect(Set(events.compactMap { $0["id"] }).count == 4)
        guard case .string(let second)? = events[1]["id"] else { throw HarnessError("no id: \(events[1])") }
        let since = try ProvisionProcess.run(
            ["events", "job.json", "--json-lines", "--since", second], directory: folder.url)
        #expect(try Self.objects(since.stdout).map { $0["sequence"] } == [.integer(3), .integer(4)])
        let text = try ProvisionProcess.run(["events", "job.json"], directory: folder.url)
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.count == 4 && lines.allSatisfy { $0.contains(" done ") && $0.contains("unpublished") })
        let unknown = try ProvisionProcess.run(["events", "job.json", "--since", "nope"], directory: folder.url)
        #expect(unknown.status == 65 && unknown.stderr.contains("nope"), "\(unknown.stderr)")
    }

    @Test func followPrintsAnEventAnotherProcessAppendsAndEndsCleanlyOnSIGTERM() async throws {
        let folder = try Self.folder(rows: 2)
        let run = try ProvisionProcess.run(
            ["run", "job.json", "--reader", folder.sim(uid: "04000000000001"), "--quiet"], directory: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        let follow = try ProvisionProcess.start(
            ["events", "job.json", "--follow", "--json-lines"], directory: folder.url, name: "follow")
        let output = folder.url.appendingPathComponent("follow.out")
        try await Self.waitForLines(2, in: output)
        let reissue = try ProvisionProcess.run(
            ["reissue", "job.json", "--row", "1", "--reason", "tag crushed", "--by", "ana"], directory: folder.url)
        #expect(reissue.status == 0, "\(reissue.stderr)")
        try await Self.waitForLines(3, in: output)
        follow.signal(SIGTERM)
        let outcome = try await follow.wait()
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let events = try Self.objects(outcome.stdout)
        guard case .object(let payload)? = events.last?["payload"] else { throw HarnessError("\(outcome.stdout)") }
        #expect(payload["outcome"] == .string("reissued") && payload["reissueOf"] == .integer(1))
        #expect(payload["actor"] == .string("ana") && payload["row"] == .integer(3))
    }

    /// Waits (up to a minute) until `file` holds `count` complete lines.
    static func waitForLines(_ count: Int, in file: URL) async throws {
        for _ in 0..<1_200 {
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            if text.filter({ $0 == "\n" }).count >= count { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw HarnessError("\(file.lastPathComponent) never held \(count) lines")
    }
}
