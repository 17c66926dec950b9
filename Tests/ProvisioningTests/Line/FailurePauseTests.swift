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

/// A simulated reader that logs its calls, keeps every released tag in the field for `keepFor` releases
/// (`Int.max`: for ever), and requests `stop` after `stopAfter` releases that found the tag still there.
private actor LoggingReader: TagReader {
    let inner: SimulatedReader
    let keepFor: Int
    let stop: StopRequest?
    let stopAfter: Int
    private var held = 0
    private(set) var log: [String] = []
    private(set) var releases = 0

    init(_ spec: String, keepFor: Int = 0, stop: StopRequest? = nil, stopAfter: Int = .max) throws {
        inner = try SimulatedReader(spec: ReaderSpec(spec))
        self.keepFor = keepFor
        self.stop = stop
        self.stopAfter = stopAfter
    }

    nonisolated var name: String { "logging" }
    nonisolated var capabilities: ReaderCapabilities { ReaderCapabilities() }

    func poll(timeoutMilliseconds: Int) async throws(TransportError) -> FieldState {
        let state = try await inner.poll(timeoutMilliseconds: timeoutMilliseconds)
        if case .tag(let detected) = state { log.append("tag \(Hex.compact(detected.uid))") }
        return state
    }

    func withTransceiver<Result: Sendable>(_ body: @Sendable (any Transceiver) throws -> Result) async throws -> Result
    {
        log.append("exchange")
        return try await inner.withTransceiver(body)
    }

    func release(waitingForRemovalMilliseconds timeoutMilliseconds: Int) async throws(TransportError) -> Bool {
        releases += 1
        if held < keepFor {
            held += 1
            log.append("still there")
            if held >= stopAfter { stop?.request() }
            return false
        }
        held = 0
        log.append("gone")
        return try await inner.release(waitingForRemovalMilliseconds: timeoutMilliseconds)
    }
}

/// Every event a worker sends, for the test to read.
private final class EventLog: Sendable {
    private let events = Mutex<[LineEvent]>([])
    func add(_ event: LineEvent) { events.withLock { $0.append(event) } }
    var all: [LineEvent] { events.withLock { $0 } }
}

private func job(_ name: String, signature: SignatureCheck? = nil, chips: Set<TagChip> = [.ntag215]) -> LineJob {
    LineJob(name: name, acceptedChips: chips, lock: false, tries: 1, onFailure: .reuse, signature: signature) {
        row, _, uid, _ in
        NDEFMessage(records: [NDEFPayload.uri("https://example.com/\(row)?u=\(Hex.compact(uid))")]).bytes
    }
}

/// A ledger with `rows` pending rows of each job in `jobs`, in a new temporary folder (the caller removes it).
private func ledger(_ jobs: [String], rows: Int) async throws -> (ledger: Ledger, folder: URL) {
    let folder = try Fixtures.temporaryDirectory("failure-pause")
    let ledger = try await Ledger.open(path: folder.appendingPathComponent("ledger.sqlite").path)
    for name in jobs {
        try await ledger.registerJob(name: name, manifestHash: "m", templateHash: "t")
        try await ledger.addRows(
            job: name, rows: (1...rows).map { RowInput(row: $0, fields: [:], messageSHA256: [], messageLength: 0) })
    }
    return (ledger, folder)
}

/// Issue 40 item 1: a run of tags failing with one class pauses the reader, whatever the class; idle time counts
/// every tag the job did not finish; a refused tag is released before anything else is tried.
@Suite(.serialized) struct FailurePauseTests {
    @Test func theTrackerCountsARunOfOneClassAndIgnoresNeutralRefusals() {
        let tracker = UsableTagTracker()
        #expect(tracker.failureRun == nil && tracker.lastWasUsable)
        tracker.failed(.signatureInvalid)
        tracker.failed(.signatureInvalid)
        #expect(tracker.failureRun?.failureClass == .signatureInvalid && tracker.failureRun?.count == 2)
        tracker.refused()
        #expect(tracker.failureRun?.count == 2 && !tracker.lastWasUsable, "a tag of this job neither counts nor resets")
        tracker.failed(.wrongChip, chip: .ntag213)
        #expect(tracker.failureRun?.failureClass == .wrongChip && tracker.failureRun?.count == 1)
        #expect(tracker.lastChip == .ntag213)
        tracker.usable()
        #expect(tracker.failureRun == nil && tracker.lastWasUsable)
    }

    /// The reported loop: "signature": {"mode": "require"} with no trust key the simulator's tags verify under.
    @Test func aSignatureNoKeyVerifiesPausesTheReaderAfterFiveTags() async throws {
        let (ledger, folder) = try await ledger(["s"], rows: 3)
        defer { try? FileManager.default.removeItem(at: folder) }
        let events = EventLog()
        let reader = try SimulatedReader(spec: ReaderSpec("sim:ntag215?uid=04E00000000001&count=200"))
        let worker = LineWorker(
            reader: reader, ledger: ledger, job: job("s", signature: SignatureCheck(policy: .require)),
            events: events.add)
        #expect(try await worker.run() == .failurePause(.signatureInvalid))
        let attempts = try await ledger.attempts(job: "s")
        #expect(attempts.count == 5 && attempts.allSatisfy { $0.failureClass == "signatureInvalid" })
        let pause = events.all.compactMap { event -> String? in
            if case .failurePause(_, .signatureInvalid, 5, let cause) = event { return cause }
            return nil
        }
        #expect(pause.count == 1 && pause.first?.contains("check the manifest's trust keys") == true, "\(pause)")
    }

