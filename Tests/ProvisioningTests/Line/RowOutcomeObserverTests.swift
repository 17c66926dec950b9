import Foundation
import Ledger
import NDEF
import NFCTags
import Synchronization
import TagEmulator
import TestSupport
import Testing

@testable import Provisioning

/// What a worker told, for the test to read: its row outcomes, and a probe's readings taken as they came.
private final class Log<Entry: Sendable>: Sendable {
    private let entries = Mutex<[Entry]>([])
    func add(_ entry: Entry) { entries.withLock { $0.append(entry) } }
    var all: [Entry] { entries.withLock { $0 } }
}

/// Hands the worker the tickets the test holds, one per outcome, in order.
private final class HeldTickets: Sendable {
    private let next = Mutex(0)
    let tickets: [DurabilityTicket]
    init(_ count: Int) { tickets = (0..<count).map { _ in DurabilityTicket() } }
    func take() -> DurabilityTicket {
        let index = next.withLock { index in
            defer { index += 1 }
            return index
        }
        return tickets[index]
    }
}

private func job(_ name: String, chips: Set<TagChip> = [.ntag215]) -> LineJob {
    LineJob(name: name, acceptedChips: chips, lock: false, tries: 1, onFailure: .reuse) { row, _, uid, _ in
        NDEFMessage(records: [NDEFPayload.uri("https://example.com/\(row)?u=\(Hex.compact(uid))")]).bytes
    }
}

/// A ledger with `rows` pending rows of each job in `jobs`, in a new temporary folder (the caller removes it).
private func ledger(_ jobs: [String], rows: Int) async throws -> (ledger: Ledger, folder: URL) {
    let folder = try Fixtures.temporaryDirectory("row-outcomes")
    let ledger = try await Ledger.open(path: folder.appendingPathComponent("ledger.sqlite").path)
    for name in jobs {
        try await ledger.registerJob(name: name, manifestHash: "m", templateHash: "t")
        try await ledger.addRows(
            job: name,
            rows: (1...rows).map { RowInput(row: $0, fields: [:], messageSHA256: [], messageLength: 0) })
    }
    return (ledger, folder)
}

@Suite struct RowOutcomeObserverTests {
    /// The done commit is deferred; while the sync that covers it is held, the done event has fired and the
    /// observer has heard nothing; once the sync ends, it hears the row exactly once, with what it needs.
    @Test func aDoneRowIsToldOnlyOnceItsSyncHasEnded() async throws {
        let (ledger, folder) = try await ledger(["j"], rows: 1)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sync = DurabilityTicket()
        let outcomes = Log<RowOutcome>()
        let events = Log<LineEvent>()
        let reader = try SimulatedReader(spec: ReaderSpec("sim:ntag215?uid=04C00000000001&count=1"))
        var worker = LineWorker(
            reader: reader, name: "s1/sim", ledger: ledger, job: job("j"), events: { events.add($0) },
            outcomes: { outcomes.add($0) })
        worker.durability = { sync }
        #expect(try await worker.run() == .jobComplete)
        #expect(events.all.contains { if case .done(_, _, 1, _) = $0 { true } else { false } })
        #expect(outcomes.all.isEmpty, "the sync is held: the outcome waits")
        sync.complete(.success(()))
        let done = try #require(outcomes.all.first)
        #expect(outcomes.all.count == 1)
        #expect(done.resolution == .done && done.job == "j" && done.row == 1 && done.reader == "s1/sim")
        #expect(done.uid == [0x04, 0xC0, 0x00, 0x00, 0x00, 0x00, 0x01] && !done.resumed && done.tries == 1)
        #expect(done.chip == .ntag215 && done.family == "type2" && done.failure == nil)
        #expect(done.attempt?.outcome == .done && done.attempt?.row == 1 && (done.ledgerMicroseconds ?? -1) >= 0)
        sync.complete(.success(()))
        #expect(outcomes.all.count == 1, "told once")
    }

