import Foundation
import Ledger
import NDEF
import NFCTags
import Support
import TagEmulator
import TestSupport
import Testing

@testable import Provisioning

/// A simulated reader whose release never sees the tag leave: it waits until the wait is cancelled (a refused
/// tag the operator left on the reader), and says when the first wait begins.
private actor LeftTagReader: TagReader {
    let inner: SimulatedReader
    let waiting: AsyncStream<Void>.Continuation

    init(_ spec: String, waiting: AsyncStream<Void>.Continuation) throws {
        inner = try SimulatedReader(spec: ReaderSpec(spec))
        self.waiting = waiting
    }

    nonisolated var name: String { "left-tag" }
    nonisolated var capabilities: ReaderCapabilities { ReaderCapabilities() }

    func poll(timeoutMilliseconds: Int) async throws(TransportError) -> FieldState {
        try await inner.poll(timeoutMilliseconds: timeoutMilliseconds)
    }

    func withTransceiver<Result: Sendable>(_ body: @Sendable (any Transceiver) throws -> Result) async throws -> Result
    {
        try await inner.withTransceiver(body)
    }

    func release(waitingForRemovalMilliseconds timeoutMilliseconds: Int) async throws(TransportError) -> Bool {
        guard timeoutMilliseconds > 0 else { return false }
        waiting.yield()
        do { try await Task.sleep(for: .seconds(86_400)) } catch {}
        return false
    }
}

/// Issue 40 item 2 with several readers in one run: once one reader finds no row open, the others stop waiting
/// for a tag (or for a refused tag's removal) and end `.jobComplete` too, not as an operator interrupt. A hang
/// fails: the waiting reader has no idle limit and no tag will ever come, so only the guard's operator stop,
/// after `limit`, would end it (`.stopRequested`), which the passing run never races.
@Suite(.serialized, .timeLimit(.minutes(5))) struct JobCompletionTests {
    private static let limit = Duration.seconds(240)

    /// After `limit`, stops the run as the operator would and cancels `tasks`: a hung reader then ends, failing.
    private static func guarding(
        _ stop: StopRequest, _ tasks: [Task<WorkerStop, any Error>] = []
    ) -> Task<Void, any Error> {
        Task {
            try await Task.sleep(for: limit)
            stop.request()
            for task in tasks { task.cancel() }
        }
    }

    private static func job(_ name: String) -> LineJob {
        LineJob(name: name, acceptedChips: [.ntag215], lock: false, tries: 1, onFailure: .reuse) { row, _, uid, _ in
            NDEFMessage(records: [NDEFPayload.uri("https://example.com/\(row)?u=\(Hex.compact(uid))")]).bytes
        }
    }

    private static func ledger(_ name: String, rows: Int) async throws -> (Ledger, URL) {
        let folder = try Fixtures.temporaryDirectory("job-completion")
        let ledger = try await Ledger.open(path: folder.appendingPathComponent("ledger.sqlite").path)
        try await ledger.registerJob(name: name, manifestHash: "m", templateHash: "t")
        try await ledger.addRows(
            job: name, rows: (1...rows).map { RowInput(row: $0, fields: [:], messageSHA256: [], messageLength: 0) })
        return (ledger, folder)
    }

    @Test func aReaderWaitingForATagEndsWhenAnotherFinishesTheLastRow() async throws {
        let (ledger, folder) = try await Self.ledger("c", rows: 3)
        defer { try? FileManager.default.removeItem(at: folder) }
        let operatorStop = StopRequest()
        let stop = operatorStop.scoped()
        // Reader b's first tag arrives after a day; it asks for a tag (rows are open) before reader a starts.
        let (prompted, placeTag) = AsyncStream.makeStream(of: Void.self)
        let waiting = LineWorker(
            reader: try SimulatedReader(spec: ReaderSpec("sim:ntag215?uid=04E80000000001&arrival=86400000")),
            name: "b", ledger: ledger, job: Self.job("c"),
            events: { if case .placeTag = $0 { placeTag.yield() } }, stop: stop)
        let b = Task { try await waiting.run() }
        let guardian = Self.guarding(operatorStop, [b])
        defer { guardian.cancel() }
        for await _ in prompted { break }
        // Reader a has the job's three tags.
        let writer = LineWorker(
            reader: try SimulatedReader(spec: ReaderSpec("sim:ntag215?uid=04E70000000001&count=3")), name: "a",
            ledger: ledger, job: Self.job("c"), stop: stop)
        #expect(try await writer.run() == .jobComplete)
        #expect(try await b.value == .jobComplete)
        #expect(!operatorStop.isRequested, "the job complete is no operator interrupt")
        #expect(try await ledger.counts(job: "c").done == 3)
    }

    @Test func aReaderWaitingForARefusedTagsRemovalEndsWhenAnotherFinishesTheLastRow() async throws {
        let (ledger, folder) = try await Self.ledger("r", rows: 2)
        defer { try? FileManager.default.removeItem(at: folder) }
        let operatorStop = StopRequest()
        let stop = operatorStop.scoped()
        let (waiting, inRemoval) = AsyncStream.makeStream(of: Void.self)
        // Reader b's tag is an NTAG213, refused by the NTAG215 job, and is never taken away.
        let left = try LeftTagReader("sim:ntag213?uid=04E90000000001&count=1", waiting: inRemoval)
        let refusing = LineWorker(reader: left, name: "b", ledger: ledger, job: Self.job("r"), stop: stop)
        let b = Task { try await refusing.run() }
        let guardian = Self.guarding(operatorStop, [b])
        defer { guardian.cancel() }
        for await _ in waiting { break }
        let writer = LineWorker(
            reader: try SimulatedReader(spec: ReaderSpec("sim:ntag215?uid=04EA0000000001&count=2")), name: "a",
            ledger: ledger, job: Self.job("r"), stop: stop)
        #expect(try await writer.run() == .jobComplete)
        #expect(try await b.value == .jobComplete)
        let refused = try await ledger.attempts(job: "r").filter { $0.reader == "b" }
        #expect(refused.map(\.failureClass) == [FailureClass.wrongChip.rawValue])
        #expect(!operatorStop.isRequested, "the job complete is no operator interrupt")
        #expect(try await ledger.counts(job: "r").done == 2)
    }
}
