import Foundation
import Ledger
import NDEF
import NFCTags
import Synchronization
import TagEmulator
import TestSupport
import Testing

@testable import Provisioning

/// Issue 40 item 2: a station whose open rows are all held by another station's claims stops (or, with
/// `waitsForWork`, says once that it waits); a claim of its own keeps it going, since its tag may come back.
@Suite(.serialized) struct NothingToClaimTests {
    private static func setUp(claimedBy holder: String) async throws -> (Ledger, URL, LineJob) {
        let folder = try Fixtures.temporaryDirectory("nothing-to-claim")
        let ledger = try await Ledger.open(path: folder.appendingPathComponent("ledger.sqlite").path)
        try await ledger.registerJob(name: "n", manifestHash: "m", templateHash: "t")
        try await ledger.addRows(job: "n", rows: [RowInput(row: 1, fields: [:], messageSHA256: [], messageLength: 0)])
        _ = try await ledger.claim(job: "n", reader: holder, uid: [0x04, 0xEE, 0, 0, 0, 0, 1])
        let job = LineJob(name: "n", acceptedChips: [.ntag215], lock: false, tries: 1, onFailure: .reuse) {
            _, _, _, _ in
            NDEFMessage(records: [NDEFPayload.uri("https://example.com/")]).bytes
        }
        return (ledger, folder, job)
    }

    /// Settings under which another station's claim, however recent, is not a tag in progress.
    private static var noGrace: WorkerSettings {
        var settings = WorkerSettings()
        settings.claimInProgressSeconds = 0
        return settings
    }

    @Test func anotherStationsClaimLeavesNothingToClaim() async throws {
        let (ledger, folder, job) = try await Self.setUp(claimedBy: "s2/sim:ntag215")
        defer { try? FileManager.default.removeItem(at: folder) }
        let reader = try SimulatedReader(spec: ReaderSpec("sim:ntag215?uid=04E60000000001&count=5"))
        let worker = LineWorker(
            reader: reader, name: "s1/sim:ntag215", ledger: ledger, job: job, settings: Self.noGrace)
        #expect(try await worker.run() == .nothingToClaim)
        #expect(try await ledger.attempts(job: "n").isEmpty)
    }

    /// A claim just made at another station is a tag in progress there: the station waits for it to finish.
    @Test func aRecentClaimElsewhereIsWaitedForUntilItIsDone() async throws {
        let (ledger, folder, job) = try await Self.setUp(claimedBy: "s2/sim:ntag215")
        defer { try? FileManager.default.removeItem(at: folder) }
        let reader = try SimulatedReader(spec: ReaderSpec("sim:ntag215?uid=04E90000000001&count=0"))
        let worker = LineWorker(reader: reader, name: "s1/sim:ntag215", ledger: ledger, job: job)
        async let stop = worker.run()
        // No tag arrives at s1 (count=0) while s2 finishes its tag.
        let uid: [UInt8] = [0x04, 0xEE, 0, 0, 0, 0, 1]
        _ = try await ledger.markDone(
            job: "n", row: 1, uid: uid,
            tag: TagRecord(
                uid: uid, chip: "ntag215", bytesSHA256: [], byteCount: 0, locked: false, signatureStatus: nil,
                writtenAt: Date()),
            attempt: AttemptRecord(
                uid: uid, row: 1, reader: "s2/sim:ntag215", outcome: .done, startedAt: Date(), finishedAt: Date()))
        #expect(try await stop == .jobComplete)
    }

    @Test func withWaitTheStationIsToldOnceAndGoesOn() async throws {
        let (ledger, folder, job) = try await Self.setUp(claimedBy: "s2/sim:ntag215")
        defer { try? FileManager.default.removeItem(at: folder) }
        let reader = try SimulatedReader(spec: ReaderSpec("sim:ntag215?uid=04E70000000001&count=5"))
        var settings = Self.noGrace
        settings.waitsForWork = true
        let told = Mutex(0)
        let worker = LineWorker(
            reader: reader, name: "s1/sim:ntag215", ledger: ledger, job: job, settings: settings,
            events: { event in if case .waitingForWork = event { told.withLock { $0 += 1 } } })
        #expect(try await worker.run() == .readerExhausted)
        #expect(told.withLock { $0 } == 1)
    }

    @Test func aClaimOfThisStationKeepsItWaitingForThatTag() async throws {
        let (ledger, folder, job) = try await Self.setUp(claimedBy: "s1/sim:ntag215")
        defer { try? FileManager.default.removeItem(at: folder) }
        let reader = try SimulatedReader(spec: ReaderSpec("sim:ntag215?uid=04E80000000001&count=5"))
        let worker = LineWorker(
            reader: reader, name: "s1/sim:ntag215", ledger: ledger, job: job, settings: Self.noGrace)
        #expect(try await worker.run() == .readerExhausted)
    }
}