    /// A sync that fails tells nothing of the outcomes it covered; an outcome whose sync ended first waits for
    /// the earlier one, so the observer hears them in the order they were recorded.
    @Test func aFailedSyncTellsNothingAndOutcomesKeepTheirOrder() async throws {
        let (ledger, folder) = try await ledger(["j"], rows: 2)
        defer { try? FileManager.default.removeItem(at: folder) }
        let held = HeldTickets(2)
        let outcomes = Log<RowOutcome>()
        let reader = try SimulatedReader(spec: ReaderSpec("sim:ntag215?uid=04C00000000010&count=2"))
        var worker = LineWorker(reader: reader, ledger: ledger, job: job("j"), outcomes: { outcomes.add($0) })
        worker.durability = { held.take() }
        #expect(try await worker.run() == .jobComplete)
        held.tickets[1].complete(.success(()))
        #expect(outcomes.all.isEmpty, "row 1's sync has not ended")
        held.tickets[0].complete(.failure(LedgerError(.sqlite, "disk I/O error while syncing", resultCode: .ioError)))
        #expect(outcomes.all.map(\.row) == [2], "row 1 may not be durable: never told")
    }

    /// With the SQLite ledger itself, a done row is told by the sync that covers its deferred commit (the next
    /// claim's, or the background one under identify; the run's last at the end): at the done event the commit
    /// is not yet durable, when the observer hears it, it is.
    @Test(arguments: [false, true])
    func withTheSQLiteLedgerTheObserverHearsADoneRowAfterItsSync(overlaps: Bool) async throws {
        let (ledger, folder) = try await ledger(["j"], rows: 3)
        defer { try? FileManager.default.removeItem(at: folder) }
        let atEvent = Log<Bool>()
        let atOutcome = Log<(row: Int?, durable: Bool)>()
        let reader = try SimulatedReader(spec: ReaderSpec("sim:ntag215?uid=04C00000000020&count=3"))
        var worker = LineWorker(
            reader: reader, ledger: ledger, job: job("j"),
            events: { if case .done = $0 { atEvent.add(ledger.commitDurability().isDurable) } },
            outcomes: { atOutcome.add(($0.row, ledger.commitDurability().isDurable)) })
        worker.claimSync = ClaimSyncPolicy(fixed: overlaps)
        #expect(try await worker.run() == .jobComplete)
        #expect(atEvent.all == [false, false, false], "each done commit is deferred")
        #expect(atOutcome.all.map(\.row) == [1, 2, 3])
        #expect(atOutcome.all.allSatisfy { $0.durable })
    }

    /// Outcomes of immediate writes are told once written: a wrong chip's row back to pending, a duplicate's skip.
    @Test func aFailedTagsRowAndADuplicateAreToldOnceRecorded() async throws {
        let (ledger, folder) = try await ledger(["a", "b"], rows: 1)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcomes = Log<RowOutcome>()
        let wrong = try SimulatedReader(spec: ReaderSpec("sim:ntag215?uid=04C00000000030&count=1"))
        let refused = LineWorker(
            reader: wrong, ledger: ledger, job: job("a", chips: [.ntag213]), outcomes: { outcomes.add($0) })
        #expect(try await refused.run() == .readerExhausted)
        let failed = try #require(outcomes.all.last)
        #expect(failed.resolution == .returnedToPending && failed.row == 1 && failed.failureClass == .wrongChip)
        #expect(failed.chip == .ntag215 && failed.tries == 1 && failed.attempt?.outcome == .failed)
        // The tag is done in job a, then presented to job b: a duplicate, recorded as a skip.
        let right = try SimulatedReader(spec: ReaderSpec("sim:ntag215?uid=04C00000000030&count=1"))
        _ = try await LineWorker(reader: right, ledger: ledger, job: job("a"), outcomes: { outcomes.add($0) }).run()
        let again = try SimulatedReader(spec: ReaderSpec("sim:ntag215?uid=04C00000000030&count=1"))
        _ = try await LineWorker(reader: again, ledger: ledger, job: job("b"), outcomes: { outcomes.add($0) }).run()
        #expect(outcomes.all.map(\.resolution) == [.returnedToPending, .done, .duplicate])
        let duplicate = try #require(outcomes.all.last)
        #expect(duplicate.row == nil && duplicate.previous == RowReference(job: "a", row: 1))
        #expect(duplicate.failureClass == .duplicateUID && duplicate.attempt?.outcome == .skipped)
    }
}
