import Foundation
import Ledger
import TestSupport
import Testing

@testable import Provisioning

/// `TapService` answers `valid` only once the tap's counter is durable, and taps verified at once on one ledger
/// connection share its syncs (group commit; issue 44 item 3).
@Suite struct TapServiceTests {
    static func uid(_ n: Int) -> [UInt8] { [0x04, 0x42, 0x4E, 0x00, 0x00, 0x00, UInt8(n)] }

    @Test func aValidAnswerComesOnlyOnceItsCounterIsSynced() async throws {
        let job = try await SUNJobFixture()
        try await job.markDone()
        let service = TapService(jobs: [
            TapServiceJob(verifier: try job.verifier(), ledger: job.ledger, publicFields: [])
        ])
        let url = try job.tag().tap()
        let syncs = job.ledger.syncCount
        let valid = try await service.verify(url: url)
        #expect(valid.verdict.kind == .valid, "\(valid.verdict.detail)")
        // At the answer: no commit of the connection waits for a sync, and one sync covered the tap's.
        #expect(await job.ledger.unsyncedCommitCount == 0)
        #expect(job.ledger.syncCount == syncs + 1)
        let replayed = try await service.verify(url: url)
        #expect(replayed.verdict.kind == .replayed)
        #expect(job.ledger.syncCount == syncs + 1, "a replayed answer waits for no sync")
    }

    /// Copies of fresh taps of many tags at once through one service and one ledger connection: each tap is `valid`
    /// once, and the valid answers took fewer syncs than there are of them.
    @Test func concurrentValidTapsShareSyncs() async throws {
        let job = try await SUNJobFixture()
        let tags = 24
        let rows = (3...tags).map {
            RowInput(row: $0, fields: SUNJobFixture.fields($0), messageSHA256: [], messageLength: 0)
        }
        try await job.ledger.addRows(job: job.folder.job, rows: rows)
        var urls: [String] = []
        for n in 1...tags {
            try await job.markDone(uid: Self.uid(n))
            urls.append(try job.tag(uid: Self.uid(n), row: n).tap())
        }
        let service = TapService(jobs: [
            TapServiceJob(verifier: try job.verifier(), ledger: job.ledger, publicFields: [])
        ])
        let syncs = job.ledger.syncCount
        let answers = try await withThrowingTaskGroup(of: (String, TapJobVerdict.Kind).self) { group in
            for url in urls {
                for _ in 0..<3 { group.addTask { (url, try await service.verify(url: url).verdict.kind) } }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for url in urls {
            let kinds = answers.filter { $0.0 == url }.map(\.1)
            #expect(kinds.filter { $0 == .valid }.count == 1 && kinds.filter { $0 == .replayed }.count == 2, "\(kinds)")
        }
        let used = job.ledger.syncCount - syncs
        #expect(used >= 1 && used < tags, "\(used) syncs for \(tags) valid taps")
        #expect(await job.ledger.unsyncedCommitCount == 0)
    }

    /// `start(url:)`, `serve`'s path without a task: the same verdicts as `verify(url:)`, the ledger's only for a
    /// message a job's keys made, and no path at all when a job is not keyed.
    @Test func startAnswersAsVerifyDoesWithoutATask() async throws {
        let job = try await SUNJobFixture()
        try await job.markDone()
        let service = TapService(jobs: [
            TapServiceJob(verifier: try job.verifier(), ledger: job.ledger, publicFields: ["sku"])
        ])
        let url = try job.tag().tap()
        func decide(_ url: String) async throws -> TapAnswer {
            guard case .ledger(let decide) = try #require(service.start(url: url)) else {
                throw HarnessError("a genuine tap needs its ledger")
            }
            return try await withCheckedThrowingContinuation { continuation in
                decide { continuation.resume(with: $0) }
            }
        }
        let valid = try await decide(url)
        #expect(valid.verdict.kind == .valid && valid.job == job.folder.job, "\(valid.verdict.detail)")
        #expect(valid.product == ["sku": SUNJobFixture.fields(1)["sku"]], "the public field only")
        #expect(try await decide(url).verdict.kind == .replayed)
        let tampered = url.dropLast() + (url.last == "0" ? "1" : "0")
        guard case .answered(let invalid) = try #require(service.start(url: String(tampered))) else {
            Issue.record("a tampered URL needs no ledger")
            return
        }
        #expect(invalid.verdict.kind == .invalid && invalid.job == nil && invalid.product.isEmpty)
        let mixed = TapService(
            jobs: service.jobs + [
                TapServiceJob(verifier: NotKeyedVerifier(), ledger: job.ledger, publicFields: [])
            ])
        #expect(mixed.start(url: url) == nil, "a job that is not keyed verifies in a task")
    }
}

/// A verifier that is no `TapJobVerifier` (as an NTAG21x job's is not).
private struct NotKeyedVerifier: TapVerifier {
    let job = "other"
    func verify(url: String, ledger: any LedgerStore, at time: Date) async throws(LedgerError) -> TapJobVerdict {
        TapJobVerdict(
            kind: .invalid, uid: nil, counter: nil, row: nil, previousCounter: nil, keyVersions: nil, detail: "never")
    }
}
