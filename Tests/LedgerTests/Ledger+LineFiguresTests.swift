import Foundation
import TestSupport
import Testing

@testable import Ledger

/// `lineFigures`: the same figures on both stores (one SQL text; a server runs it in `provision_line_figures`), each
/// reader's counts as `stationActivity` gives them, and the first-pass yield by each row's first attempt.
@Test(arguments: StoreKind.allCases) func lineFiguresCountEachReaderAndEachRowsFirstAttempt(_ kind: StoreKind)
    async throws
{
    let store = try await Sample.store(kind, rows: 4)
    let ledger = store.ledger
    let now = Date()
    let old = now.addingTimeInterval(-3_600)
    func attempt(_ row: Int?, _ reader: String, _ outcome: AttemptRecord.Outcome, at: Date) async throws {
        try await ledger.recordAttempt(
            job: "j",
            AttemptRecord(
                uid: Sample.uid(row ?? 9), row: row, reader: reader, outcome: outcome,
                failureClass: outcome == .failed ? "tagLost" : nil, startedAt: at, finishedAt: at))
    }
    try await attempt(1, "r1", .done, at: old)  // row 1: done first time, long ago
    try await attempt(2, "r2", .failed, at: old)  // row 2: failed first, then done at another reader
    try await attempt(2, "r1", .done, at: now)
    try await attempt(3, "r2", .failed, at: now)  // row 3: failed only
    try await attempt(nil, "r2", .failed, at: now)  // no row: not a row attempted
    let figures = try await ledger.lineFigures(job: "j", recentSince: now.addingTimeInterval(-600))
    #expect(figures.rowsAttempted == 3)
    #expect(figures.rowsDoneFirstTime == 1)
    #expect(figures.firstPassYield == 1.0 / 3)
    #expect(figures.stations.map(\.reader) == ["r1", "r2"])
    #expect(figures.stations.map(\.attempts) == [2, 3])
    #expect(figures.stations.map(\.done) == [2, 0])
    #expect(figures.stations.map(\.recentDone) == [1, 0])
    let activity = try await ledger.stationActivity(job: "j", recentSince: now.addingTimeInterval(-600))
    #expect(figures.stations.map(\.firstAt) == activity.map(\.firstAt))
    #expect(figures.stations.map(\.lastAt) == activity.map(\.lastAt))
    let empty = try await ledger.lineFigures(job: "none", recentSince: now)
    #expect(empty == LineFigures(stations: [], rowsAttempted: 0, rowsDoneFirstTime: 0) && empty.firstPassYield == 0)
}
