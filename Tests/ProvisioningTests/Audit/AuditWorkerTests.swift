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

/// Provisions `rows` locked tags from UID `04D00000000001` into `store` and returns the ledger.
private func provisioned(_ folder: URL, rows: Int, store: String) async throws -> Ledger {
    let ledger = try await Ledger.open(path: folder.appendingPathComponent("ledger.sqlite").path)
    try await ledger.registerJob(name: "w", manifestHash: "m", templateHash: "t")
    try await ledger.addRows(
        job: "w", rows: (1...rows).map { RowInput(row: $0, fields: [:], messageSHA256: [], messageLength: 0) })
    let job = LineJob(name: "w", acceptedChips: [.ntag215], lock: true, tries: 1, onFailure: .reuse) { row, _, uid, _ in
        NDEFMessage(records: [NDEFPayload.uri("https://example.com/\(row)/\(Hex.compact(uid))")]).bytes
    }
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
