import Foundation
import TestSupport
import Testing

/// `provision serve` reloads its manifests and keys on SIGHUP: a changed manifest is served from the next request
/// on, and a manifest that no longer loads is refused while the jobs loaded before go on being served.
@Suite struct ServeReloadTests {
    static let uid: [UInt8] = [0x04, 0x5C, 0x11, 0x00, 0x00, 0x00, 0x05]

    @Test func aHangUpServesTheChangedManifestAndABrokenOneLeavesTheServiceAsItWas() async throws {
        let job = try await SUNTapJob()
        try await job.markDone(uid: Self.uid)
        let tag = try job.tag(uid: Self.uid)
        let server = try await ServeProcess(job)
        #expect(try await Self.product(server, tag.tap()) == [:], "no field is public yet")
        // The manifest now marks "sku" public: served after the reload, without a restart.
        let manifest = job.folder.url.appendingPathComponent("job.json")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        let brace = try #require(text.firstIndex(of: "{"))
        let publicSKU = String(text[...brace]) + #" "public": ["sku"],"# + String(text[text.index(after: brace)...])
        try publicSKU.write(to: manifest, atomically: true, encoding: .utf8)
        try await Self.hangUp(server, until: "serve: reloaded on SIGHUP: serving job t")
        #expect(try await Self.product(server, tag.tap()) == ["sku": "SKU-1"])
        // A manifest that does not load: refused, and the jobs loaded before are still served.
        try "{".write(to: manifest, atomically: true, encoding: .utf8)
        try await Self.hangUp(server, until: "serve: reload on SIGHUP refused, still serving the jobs loaded before")
        #expect(try await Self.product(server, tag.tap()) == ["sku": "SKU-1"])
        #expect(try await server.get("/healthz").status == 200)
        try await server.checkAnswersAgainstOpenAPI()
        #expect(try await server.child.stop() == 0)
    }

    /// A fresh tap's answer, which must be `valid`, and its product.
    static func product(_ server: ServeProcess, _ url: String) async throws -> [String: String] {
        let reply = try await server.verify(url)
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: Any])
        #expect(answer["verdict"] as? String == "valid", "\(reply)")
        return try #require(answer["product"] as? [String: String], "\(answer)")
    }

    /// Sends SIGHUP and waits until serve's stderr holds one more line starting with `line`.
    static func hangUp(_ server: ServeProcess, until line: String) async throws {
        let before = server.child.stderr.components(separatedBy: line).count
        kill(server.child.pid, SIGHUP)
        for _ in 0..<3_000 where server.child.stderr.components(separatedBy: line).count == before {
            #expect(server.child.process.isRunning, "serve exited on SIGHUP: \(server.child.stderr)")
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(server.child.stderr.components(separatedBy: line).count > before, "\(server.child.stderr)")
    }
}
