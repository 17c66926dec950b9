import Foundation
import Ledger
import NDEF
import NFCTags
import Support
import Synchronization
import TagEmulator
import TestSupport
import Testing

@testable import Provisioning

/// A reader that fails chosen poll and release calls (1-based) with `error`, passing the rest to `inner`.
actor HiccupReader: TagReader {
    let inner: any TagReader
    nonisolated let name: String
    nonisolated var capabilities: ReaderCapabilities { inner.capabilities }
    private let failingPolls: Set<Int>
    private let failingReleases: Set<Int>
    private let error: TransportError
    private(set) var polls = 0
    private(set) var releases = 0

    init(_ inner: any TagReader, polls: Set<Int> = [], releases: Set<Int> = [], error: TransportError) {
        self.inner = inner
        self.name = inner.name
        self.failingPolls = polls
        self.failingReleases = releases
        self.error = error
    }

    func poll(timeoutMilliseconds: Int) async throws(TransportError) -> FieldState {
        polls += 1
        if failingPolls.contains(polls) { throw error }
        return try await inner.poll(timeoutMilliseconds: timeoutMilliseconds)
    }

    func withTransceiver<Result: Sendable>(_ body: @Sendable (any Transceiver) throws -> Result) async throws -> Result
    {
        try await inner.withTransceiver(body)
    }

    func release(waitingForRemovalMilliseconds timeoutMilliseconds: Int) async throws(TransportError) -> Bool {
        releases += 1
        if failingReleases.contains(releases) { throw error }
        return try await inner.release(waitingForRemovalMilliseconds: timeoutMilliseconds)
    }
}

/// Hiccup details told to the worker.
private final class HiccupLog: Sendable {
    private let details = Mutex<[String]>([])
    func add(_ detail: String) { details.withLock { $0.append(detail) } }
    var count: Int { details.withLock { $0.count } }
}

@Suite struct ReaderCallsTests {
    private static func calls(_ reader: any TagReader, log: HiccupLog) -> ReaderCalls {
        ReaderCalls(reader: reader, settings: WorkerSettings(), stop: StopRequest(), hiccup: { log.add($0) })
    }

    @Test func hiccupsAreTriedAgainUpToTheLimit() async throws {
        let inner = try SimulatedReader(spec: ReaderSpec("sim:ntag215?count=1"))
        let log = HiccupLog()
        let three = HiccupReader(inner, polls: [1, 2, 3], error: .transport("checksum error"))
        guard case .tag = try await Self.calls(three, log: log).poll() else {
            Issue.record("the fourth try should find the tag")
            return
        }
        #expect(log.count == 3)
        let four = HiccupReader(inner, polls: [1, 2, 3, 4], error: .invalidResponse("short frame"))
        do {
            _ = try await Self.calls(four, log: log).poll()
            Issue.record("four failed tries should stop with the last error")
        } catch let error as TransportError {
            #expect(error == .invalidResponse("short frame"))
        }
        #expect(await four.polls == ReaderCalls.attempts)
        #expect(log.count == 6)
    }

    @Test func otherErrorsStopAtOnce() async throws {
        let inner = try SimulatedReader(spec: ReaderSpec("sim:ntag215?count=1"))
        let log = HiccupLog()
        let lost = HiccupReader(inner, polls: [1], error: .tagLost)
        do {
            _ = try await Self.calls(lost, log: log).poll()
            Issue.record("tagLost is not a hiccup")
        } catch let error as TransportError {
            #expect(error == .tagLost)
        }
        #expect(await lost.polls == 1 && log.count == 0)
    }

    /// The audit worker rides out the hiccups the line worker does: polls and releases that fail
    /// between tags are tried again, shown to the operator, and every tag still gets its verdict.
    @Test func theAuditWorkerRetriesLikeTheLine() async throws {
        let folder = try Fixtures.temporaryDirectory("audit-hiccup")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("tags").path
        let ledger = try await Ledger.open(path: folder.appendingPathComponent("ledger.sqlite").path)
        try await ledger.registerJob(name: "w", manifestHash: "m", templateHash: "t")
        try await ledger.addRows(
            job: "w", rows: (1...3).map { RowInput(row: $0, fields: [:], messageSHA256: [], messageLength: 0) })
        let job = LineJob(name: "w", acceptedChips: [.ntag215], lock: true, tries: 1, onFailure: .reuse) {
            row, _, uid, _ in
            NDEFMessage(records: [NDEFPayload.uri("https://example.com/\(row)/\(Hex.compact(uid))")]).bytes
        }
        let spec = "sim:ntag215?store=\(store)&uid=04D10000000001&count=3"
        let writer = HiccupReader(
            try SimulatedReader(spec: ReaderSpec(spec)), polls: [2], releases: [1], error: .transport("NACK burst"))
        #expect(try await LineWorker(reader: writer, ledger: ledger, job: job).run() == .jobComplete)
        let reader = HiccupReader(
            try SimulatedReader(spec: ReaderSpec(spec)), polls: [1, 3], releases: [2, 3],
            error: .transport("checksum error"))
        let session = AuditSession(limit: nil)
        let hiccups = Mutex(0)
        let worker = AuditWorker(
            reader: reader, ledger: ledger, auditor: TagAuditor(job: "w", lockRequired: true), session: session,
            events: { if case .readerHiccup = $0 { hiccups.withLock { $0 += 1 } } })
        #expect(try await worker.run() == .readerExhausted)
        #expect(await session.verdicts.map(\.verdict.status) == [.pass, .pass, .pass])
        #expect(hiccups.withLock { $0 } == 4)
    }
}
