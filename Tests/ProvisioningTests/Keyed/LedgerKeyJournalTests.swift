import Foundation
import Ledger
import NFCTags
import Provisioning
import Support
import TagEmulator
import TestSupport
import Testing

/// The ledger's key journal under a keyed rollout: a change torn by the tag's removal is open in the ledger, and
/// another process settles it from there (issue 25, "Journaled ChangeKey").
@Suite struct LedgerKeyJournalTests {
    let uid: [UInt8] = [0x04, 0x42, 0x4D, 0x00, 0x00, 0x00, 0x07]

    /// The job's keys for the tag: AN10922 from a test master key.
    func target() throws -> [SecretKey] {
        let master = SecretKey(id: "brand", bytes: (0..<16).map { UInt8($0 * 7 + 1) })
        return try NTAG424KeySet(master: master, uid: uid, systemIdentifier: Array("line-7".utf8)).keys
    }

    /// The tag in the field with its NDEF application selected.
    func selected(_ emulator: Type4Emulator) throws -> NTAG424Tag {
        _ = emulator.activate()
        let type4 = Type4Tag(transceiver: EmulatorTransceiver(tag: emulator))
        try type4.selectNDEFApplication()
        return NTAG424Tag(type4)
    }

    func expectTargetKeys(_ emulator: Type4Emulator, _ target: [SecretKey], _ label: String) throws {
        for number in 0..<5 {
            let key = try emulator.key(number)
            #expect(key.version == 0x01, "\(label): K\(number) version")
            #expect(
                SecretKey(id: "k", bytes: key.value).fingerprint == target[number].fingerprint, "\(label): K\(number)")
        }
    }

    @Test func withTheLedgerAsJournalATornK0ChangeIsSettledByTheNextProcess() throws {
        let folder = try Fixtures.temporaryDirectory("rollout-ledger")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("ledger.sqlite").path
        let rollout = NTAG424KeyRollout(current: NTAG424JobKeys.factory, target: try target(), version: 1)
        let emulator = try Type4Emulator(chip: .ntag424, uid: uid)
        var faults = TagFaults()
        faults.removedAfterExchanges = 7  // select, two authentication parts, K1–K4: torn in K0's ChangeKey
        emulator.represent(faults: faults)
        do {
            let journal = LedgerKeyJournal(ledger: try Self.openLedger(path), job: "j")
            let tag = try selected(emulator)
            try rollout.authenticate(tag, keyNumber: 0, new: false)
            #expect(throws: (any Error).self) {
                try rollout.run(on: tag, uid: uid, oldVersion: 0, journal: journal)
            }
        }
        // Another process: the ledger names K0's two candidates; the tag settles which it holds.
        let ledger = try Self.openLedger(path)
        let journal = LedgerKeyJournal(ledger: ledger, job: "j")
        let open = try waitBlocking { try await ledger.unresolvedKeyChanges(job: "j", uid: uid) }
        #expect(open.map(\.keyNumber) == [0])
        emulator.represent()
        let tag = try selected(emulator)
        let settled = try rollout.resolve(open, on: tag, journal: journal)
        if !settled.contains(0) {
            let again = try selected(emulator)
            try rollout.authenticate(again, keyNumber: 0, new: false)
            try rollout.run(on: again, uid: uid, oldVersion: 0, journal: journal, done: [1, 2, 3, 4])
        }
        let versions = try waitBlocking { try await ledger.keyVersions(job: "j", uid: uid) }
        #expect(versions == [0: 1, 1: 1, 2: 1, 3: 1, 4: 1])
        #expect(try waitBlocking { try await ledger.unresolvedKeyChanges(job: "j", uid: uid) }.isEmpty)
        try expectTargetKeys(emulator, rollout.target, "after the ledger-journaled resolution")
    }

    static func openLedger(_ path: String) throws -> Ledger {
        try waitBlocking { try await Ledger.open(path: path) }
    }
}
