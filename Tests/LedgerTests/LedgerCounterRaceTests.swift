import Foundation
import TestSupport
import Testing

@testable import Ledger

/// Counter checks are atomic on every store (issue 43, item 4): many verifiers accepting the same tap counter at
/// once, on separate connections, move it forward exactly once, for the NTAG21x mirror (`seen_counters`) and the
/// SUN counter (`sun_counters`), on SQLite (one file, several connections) and PostgreSQL (several connections
/// under READ COMMITTED).
@Suite struct LedgerCounterRaceTests {
    static let uid: [UInt8] = [0x04, 0x43, 0x04, 0, 0, 0, 1]
    /// Verifications of one counter at once, spread over `connections` connections.
    static let callers = 16
    static let connections = 8
    static let rounds = 12

    /// `callers` tasks over `ledgers` running `accept` for the same counter at once; returns every verdict.
    static func race<Verdict: Sendable>(
        _ ledgers: [any LedgerStore], _ accept: @escaping @Sendable (any LedgerStore) async throws -> Verdict
    ) async throws -> [Verdict] {
        try await withThrowingTaskGroup(of: Verdict.self) { group in
            for caller in 0..<callers {
                let ledger = ledgers[caller % ledgers.count]
                group.addTask { try await accept(ledger) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// `connections` connections to one fresh store of `kind`.
    static func ledgers(_ kind: StoreKind) async throws -> (TestStore, [any LedgerStore]) {
        let store = try await TestStore.open(kind)
        var ledgers = [store.ledger]
        for index in 1..<connections { ledgers.append(try await store.another(station: "verifier-\(index)")) }
        return (store, ledgers)
    }

    @Test(.timeLimit(.minutes(5)), arguments: StoreKind.allCases)
    func aMirroredCounterVerifiedManyTimesAtOnceIsAcceptedOnce(_ kind: StoreKind) async throws {
        let (_, ledgers) = try await Self.ledgers(kind)
        for round in 1...Self.rounds {
            let counter = round * 3
            let verdicts = try await Self.race(ledgers) {
                try await $0.acceptCounter(job: "j", uid: Self.uid, counter: counter, window: 1000)
            }
            #expect(verdicts.filter { $0 == .accepted }.count == 1, "round \(round): \(verdicts)")
            #expect(verdicts.filter { $0 == .replayed(last: counter) }.count == Self.callers - 1, "round \(round)")
            #expect(try await ledgers[1].lastSeenCounter(job: "j", uid: Self.uid) == counter)
        }
        // Equal and lower are replayed; a jump beyond the window is implausible and stores nothing.
        let last = Self.rounds * 3
        let ledger = ledgers[2]
        for replayed in [last, 1] {
            let verdict = try await ledger.acceptCounter(job: "j", uid: Self.uid, counter: replayed, window: 10)
            #expect(verdict == .replayed(last: last))
        }
        #expect(
            try await ledger.acceptCounter(job: "j", uid: Self.uid, counter: last + 11, window: 10)
                == .implausible(last: last))
        #expect(try await ledger.acceptCounter(job: "j", uid: Self.uid, counter: last + 10, window: 10) == .accepted)
    }

    /// A first tap's jump beyond the window, many times at once, stores nothing; one within it is accepted once.
    @Test(.timeLimit(.minutes(5)), arguments: StoreKind.allCases)
    func aNewTagsFirstCounterIsAcceptedOnceAndAJumpNever(_ kind: StoreKind) async throws {
        let (_, ledgers) = try await Self.ledgers(kind)
        let jumps = try await Self.race(ledgers) {
            try await $0.acceptCounter(job: "j", uid: Self.uid, counter: 0xFF_FFFF, window: 1000)
        }
        #expect(jumps.allSatisfy { $0 == .implausible(last: 0) }, "\(jumps)")
        #expect(try await ledgers[0].lastSeenCounter(job: "j", uid: Self.uid) == nil)
        let firsts = try await Self.race(ledgers) {
            try await $0.acceptCounter(job: "j", uid: Self.uid, counter: 0, window: 1000)
        }
        #expect(firsts.filter { $0 == .accepted }.count == 1, "\(firsts)")
        #expect(firsts.filter { $0 == .replayed(last: 0) }.count == Self.callers - 1)
    }

    @Test(.timeLimit(.minutes(5)), arguments: StoreKind.allCases)
    func aSUNCounterVerifiedManyTimesAtOnceIsRecordedOnce(_ kind: StoreKind) async throws {
        let (store, ledgers) = try await Self.ledgers(kind)
        for round in 1...Self.rounds {
            let counter = round * 2
            let verdicts = try await Self.race(ledgers) {
                try await $0.acceptSUNCounter(job: "j", uid: Self.uid, counter: counter)
            }
            let previous = round == 1 ? nil : counter - 2
            #expect(verdicts.filter { $0 == .accepted(previous: previous) }.count == 1, "round \(round): \(verdicts)")
            #expect(verdicts.filter { $0 == .replayed(highest: counter) }.count == Self.callers - 1, "round \(round)")
        }
        let last = Self.rounds * 2
        let ledger = ledgers[3]
        #expect(try await ledger.acceptSUNCounter(job: "j", uid: Self.uid, counter: last) == .replayed(highest: last))
        #expect(try await ledger.acceptSUNCounter(job: "j", uid: Self.uid, counter: 1) == .replayed(highest: last))
        let next = try await ledger.acceptSUNCounter(job: "j", uid: Self.uid, counter: last + 1)
        #expect(next == .accepted(previous: last))
        let rows = try await store.rawQuery("SELECT counter FROM sun_counters ORDER BY counter")
        #expect(rows == (1...Self.rounds).map { [String($0 * 2)] } + [[String(last + 1)]])
    }
}
