import Foundation
import Ledger
import NDEF
import NFCTags
import Provisioning
import Synchronization
import TagEmulator
import TestSupport
import Testing

/// A simulated reader that behaves like a PC/SC reader whose UID re-read after a cycle finds another
/// tag (`withTransceiver` throws `.tagLost` after the body ran) on the cycles listed in `switchOn`,
/// and records the operator feedback it is asked to show.
private actor SwitchingReader: OperatorFeedbackReader {
    let inner: SimulatedReader
    let switchOn: Set<Int>
    private(set) var cycles = 0
    private(set) var signals: [TagCycleOutcome] = []

    init(_ spec: String, switchOn: Set<Int>) throws {
        inner = try SimulatedReader(spec: ReaderSpec(spec))
        self.switchOn = switchOn
    }

    nonisolated var name: String { "switching" }
    nonisolated var capabilities: ReaderCapabilities { ReaderCapabilities() }

    func poll(timeoutMilliseconds: Int) async throws(TransportError) -> FieldState {
        try await inner.poll(timeoutMilliseconds: timeoutMilliseconds)
    }

    func withTransceiver<Result: Sendable>(_ body: @Sendable (any Transceiver) throws -> Result) async throws -> Result
    {
        cycles += 1
        let result = try await inner.withTransceiver(body)
        if switchOn.contains(cycles) { throw TransportError.tagLost }
        return result
    }

    func release(waitingForRemovalMilliseconds timeoutMilliseconds: Int) async throws(TransportError) -> Bool {
        try await inner.release(waitingForRemovalMilliseconds: timeoutMilliseconds)
    }

    func signal(_ outcome: TagCycleOutcome) async { signals.append(outcome) }
}

private func job(_ name: String) -> LineJob {
    LineJob(name: name, acceptedChips: [.ntag215], lock: false, tries: 2, onFailure: .reuse) { row, _, uid, _ in
        NDEFMessage(records: [NDEFPayload.uri("https://example.com/\(row)?u=\(Hex.compact(uid))")]).bytes
    }
}

/// A ledger with `rows` rows of job `name` in a new temporary folder (the caller removes `folder`).
private func ledger(_ name: String, rows: Int) async throws -> (ledger: Ledger, folder: URL) {
    let folder = try Fixtures.temporaryDirectory("line-switch")
    let ledger = try await Ledger.open(path: folder.appendingPathComponent("ledger.sqlite").path)
    try await ledger.registerJob(name: name, manifestHash: "m", templateHash: "t")
    try await ledger.addRows(
        job: name, rows: (1...rows).map { RowInput(row: $0, fields: [:], messageSHA256: [], messageLength: 0) })
    return (ledger, folder)
}

@Suite(.serialized) struct LineWorkerReaderTests {
    /// Issue 7: a UID switch seen after the write is `tagLost`, never committed; the same UID then
    /// finishes the row it holds. Feedback: pass for each done tag, nothing for the lost cycle.
    @Test func uidSwitchAfterTheCycleIsTagLostAndNeverCommitted() async throws {
        let (ledger, folder) = try await ledger("s", rows: 4)
        defer { try? FileManager.default.removeItem(at: folder) }
        let reader = try SwitchingReader("sim:ntag215?uid=04D00000000000", switchOn: [2])
        #expect(try await LineWorker(reader: reader, ledger: ledger, job: job("s")).run() == .jobComplete)
        let attempts = try await ledger.attempts(job: "s")
        let lost = try #require(attempts.first { $0.failureClass == FailureClass.tagLost.rawValue })
        #expect(lost.outcome == .failed)
        let done = attempts.filter { $0.outcome == .done }
        #expect(done.count == 4)
        #expect(done.filter { $0.uid == lost.uid }.map(\.row) == [lost.row])
        let tags = try await ledger.tags(job: "s")
        #expect(tags.count == 4 && Set(tags.map(\.tag.uid)).count == 4)
        #expect(await reader.signals == Array(repeating: .pass, count: 4))
    }

    @Test func feedbackIsOffWhenTheSettingsSaySo() async throws {
        let (ledger, folder) = try await ledger("n", rows: 2)
        defer { try? FileManager.default.removeItem(at: folder) }
        let reader = try SwitchingReader("sim:ntag215?uid=04D10000000000", switchOn: [])
        let worker = LineWorker(
            reader: reader, ledger: ledger, job: job("n"), settings: WorkerSettings(feedback: false))
        #expect(try await worker.run() == .jobComplete)
        #expect(await reader.signals.isEmpty)
    }

    @Test func refusedTagsGetFailFeedback() async throws {
        let (ledger, folder) = try await ledger("w", rows: 3)
        defer { try? FileManager.default.removeItem(at: folder) }
        let reader = try SwitchingReader("sim:ntag215?uid=04D20000000000&seed=7&faults=wrongchip:0.5", switchOn: [])
        #expect(try await LineWorker(reader: reader, ledger: ledger, job: job("w")).run() == .jobComplete)
        let refused = try await ledger.attempts(job: "w").filter { $0.failureClass == FailureClass.wrongChip.rawValue }
        let signals = await reader.signals
        #expect(!refused.isEmpty, "the seed must bring a wrong chip")
        #expect(signals.filter { $0 == .fail }.count == refused.count)
        #expect(signals.filter { $0 == .pass }.count == 3)
    }
}
