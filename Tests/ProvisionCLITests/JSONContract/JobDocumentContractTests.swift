import Foundation
import TestSupport
import Testing

/// The documents of the job commands (`validate`, `run`, `report`, `status`, `release`, `audit` and its
/// `audit-<when>.json`), each run as a user runs it on a job folder with simulated tags and checked against its
/// schema in docs/schemas (docs/json.md, version 2).
@Suite struct JobDocumentContractTests {
    /// A three-row job: one wrong chip, two tags done, row 3 left claimed by a station that stopped.
    private static func ranJob() throws -> JobFolder {
        let folder = try JobFolder(rows: 3, lock: false)
        let wrong = try ProvisionProcess.run(
            [
                "run", "job.json", "--quiet", "--reader",
                folder.sim("ntag213", uid: "04540000000001", options: "count=1"),
            ],
            directory: folder.url)
        #expect(wrong.status == 1, "\(wrong.stderr)")
        let right = try ProvisionProcess.run(
            ["run", "job.json", "--quiet", "--reader", folder.sim(uid: "04550000000001", options: "count=2")],
            directory: folder.url)
        #expect(right.status == 1, "rows remain: \(right.stderr)")
        _ = try folder.query(
            "UPDATE records SET state = 'claimed', uid = '04560000000001', claimed_by = 'sim:ntag215', "
                + "claimed_at = '2026-12-06T10:00:00.000Z' WHERE row = 3")
        return folder
    }

    @Test func validateOfAValidAndAnInvalidJob() throws {
        let folder = try JobFolder(rows: 2)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let valid = try JSONContract.check(
            try ProvisionProcess.run(["validate", "job.json", "--json"], directory: folder.url), schema: "validate")
        #expect(valid["valid"] as? Bool == true && valid["valid_rows"] as? Int == 2, "\(valid)")
        let missing = try JSONContract.check(
            try ProvisionProcess.run(["validate", "nope.json", "--json"], directory: folder.url), schema: "validate",
            status: 66)
        #expect(missing["problem_count"] as? Int == 1)
    }

    @Test func runPrintsSummaryJSONWithDataKeysInSnakeCase() throws {
        let folder = try JobFolder(rows: 2, lock: false)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let wrong = try ProvisionProcess.run(
            [
                "run", "job.json", "--json", "--reader",
                folder.sim("ntag213", uid: "04540000000001", options: "count=1"),
            ], directory: folder.url)
        let object = try JSONContract.check(wrong, schema: "summary", status: 1)
        #expect(object["failures_by_class"] as? [String: Int] == ["wrong_chip": 1], "\(object)")
        let file = try String(contentsOf: folder.reports.appendingPathComponent("summary.json"), encoding: .utf8)
        _ = try JSONContract.check(document: file, schema: "summary")
    }

    @Test func reportKeepsTheRowCountsWhereScriptsReadThem() throws {
        let folder = try Self.ranJob()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let object = try JSONContract.check(
            try ProvisionProcess.run(["report", "job.json", "--json"], directory: folder.url), schema: "summary")
        let rows = try #require(object["rows"] as? [String: Int])
        #expect(rows == ["total": 3, "done": 2, "failed": 0, "burned": 0, "claimed": 1, "pending": 0], "\(rows)")
        #expect(object["failures_by_class"] as? [String: Int] == ["wrong_chip": 1], "\(object)")
        #expect((object["phases"] as? [String: Any])?["write"] is [String: Any], "\(object)")
    }

    @Test func statusListsStationsAndClaims() throws {
        let folder = try Self.ranJob()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let object = try JSONContract.check(
            try ProvisionProcess.run(["status", "job.json", "--json"], directory: folder.url), schema: "status")
        let claims = try #require(object["claims"] as? [[String: Any]])
        #expect(claims.count == 1 && claims[0]["claimed_at"] as? String == "2026-12-06T10:00:00.000Z", "\(claims)")
        let stations = try #require(object["stations"] as? [[String: Any]])
        #expect(stations.first?["last_failure"] is [String: Any], "the wrong chip: \(stations)")
    }

    @Test func releaseOfAClaimedRow() throws {
        let folder = try Self.ranJob()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let object = try JSONContract.check(
            try ProvisionProcess.run(
                ["release", "job.json", "--row", "3", "--by", "op", "--note", "stuck", "--json"],
                directory: folder.url),
            schema: "release")
        #expect(object["row"] as? Int == 3 && object["state"] as? String == "pending")
    }

    @Test func auditAndItsJSONFile() async throws {
        let fixture = try await AuditFixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let object = try JSONContract.check(
            try fixture.audit(["--reader", fixture.reader(), "--json"]), schema: "audit")
        #expect((object["counts"] as? [String: Int])?["auth_failed"] == 0, "\(object)")
        let file = try #require(try fixture.auditFiles("json").first)
        _ = try JSONContract.check(document: try String(contentsOf: file, encoding: .utf8), schema: "audit-file")
    }
}
