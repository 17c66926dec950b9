import Foundation
import TestSupport
import Testing

@testable import ProvisionCLI

/// `provision serve`'s per-request log line and per-UID bucket, through the real binary and curl.
@Suite struct ServeRequestLogTests {
    static let uid: [UInt8] = [0x04, 0x5C, 0x11, 0x00, 0x00, 0x00, 0x02]

    @Test func aServedTapLogsVerdictJobAndAHashedUIDButNoURLUIDOrPICCData() async throws {
        let job = try await SUNTapJob()
        try await job.markDone(uid: Self.uid)
        let tag = try job.tag(uid: Self.uid)
        let server = try await ServeProcess(job)
        let url = try tag.tap()
        #expect(try await server.verify(url).headers["provision-verdict"] == "valid")
        #expect(try await server.verify(url).headers["provision-verdict"] == "replayed")
        #expect(try await server.get("/healthz").status == 200)
        #expect(try await server.child.stop() == 0)
        let lines = server.child.stderr.split(separator: "\n").filter { $0.hasPrefix("serve: ") && $0.contains(" ms=") }
        #expect(lines.count == 3, "\(server.child.stderr)")
        let valid = try #require(lines.first)
        #expect(valid.hasPrefix("serve: GET /v1/verify 200 verdict=valid job=\(job.folder.job) uid="), "\(valid)")
        let hash = try #require(valid.split(separator: " ").first { $0.hasPrefix("uid=") }?.dropFirst(4))
        #expect(hash.count == 16 && hash.allSatisfy(\.isHexDigit), "\(valid)")
        #expect(lines[1].contains("verdict=replayed") && lines[1].contains("uid=\(hash)"), "one UID, one hash")
        #expect(lines[2].hasPrefix("serve: GET /healthz 200 verdict=- job=- uid=- ms="))
        let stderr = server.child.stderr
        let items = URLComponents(string: url)?.queryItems ?? []
        let picc = items.compactMap(\.value)
        #expect(!picc.isEmpty)
        for secret in picc + ["045C11", "045c11", "http", "%3A"] {
            #expect(!stderr.contains(secret), "the log holds '\(secret)': \(stderr)")
        }
    }

    @Test func aReplayedAnswerOverTheUIDBucketIs429ButAValidTapIsAlwaysAnswered() async throws {
        let job = try await SUNTapJob()
        try await job.markDone(uid: Self.uid)
        let tag = try job.tag(uid: Self.uid)
        let server = try await ServeProcess(job, ["--uid-burst", "2", "--uid-per-minute", "0"])
        let first = try tag.tap()
        #expect(try await server.verify(first).headers["provision-verdict"] == "valid")
        #expect(try await server.verify(first).headers["provision-verdict"] == "replayed")
        let limited = try await server.verify(first)
        #expect(limited.status == 429 && limited.headers["retry-after"] != nil, "\(limited)")
        // A fresh tap of the same tag is still valid (its counter is stored), though the bucket is empty.
        let second = try await server.verify(try tag.tap())
        #expect(second.status == 200 && second.headers["provision-verdict"] == "valid", "\(second)")
        // An invalid URL names no genuine UID, so it has no bucket to be refused by.
        #expect(try await server.get("/v1/verify?url=https%3A%2F%2Fe.io%2Ft%3Fp%3D00").status == 200)
        #expect(try await server.child.stop() == 0)
    }
}
