import Foundation
import Ledger
import TestSupport
import Testing

@Test func countersAreAcceptedOnlyWhenTheyRise() async throws {
    let folder = try Fixtures.temporaryDirectory("counters")
    defer { try? FileManager.default.removeItem(at: folder) }
    let ledger = try await Ledger.open(path: folder.appendingPathComponent("l.sqlite").path)
    let uid: [UInt8] = [0x04, 1, 2, 3, 4, 5, 6]
    #expect(try await ledger.lastSeenCounter(job: "j", uid: uid) == nil)
    #expect(try await ledger.acceptCounter(job: "j", uid: uid, counter: 3))
    #expect(try await !ledger.acceptCounter(job: "j", uid: uid, counter: 3))
    #expect(try await !ledger.acceptCounter(job: "j", uid: uid, counter: 2))
    #expect(try await ledger.lastSeenCounter(job: "j", uid: uid) == 3)
    #expect(try await ledger.acceptCounter(job: "j", uid: uid, counter: 4))
    #expect(try await ledger.acceptCounter(job: "other", uid: uid, counter: 1))
    #expect(try await ledger.lastSeenCounter(job: "j", uid: uid) == 4)
}
