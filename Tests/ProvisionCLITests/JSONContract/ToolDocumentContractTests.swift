import Foundation
import TestSupport
import Testing

/// The documents of `readers`, `doctor`, `keys diversify`, `verify-url`, `ledger migrate` and `ledger copy`, each
/// run as a user runs it and checked against its schema in docs/schemas (docs/json.md, version 2).
@Suite(.serialized) struct ToolDocumentContractTests {
    @Test func readersListsEveryBackend() throws {
        let object = try JSONContract.check(try ProvisionProcess.run(["readers", "--json"]), schema: "readers")
        #expect((object["readers"] as? [[String: Any]])?.isEmpty == false)
    }

    @Test func doctorListsEveryCheck() throws {
        let outcome = try ProvisionProcess.run(["doctor", "--json"])
        let object = try JSONContract.check(outcome, schema: "doctor", status: outcome.status == 1 ? 1 : 0)
        #expect((object["checks"] as? [[String: Any]])?.isEmpty == false)
    }

    @Test func keysDiversifyNamesTheMasterByFingerprint() throws {
        let object = try JSONContract.check(
            try ProvisionProcess.run(
                ["keys", "diversify", "--master", "env:M", "--input", "04782E21801D80", "--json"],
                environment: ["M": "00112233445566778899AABBCCDDEEFF"]),
            schema: "keys")
        #expect((object["master_fingerprint"] as? String)?.hasPrefix("v1:") == true)
    }

    @Test func verifyURLOfASUNJobGivesTheKeyVersions() async throws {
        let job = try await SUNTapJob()
        let uid: [UInt8] = [0x04, 0x5C, 0x11, 0x00, 0x00, 0x00, 0x01]
        try await job.markDone(uid: uid)
        let object = try JSONContract.check(
            try await job.verify(try job.tag(uid: uid).tap(), ["--json"]), schema: "verify-url")
        #expect(object["key_versions"] as? [String: Int] == ["k0": 1, "k1": 1, "k2": 1, "k3": 1, "k4": 1])
    }

    @Test func ledgerMigrateAndCopy() async throws {
        let folder = try JobFolder(rows: 2, lock: false)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let server = try PostgresTestServer.shared()
        let uri = try server.createDatabase()
        let run = try await onThread {
            try ProvisionProcess.run(
                ["run", "job.json", "--quiet", "--reader", folder.sim(uid: "04570000000001", options: "count=2")],
                directory: folder.url)
        }
        #expect(run.status == 0, "\(run.stderr)")
        let migrate = try await onThread {
            try ProvisionProcess.run(["ledger", "migrate", "--ledger", uri, "--json"], directory: folder.url)
        }
        _ = try JSONContract.check(migrate, schema: "ledger-migrate")
        let copy = try await onThread {
            try ProvisionProcess.run(
                ["ledger", "copy", "--from", "reports/t/ledger.sqlite", "--to", uri, "--json"], directory: folder.url)
        }
        let object = try JSONContract.check(copy, schema: "ledger-copy")
        #expect((object["jobs"] as? [[String: Any]])?.first?["key_changes"] as? Int == 0, "\(object)")
    }
}

/// The contract tests can fail: a camelCase key, a timestamp without milliseconds and zone, and an old version
/// each break the schema.
@Suite struct JSONSchemaCheckTests {
    @Test func aDocumentOffTheContractHasViolations() throws {
        let good = #"{"version": 2, "job": "t", "row": 1, "by": "op", "state": "pending"}"#
        #expect(try JSONSchemaCheck.violations(of: good, schema: "release").isEmpty)
        for bad in [
            #"{"version": 1, "job": "t", "row": 1, "by": "op", "state": "pending"}"#,
            #"{"version": 2, "job": "t", "row": 1, "by": "op", "state": "pending", "claimedBy": "x"}"#,
        ] {
            #expect(try !JSONSchemaCheck.violations(of: bad, schema: "release").isEmpty, "\(bad)")
        }
        let claim =
            #"{"row": 1, "uid": "04", "claimed_by": "s", "claimed_at": "2026-12-06T10:00:00", "stranded": false}"#
        let status =
            #"{"version": 2, "job": "t", "at": "2026-12-06T10:00:00.000Z", "pending": 0, "claimed": 1, "done": 0, "#
            + #""failed": 0, "burned": 0, "stations": [], "tags_per_hour": 0, "eta_seconds": null, "running": false, "#
            + #""window_seconds": 600, "leases": [], "claims": [\#(claim)], "outbox_backlog": 0}"#
        let violations = try JSONSchemaCheck.violations(of: status, schema: "status")
        #expect(violations.count == 1 && violations[0].hasPrefix("claims/0/claimed_at"), "\(violations)")
    }
}
