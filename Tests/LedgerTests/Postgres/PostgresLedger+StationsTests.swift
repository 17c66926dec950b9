import Foundation
import TestSupport
import Testing

@testable import Ledger

/// Station leases on the PostgreSQL store: one live process per station name, renewals, a lease that ran out
/// is lost for good, a released name is free at once; and the job registration lock.
@Suite struct PostgresLedgerStationsTests {
    /// A migrated database and a connection to it.
    private func ledger(station: String = "s1") async throws -> (PostgresLedger, String) {
        let conninfo = try PostgresTestServer.shared().createDatabase()
        _ = try await PostgresLedger.migrate(conninfo: conninfo)
        return (try await PostgresLedger.open(conninfo: conninfo, station: station), conninfo)
    }

    @Test func aSecondLiveProcessWithTheSameStationNameIsRefusedAndAReleasedNameIsFreeAtOnce() async throws {
        let (first, conninfo) = try await ledger()
        let second = try await PostgresLedger.open(conninfo: conninfo, station: "s1")
        let lease = try await first.acquireLease(station: "s1", seconds: 30)
        #expect(lease.isValid)
        let refused = try await #require(throws: LedgerError.self) {
            try await second.acquireLease(station: "s1", seconds: 30)
        }
        #expect(refused.code == .stationTaken && refused.message.contains(lease.instance), "\(refused)")
        // Another name is not affected.
        _ = try await second.acquireLease(station: "s2", seconds: 30)
        #expect(try await first.renewLease(lease))
        try await first.releaseLease(lease)
        #expect(!lease.isValid, "a released lease is not used again")
        let again = try await second.acquireLease(station: "s1", seconds: 30)
        #expect(again.instance != lease.instance)
        let leases = try await second.stationLeases()
        #expect(leases.map(\.name) == ["s1", "s2"] && leases.allSatisfy(\.live))
    }

    @Test func aLeaseThatRanOutIsLostForGoodAndItsNameCanBeTakenOver() async throws {
        let (first, conninfo) = try await ledger()
        let lease = try await first.acquireLease(station: "s1", seconds: 0.3)
        try await Task.sleep(for: .milliseconds(600))
        // The local view ran out too: the line checks it before every claim and first write.
        #expect(!lease.isValid)
        let local = try #require(throws: LedgerError.self) { try lease.check() }
        #expect(local.code == .leaseLost && local.message.contains("stopped without writing"), "\(local)")
        let other = try await PostgresLedger.open(conninfo: conninfo, station: "s1")
        let taken = try await other.acquireLease(station: "s1", seconds: 30)
        // The frozen process wakes and heartbeats: the server refuses, and the lease stays lost.
        #expect(try await first.renewLease(lease) == false)
        #expect(throws: LedgerError.self) { try lease.check() }
        #expect(try await other.stationLeases().first?.instance == taken.instance)
    }

    @Test func aLeaseIsValidUntilItsDurationAfterTheLastRenewalAndALostOneStaysLost() {
        let now = ContinuousClock.now
        let fresh = StationLease(station: "s", instance: "i", duration: .seconds(60), acquiredAt: now)
        #expect(fresh.isValid)
        #expect(throws: Never.self) { try fresh.check() }
        let old = StationLease(station: "s", instance: "i", duration: .seconds(1), acquiredAt: now - .seconds(5))
        #expect(!old.isValid, "acquired 5 s ago for 1 s")
        old.renewed(sentAt: now - .seconds(3))
        #expect(!old.isValid, "renewed 3 s ago for 1 s")
        old.renewed(sentAt: ContinuousClock.now)
        #expect(old.isValid, "a renewal the server accepted revives the local view")
        old.lose("test")
        old.renewed(sentAt: ContinuousClock.now)
        #expect(!old.isValid, "a lost lease stays lost")
        let error = #expect(throws: LedgerError.self) { try old.check() }
        #expect(error?.message.contains("test") == true)
    }

    @Test func takingTheLeaseAgainAsTheSameInstanceIsARetryThatGetsItsOwnLeaseBack() async throws {
        let (first, conninfo) = try await ledger()
        let instance = PostgresLedger.instanceID()
        let lease = try await first.acquireLease(station: "s1", seconds: 30, instance: instance)
        // The answer to the first try was lost with the connection: the same process tries again.
        let again = try await first.acquireLease(station: "s1", seconds: 30, instance: instance)
        #expect(again.instance == lease.instance && again.isValid)
        // Another process is still refused.
        let other = try await PostgresLedger.open(conninfo: conninfo, station: "s1")
        let refused = try await #require(throws: LedgerError.self) {
            try await other.acquireLease(station: "s1", seconds: 30)
        }
        #expect(refused.code == .stationTaken && refused.message.contains(instance), "\(refused)")
    }

    @Test func stationNamesAreCheckedByTheSchema() async throws {
        let (ledger, _) = try await ledger()
        await #expect(throws: LedgerError.self) { try await ledger.acquireLease(station: "a/b", seconds: 5) }
    }

    @Test func theRegistrationLockMakesASecondStationWait() async throws {
        let (first, conninfo) = try await ledger()
        let second = try await PostgresLedger.open(conninfo: conninfo, station: "s2")
        try await first.lockRegistration(job: "j")
        let waited = Task {
            let start = ContinuousClock.now
            try await second.lockRegistration(job: "j")
            try await second.unlockRegistration(job: "j")
            return ContinuousClock.now - start
        }
        try await Task.sleep(for: .milliseconds(300))
        try await first.unlockRegistration(job: "j")
        #expect(try await waited.value >= .milliseconds(250))
    }
}
