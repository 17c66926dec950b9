import Crypto
import Foundation
import NFCTags
import Support
import TagEmulator
import TestSupport
import Testing

/// The journaled key rollout on the emulated NTAG 424 DNA: the plain run, and a tear at every APDU of it, after
/// which the next presentation settles the open change with at most two authentications and finishes
/// (issue 25, "Journaled ChangeKey").
@Suite struct NTAG424KeyRolloutTests {
    static let uid: [UInt8] = [0x04, 0x42, 0x4D, 0x00, 0x00, 0x00, 0x07]
    static let factory = (0..<5).map { SecretKey(id: "factory.K\($0)", bytes: [UInt8](repeating: 0, count: 16)) }

    /// The job's keys for the tag: AN10922 from a test master key.
    static func target() throws -> [SecretKey] {
        let master = SecretKey(id: "brand", bytes: (0..<16).map { UInt8($0 * 7 + 1) })
        return try NTAG424KeySet(master: master, uid: uid, systemIdentifier: Array("line-7".utf8)).keys
    }

    typealias MemoryJournal = MemoryKeyJournal

    /// The tag in the field with its NDEF application selected.
    static func selected(_ emulator: Type4Emulator) throws -> NTAG424Tag {
        _ = emulator.activate()
        let type4 = Type4Tag(transceiver: EmulatorTransceiver(tag: emulator))
        try type4.selectNDEFApplication()
        return NTAG424Tag(type4)
    }

    /// One presentation: settle open changes, authenticate with the K0 the journal names, change what is left.
    static func present(_ emulator: Type4Emulator, rollout: NTAG424KeyRollout, journal: MemoryJournal) throws {
        let tag = try selected(emulator)
        _ = try rollout.resolve(journal.open, on: tag, journal: journal)
        guard journal.done.count < 5 else { return }
        try rollout.authenticate(tag, keyNumber: 0, new: journal.done.contains(0))
        try rollout.run(on: tag, uid: uid, oldVersion: 0, journal: journal, done: journal.done)
    }

    static func expectTargetKeys(_ emulator: Type4Emulator, _ target: [SecretKey], _ label: String) throws {
        for number in 0..<5 {
            let key = try emulator.key(number)
            #expect(key.version == 0x01, "\(label): K\(number) version")
            #expect(
                SecretKey(id: "k", bytes: key.value).fingerprint == target[number].fingerprint, "\(label): K\(number)")
        }
    }

    @Test func aCleanRolloutChangesK1ToK4ThenK0AndJournalsEachFirst() throws {
        let emulator = try Type4Emulator(chip: .ntag424, uid: Self.uid)
        let rollout = NTAG424KeyRollout(current: Self.factory, target: try Self.target(), version: 1)
        let journal = MemoryJournal()
        try Self.present(emulator, rollout: rollout, journal: journal)
        #expect(journal.changes.map(\.keyNumber) == [1, 2, 3, 4, 0])
        #expect(journal.changes.allSatisfy { $0.state == .done && $0.newFingerprint != $0.oldFingerprint })
        #expect(journal.changes.map(\.keyID) == (0..<5).map { "brand.K\([1, 2, 3, 4, 0][$0])" })
        try Self.expectTargetKeys(emulator, rollout.target, "clean")
        // The factory K0 no longer opens the tag; the job's does.
        let tag = try Self.selected(emulator)
        #expect(throws: NTAG424Error.self) { try rollout.authenticate(tag, keyNumber: 0, new: false) }
        try rollout.authenticate(try Self.selected(emulator), keyNumber: 0, new: true)
    }

    @Test func aTearAtEveryAPDUIsSettledOnTheNextPresentationAndTheRolloutFinishes() throws {
        let rollout = NTAG424KeyRollout(current: Self.factory, target: try Self.target(), version: 1)
        // Select app, AuthenticateEV2First (2 APDUs), five ChangeKeys.
        let total = 8
        var openSettled = 0
        for tear in 0..<total {
            let emulator = try Type4Emulator(chip: .ntag424, uid: Self.uid)
            var faults = TagFaults()
            faults.removedAfterExchanges = tear
            emulator.represent(faults: faults)
            let journal = MemoryJournal()
            #expect(throws: (any Error).self, "torn after \(tear) APDUs") {
                try Self.present(emulator, rollout: rollout, journal: journal)
            }
            #expect(journal.open.count <= 1, "torn after \(tear): one change at most is in doubt")
            openSettled += journal.open.count
            // Every key the tag holds is one the journal names: old where not done, new where done.
            for number in 0..<5 {
                let held = SecretKey(id: "k", bytes: try emulator.key(number).value).fingerprint
                let named = journal.changes.filter { $0.keyNumber == number }.last
                let candidates = [rollout.current[number].fingerprint] + (named.map { [$0.newFingerprint] } ?? [])
                #expect(candidates.contains(held), "torn after \(tear): K\(number) is a key the ledger can name")
            }
            emulator.represent()
            try Self.present(emulator, rollout: rollout, journal: journal)
            #expect(journal.open.isEmpty && journal.done == [0, 1, 2, 3, 4], "torn after \(tear)")
            try Self.expectTargetKeys(emulator, rollout.target, "torn after \(tear)")
        }
        #expect(openSettled >= 5, "tears inside each of the five ChangeKeys left an open intent to settle")
    }
}
