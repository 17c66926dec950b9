import Foundation
import Ledger
import NDEF
import NFCTags
import Provisioning
import Support
import Synchronization
import TagEmulator
import TestSupport
import Testing

/// The test job's row renderer: a URI naming the row and the tag.
private let render: LineJob.Renderer = { row, _, uid, _ in
    NDEFMessage(records: [NDEFPayload.uri("https://example.com/\(row)/\(Hex.compact(uid))")]).bytes
}

/// Provisions `rows` locked tags from UID `04D00000000001` into `store` and returns the ledger.
private func provisioned(_ folder: URL, rows: Int, store: String) async throws -> Ledger {
    let ledger = try await Ledger.open(path: folder.appendingPathComponent("ledger.sqlite").path)
    try await ledger.registerJob(name: "w", manifestHash: "m", templateHash: "t")
    try await ledger.addRows(
        job: "w", rows: (1...rows).map { RowInput(row: $0, fields: [:], messageSHA256: [], messageLength: 0) })
    let job = LineJob(name: "w", acceptedChips: [.ntag215], lock: true, tries: 1, onFailure: .reuse, render: render)
    let reader = try SimulatedReader(spec: ReaderSpec("sim:ntag215?store=\(store)&uid=04D00000000001&count=\(rows)"))
    #expect(try await LineWorker(reader: reader, ledger: ledger, job: job).run() == .jobComplete)
    return ledger
}

/// Collects worker events across the reader's queue.
private final class EventLog: Sendable {
    let events = Mutex<[AuditEvent]>([])
    func add(_ event: AuditEvent) { events.withLock { $0.append(event) } }
    var audited: [TagVerdict] {
        events.withLock { $0.compactMap { if case .audited(_, let verdict) = $0 { verdict } else { nil } } }
    }
}

@Suite(.serialized) struct AuditWorkerTests {
    @Test func provisionedTagsPassAndAFreshTagIsBlankUntilTheReaderIsExhausted() async throws {
        let folder = try Fixtures.temporaryDirectory("audit-worker")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("tags").path
        let ledger = try await provisioned(folder, rows: 2, store: store)
        let reader = try SimulatedReader(spec: ReaderSpec("sim:ntag215?store=\(store)&uid=04D00000000001&count=3"))
        let session = AuditSession(limit: nil)
        let log = EventLog()
        let worker = AuditWorker(
            reader: reader, ledger: ledger, auditor: TagAuditor(job: "w", lockRequired: true), session: session,
            events: { log.add($0) })
        #expect(try await worker.run() == .readerExhausted)
        let statuses = await session.verdicts.map(\.verdict.status)
        #expect(statuses == [.pass, .pass, .blank], "a fresh tag in no job is blank, not unknown")
        #expect(await session.verdicts.map(\.verdict.row) == [1, 2, nil])
        #expect(log.audited.map(\.status) == statuses)
    }

    @Test func aMismatchCarriesTheRowRenderedAgainAndAMatchingTagNothing() async throws {
        let folder = try Fixtures.temporaryDirectory("audit-worker-expected")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("tags").path
        let ledger = try await provisioned(folder, rows: 2, store: store)
        let image = URL(fileURLWithPath: store).appendingPathComponent("04D00000000002.bin")
        var bytes = try [UInt8](Data(contentsOf: image))
        bytes[16 + 2 + 10] ^= 0x20  // "example" → "exampLe": the tag's URI is no longer the row's
        try Data(bytes).write(to: image)
        let reader = try SimulatedReader(spec: ReaderSpec("sim:ntag215?store=\(store)&uid=04D00000000001&count=2"))
        let session = AuditSession(limit: nil)
        var auditor = TagAuditor(job: "w", lockRequired: true)
        auditor.render = render
        let worker = AuditWorker(reader: reader, ledger: ledger, auditor: auditor, session: session)
        #expect(try await worker.run() == .readerExhausted)
        let verdicts = await session.verdicts.map(\.verdict)
        #expect(verdicts.map(\.status) == [.pass, .mismatch])
        #expect(verdicts[0].expected == nil, "a matching tag gets no expected message")
        let uid: [UInt8] = [0x04, 0xD0, 0, 0, 0, 0, 0x02]
        #expect(try verdicts[1].expected == render(2, [:], uid, Date()))
        let found = try NDEFMessage(bytes: try #require(verdicts[1].message)).records.first?.content()
        #expect(found == .uri("https://exampLe.com/2/04D00000000002"))
    }

    @Test func aRowThatNoLongerRendersAsWrittenShowsNoExpectedAndSaysWhy() async throws {
        let folder = try Fixtures.temporaryDirectory("audit-worker-rerendered")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("tags").path
        let ledger = try await provisioned(folder, rows: 1, store: store)
        let image = URL(fileURLWithPath: store).appendingPathComponent("04D00000000001.bin")
        var bytes = try [UInt8](Data(contentsOf: image))
        bytes[16 + 2 + 10] ^= 0x20
        try Data(bytes).write(to: image)
        let reader = try SimulatedReader(spec: ReaderSpec("sim:ntag215?store=\(store)&uid=04D00000000001&count=1"))
        let session = AuditSession(limit: nil)
        var auditor = TagAuditor(job: "w", lockRequired: true)
        auditor.render = { _, _, _, _ in NDEFMessage(records: [.uri("https://changed.example/")]).bytes }
        #expect(
            try await AuditWorker(reader: reader, ledger: ledger, auditor: auditor, session: session).run()
                == .readerExhausted)
        let verdict = try #require(await session.verdicts.first?.verdict)
        #expect(verdict.status == .mismatch && verdict.expected == nil)
        #expect(verdict.detail.hasSuffix("so the expected records are not shown"), "\(verdict.detail)")
    }

    @Test func theCountLimitEndsTheWorker() async throws {
        let folder = try Fixtures.temporaryDirectory("audit-worker-count")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("tags").path
        let ledger = try await provisioned(folder, rows: 3, store: store)
        let reader = try SimulatedReader(spec: ReaderSpec("sim:ntag215?store=\(store)&uid=04D00000000001&count=3"))
        let session = AuditSession(limit: 1)
        let worker = AuditWorker(
            reader: reader, ledger: ledger, auditor: TagAuditor(job: "w", lockRequired: true), session: session)
        #expect(try await worker.run() == .jobComplete)
        #expect(await session.verdicts.count == 1)
    }

    @Test func aStopRequestEndsTheWorkerBeforeAnyTag() async throws {
        let folder = try Fixtures.temporaryDirectory("audit-worker-stop")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("tags").path
        let ledger = try await provisioned(folder, rows: 1, store: store)
        let reader = try SimulatedReader(spec: ReaderSpec("sim:ntag215?store=\(store)&uid=04D00000000001"))
        let session = AuditSession(limit: nil)
        let stop = StopRequest()
        stop.request()
        let worker = AuditWorker(
            reader: reader, ledger: ledger, auditor: TagAuditor(job: "w", lockRequired: true), session: session,
            stop: stop)
        #expect(try await worker.run() == .stopRequested)
        #expect(await session.verdicts.isEmpty)
    }
}
