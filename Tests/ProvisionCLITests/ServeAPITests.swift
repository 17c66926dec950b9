import Foundation
import TestSupport
import Testing

@testable import ProvisionCLI

/// `provision serve`'s API v1 through the real binary and curl: verdicts over GET and POST with only the public
/// fields, the verdict header, malformed and oversized requests, `/healthz`, and every answer checked against the
/// served OpenAPI document.
@Suite struct ServeAPITests {
    static let uid: [UInt8] = [0x04, 0x5C, 0x11, 0x00, 0x00, 0x00, 0x02]

    /// The JSON object of a reply's body.
    static func object(_ reply: CurlReply) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: Any], "\(reply)")
    }

    @Test func aTapIsValidThenReplayedAndATamperedOneInvalidShowingOnlyPublicFields() async throws {
        let job = try await SUNTapJob(extra: #", "public": ["sku"]"#)
        try await job.markDone(uid: Self.uid)
        let tag = try job.tag(uid: Self.uid)
        let server = try await ServeProcess(job)
        let url = try tag.tap()
        let valid = try await server.verify(url)
        #expect(valid.status == 200 && valid.headers["provision-verdict"] == "valid", "\(valid)")
        let answer = try Self.object(valid)
        #expect(answer["verdict"] as? String == "valid" && answer["counter"] as? Int == 1, "\(answer)")
        #expect(answer["job"] as? String == "t")
        // The row also holds "name"; only "sku" is public.
        #expect(answer["product"] as? [String: String] == ["sku": "SKU-1"], "\(answer)")
        let replayed = try await server.post(
            "/v1/verify",
            body: String(
                decoding: try JSONSerialization.data(
                    withJSONObject: ["url": url]), as: UTF8.self))
        #expect(replayed.status == 200 && replayed.headers["provision-verdict"] == "replayed", "\(replayed)")
        #expect(try Self.object(replayed)["counter"] as? Int == 1)
        let next = try tag.tap()
        var tampered = next
        let last = tampered.removeLast()
        tampered.append(last == "0" ? "1" : "0")
        let invalid = try await server.verify(tampered)
        #expect(invalid.status == 200 && invalid.headers["provision-verdict"] == "invalid", "\(invalid)")
        let refused = try Self.object(invalid)
        #expect(refused["job"] is NSNull && refused["counter"] is NSNull, "\(refused)")
        #expect((refused["product"] as? [String: String])?.isEmpty == true)
        #expect(!invalid.body.contains("045C11"), "an invalid answer names the UID: \(invalid.body)")
        let later = try await server.verify(next)
        #expect(try Self.object(later)["verdict"] as? String == "valid", "\(later)")
        try await server.checkAnswersAgainstOpenAPI()
        #expect(try await server.child.stop() == 0)
    }

    @Test func malformedAndOversizedRequestsAre400And414And413() async throws {
        let job = try await SUNTapJob()
        let server = try await ServeProcess(job)
        #expect(try await server.get("/v1/verify").status == 400)
        #expect(try await server.get("/v1/verify?url=a&url=b").status == 400)
        #expect(try await server.get("/v1/verify?url=a&other=1").status == 400)
        #expect(try await server.post("/v1/verify", body: "not json").status == 400)
        #expect(try await server.post("/v1/verify", body: #"{"url": 1}"#).status == 400)
        #expect(try await server.post("/v1/verify", body: #"{"url": "a", "more": 1}"#).status == 400)
        let long = "https://e.io/t?p=" + String(repeating: "A", count: 2100)
        #expect(try await server.verify(long).status == 414)
        let inBody = try await server.post("/v1/verify", body: #"{"url": "\#(long)"}"#)
        #expect(inBody.status == 414, "\(inBody)")
        let huge = try await server.post("/v1/verify", body: #"{"url": "\#(String(repeating: "A", count: 5000))"}"#)
        #expect(huge.status == 413, "\(huge)")
        try await server.checkAnswersAgainstOpenAPI()
        #expect(try await server.get("/nowhere").status == 404)
        #expect(try await server.child.stop() == 0)
    }

    @Test func healthzIsOKUntilTheLedgerIsRemovedThen503() async throws {
        let job = try await SUNTapJob()
        let server = try await ServeProcess(job, listen: "unix:" + job.folder.url.appendingPathComponent("s.sock").path)
        let up = try await server.get("/healthz")
        #expect(up.status == 200 && up.body.hasPrefix("ok: "), "\(up)")
        try FileManager.default.removeItem(at: job.folder.ledger)
        let down = try await server.get("/healthz")
        #expect(down.status == 503 && down.body.hasPrefix("unhealthy: "), "\(down)")
        #expect(!down.body.contains(job.folder.url.path), "no paths over HTTP: \(down.body)")
        try await server.checkAnswersAgainstOpenAPI()
        #expect(try await server.child.stop() == 0)
    }

    @Test func rootIsRefusedWithoutAllowRoot() async throws {
        #expect(throws: CLIError.self) { try ServeCommand.refuseRoot(euid: 0, allowed: false) }
        #expect((try? ServeCommand.refuseRoot(euid: 0, allowed: false)) == nil)
        try ServeCommand.refuseRoot(euid: 0, allowed: true)
        try ServeCommand.refuseRoot(euid: 1000, allowed: false)
        do {
            try ServeCommand.refuseRoot(euid: 0, allowed: false)
        } catch {
            #expect(error.exitCode == .noPermission && error.message.contains("--allow-root"))
        }
        // The binary itself, when this test runs as root (it does on the build machine and in CI).
        guard geteuid() == 0 else { return }
        let job = try await SUNTapJob()
        let outcome = try await onThread {
            try ProvisionProcess.run(
                ["serve", "--listen", "tcp:127.0.0.1:0", "--manifest", "job.json"], directory: job.folder.url,
                environment: job.env)
        }
        #expect(outcome.status == 77 && outcome.stderr.contains("--allow-root"), "\(outcome)")
    }

    @Test func aPublicFieldThatIsNotAColumnIsRefusedNamingItsLine() async throws {
        let job = try await SUNTapJob(extra: #", "public": ["sku", "lot"]"#)
        let outcome = try await onThread {
            try ProvisionProcess.run(
                ["serve", "--listen", "tcp:127.0.0.1:0", "--manifest", "job.json", "--allow-root"],
                directory: job.folder.url, environment: job.env)
        }
        #expect(outcome.status == 65, "\(outcome)")
        #expect(outcome.stderr.contains("job.json:") && outcome.stderr.contains("public[1]: 'lot'"), "\(outcome)")
    }
}