    /// Wrong chips and bad signatures interleaved (seeded): the reader pauses on the first run of three of one class.
    @Test func aChangeOfClassStartsTheRunAgain() async throws {
        let given = ProcessInfo.processInfo.environment["PROVISION_TEST_SEED"].flatMap { UInt64($0) }
        let seed = given ?? 3
        print("FailurePauseTests seed \(seed) (PROVISION_TEST_SEED)")
        let (ledger, folder) = try await ledger(["c"], rows: 3)
        defer { try? FileManager.default.removeItem(at: folder) }
        let reader = try SimulatedReader(
            spec: ReaderSpec("sim:ntag215?uid=04E10000000001&count=400&seed=\(seed)&faults=wrongchip:0.5"))
        let worker = LineWorker(
            reader: reader, ledger: ledger, job: job("c", signature: SignatureCheck(policy: .require)),
            settings: WorkerSettings(maxConsecutiveFailures: 3))
        let stop = try await worker.run()
        let classes = try await ledger.attempts(job: "c").compactMap(\.failureClass)
        // The default seed interleaves both classes before the pause (another seed may not).
        if given == nil { #expect(Set(classes) == ["wrongChip", "signatureInvalid"], "seed \(seed): \(classes)") }
        let last = try #require(classes.last)
        #expect(stop == .failurePause(try #require(FailureClass(rawValue: last))))
        #expect(Array(classes.suffix(3)) == Array(repeating: last, count: 3), "seed \(seed)")
        // No earlier run of three: the pause came at the first.
        let earlier = classes.dropLast(3)
        #expect(!zip(earlier, zip(earlier.dropFirst(), earlier.dropFirst(2))).contains { $0 == $1.0 && $0 == $1.1 })
    }

    /// Tags this job finished, presented again after a resume, count toward no pause; another job's do.
    @Test func duplicatesOfThisJobDoNotCountAndAnotherJobsDo() async throws {
        let (ledger, folder) = try await ledger(["a", "b"], rows: 6)
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try SimulatedReader(spec: ReaderSpec("sim:ntag215?uid=04E20000000001&count=3"))
        #expect(try await LineWorker(reader: first, ledger: ledger, job: job("a")).run() == .readerExhausted)
        let strict = WorkerSettings(maxConsecutiveFailures: 2)
        let again = try SimulatedReader(spec: ReaderSpec("sim:ntag215?uid=04E20000000001&count=20"))
        #expect(
            try await LineWorker(reader: again, ledger: ledger, job: job("a"), settings: strict).run() == .jobComplete)
        #expect(try await ledger.counts(job: "a").done == 6)
        let other = try SimulatedReader(spec: ReaderSpec("sim:ntag215?uid=04E20000000001&count=20"))
        let stop = try await LineWorker(reader: other, ledger: ledger, job: job("b"), settings: strict).run()
        #expect(stop == .failurePause(.duplicateUID))
        #expect(try await ledger.counts(job: "b").done == 0)
    }

    /// `--idle` ends a run whose every tag fails, whatever the class (a refused signature used to count as usable).
    @Test func idleCountsEveryFailedTag() async throws {
        let (ledger, folder) = try await ledger(["i"], rows: 3)
        defer { try? FileManager.default.removeItem(at: folder) }
        let reader = try SimulatedReader(spec: ReaderSpec("sim:ntag215?uid=04E30000000001&count=3000"))
        let worker = LineWorker(
            reader: reader, ledger: ledger, job: job("i", signature: SignatureCheck(policy: .require)),
            settings: WorkerSettings(idleSeconds: 0.2, maxConsecutiveFailures: 0))
        #expect(try await worker.run() == .idle)
        #expect(try await ledger.attempts(job: "i").count < 3000)
    }

    /// A refused tag is released and waited for: nothing is sent to the field again until it is gone.
    @Test func aRefusedTagIsNotTriedAgainUntilItIsRemoved() async throws {
        let (ledger, folder) = try await ledger(["r"], rows: 2)
        defer { try? FileManager.default.removeItem(at: folder) }
        let reader = try LoggingReader("sim:ntag215?uid=04E40000000001&count=3", keepFor: 2)
        let worker = LineWorker(
            reader: reader, ledger: ledger, job: job("r", signature: SignatureCheck(policy: .require)))
        #expect(try await worker.run() == .readerExhausted)
        let log = await reader.log
        #expect(log.filter { $0 == "gone" }.count == 3, "\(log)")
        for (index, entry) in log.enumerated() where entry == "still there" {
            #expect(["still there", "gone"].contains(log[index + 1]), "\(log)")
        }
    }

    /// Issue 40 item 2: after the job's last row the worker ends at once; it never waits for the tag to leave.
    @Test func theLastTagIsNotWaitedFor() async throws {
        let (ledger, folder) = try await ledger(["l"], rows: 1)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stop = StopRequest()
        // The tag never leaves; should the worker wait for it, the reader asks it to stop after three tries.
        let reader = try LoggingReader("sim:ntag215?uid=04E50000000001", keepFor: .max, stop: stop, stopAfter: 3)
        let events = EventLog()
        let worker = LineWorker(reader: reader, ledger: ledger, job: job("l"), events: events.add, stop: stop)
        #expect(try await worker.run() == .jobComplete)
        #expect(await reader.releases == 0)
        // The worker's own request, which ends the run's other readers; the reader never asked for a stop.
        #expect(stop.reason == .jobComplete)
        #expect(events.all.contains { if case .jobCompleteTagLeft = $0 { true } else { false } })
    }
}
