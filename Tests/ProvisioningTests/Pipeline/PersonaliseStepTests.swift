import Crypto
import Foundation
import Ledger
import NDEF
import NFCTags
import Provisioning
import Support
import TagEmulator
import TestSupport
import Testing

/// Keyed NTAG 424 DNA personalisation through the one pipeline, on the emulated chip with a journal in memory:
/// the APDUs a fresh tag costs, what the tag holds afterwards (keys, settings, CC byte, a SUN a phone can
/// verify), a tag whose K0 is not the delivery key, and a tear after every APDU followed by the next
/// presentation (issue 25, "Personalisation order" and "Journaled ChangeKey").
@Suite struct PersonaliseStepTests {
    typealias Journal = MemoryKeyJournal
    static let uid: [UInt8] = [0x04, 0x42, 0x50, 0x00, 0x00, 0x00, 0x09]
    static let jobKeys = NTAG424JobKeys(
        master: SecretKey(id: "brand", bytes: (0..<16).map { UInt8($0 * 11 + 3) }), systemIdentifier: Array("line".utf8)
    )

    /// A SUN URL template (placeholders as pre-flight renders them) and the file settings for `lock`.
    static func job(lock: Manifest.LockMode) throws -> (message: [UInt8], settings: Type4FileSettings) {
        let url = "https://e.io/A1?p=" + String(repeating: "0", count: 32) + "&m=" + String(repeating: "0", count: 16)
        let message = NDEFMessage(records: [.uri(url)]).bytes
        let text = String(decoding: message, as: UTF8.self)
        let picc = try #require(text.range(of: "p=0")).upperBound.utf16Offset(in: text) - 1
        let mac = try #require(text.range(of: "m=0")).upperBound.utf16Offset(in: text) - 1
        let options = DynamicMessageOptions(rights: lock.rights, macCoversMessage: true)
        return (message, SUNLayout(offsets: [.picc: 2 + picc, .mac: 2 + mac], options: options).fileSettings)
    }

    /// One presentation of `emulator`: the journal's history so far goes into the plan.
    static func present(
        _ emulator: Type4Emulator, journal: Journal, lock: Manifest.LockMode = .permanent, resumed: Bool = false
    ) throws -> (TagPipeline.Outcome, Int) {
        let (message, settings) = try job(lock: lock)
        var plan = TagPipeline.Plan(message: message, acceptedChips: [], lock: false, uid: uid)
        plan.personalisation = try NTAG424Personalisation(
            keys: jobKeys, uid: uid, settings: settings, permanent: lock == .permanent, journal: journal,
            history: journal.changes, resumed: resumed)
        let transceiver = EmulatorTransceiver(tag: emulator)
        let outcome = TagPipeline.run(plan, on: transceiver, activation: emulator.activate())
        return (outcome, transceiver.exchanges)
    }

    /// The settings the chip reports for file 02 (GetFileSettings `90 F5`, unauthenticated).
    static func fileSettings(_ emulator: Type4Emulator) throws -> [UInt8] {
        _ = emulator.activate()
        let tag = Type4Tag(transceiver: EmulatorTransceiver(tag: emulator))
        try tag.selectNDEFApplication()
        return try NTAG424Tag(tag).getFileSettings(2)
    }

    /// Every key the tag holds is the job's (version 01), and the chip reports the job's settings.
    static func expectPersonalised(_ emulator: Type4Emulator, lock: Manifest.LockMode, _ label: String) throws {
        let target = try jobKeys.keys(uid: uid)
        for number in 0..<5 {
            let key = try emulator.key(number)
            #expect(key.version == 0x01, "\(label): K\(number) version")
            #expect(
                SecretKey(id: "k", bytes: key.value).fingerprint == target[number].fingerprint, "\(label): K\(number)")
        }
        let settings = try job(lock: lock).settings
        #expect(try fileSettings(emulator) == settings.fileSettingsAnswer(fileSize: 256), "\(label): settings")
        #expect(emulator.image[14] == (lock == .permanent ? 0xFF : 0x00), "\(label): CC NDEF write byte")
    }

    @Test func aFreshTagTakesTwentyOneAPDUsAndItsSUNVerifiesAsAPhoneReadsIt() throws {
        let emulator = try Type4Emulator(chip: .ntag424, uid: Self.uid)
        let journal = Journal()
        let (outcome, exchanges) = try Self.present(emulator, journal: journal)
        #expect(outcome.failure == nil, "\(String(describing: outcome.failure))")
        // GetVersion 3, detection 5, EV2First 2, WriteData body + NLEN, ChangeFileSettings, CC byte, 5 ChangeKeys,
        // SELECT + READ BINARY of the read-back.
        #expect(exchanges == 21)
        #expect(outcome.locked && outcome.keysChanged && outcome.sunCounter == 1)
        #expect(journal.changes.map(\.keyNumber) == [1, 2, 3, 4, 0] && journal.open.isEmpty)
        try Self.expectPersonalised(emulator, lock: .permanent, "fresh")
        // A phone's tap: the URL verifies with K1 and the tag's K2, counter 2 now.
        _ = emulator.activate()
        let phone = Type4Tag(transceiver: EmulatorTransceiver(tag: emulator))
        _ = try phone.detectNDEF()
        let url = try #require(try NDEFMessage(bytes: try phone.readNDEF()).records.first?.wellKnownTypeURIPayload())
        let layout = SUNURLLayout(picc: "p", mac: "m", macInput: .picc)
        let verdict = try #require(
            SUNVerifier.verify(
                url: url.absoluteString, layout: layout, metaReadKey: try Self.jobKeys.metaReadKey(),
                fileReadKey: try Self.jobKeys.fileReadKey(uid: Self.uid)))
        #expect(verdict.isValid && verdict.uid == Self.uid && verdict.counter == 2, "\(verdict.detail)")
    }

    @Test(arguments: [Manifest.LockMode.none, .keys])
    func otherLockModesLeaveTheCCWritableWithTheirRights(lock: Manifest.LockMode) throws {
        let emulator = try Type4Emulator(chip: .ntag424, uid: Self.uid)
        let (outcome, exchanges) = try Self.present(emulator, journal: Journal(), lock: lock)
        #expect(outcome.failure == nil && !outcome.locked && exchanges == 20, "no CC WriteData")
        try Self.expectPersonalised(emulator, lock: lock, "\(lock)")
    }

    @Test func aTagWhoseK0IsNotTheDeliveryKeyIsRefusedBeforeAnythingIsWritten() throws {
        let emulator = try Type4Emulator(chip: .ntag424, uid: Self.uid)
        try emulator.setKey(0, to: (0..<16).map { UInt8($0) }, version: 0x05)
        // The files (CC 32, NDEF 256, proprietary 128 bytes); the trailer after them counts the failed authentication.
        let files = 32 + 256 + 128
        let before = emulator.image.prefix(files)
        let journal = Journal()
        let (outcome, _) = try Self.present(emulator, journal: journal)
        #expect(outcome.failure?.failureClass == .protectFailed, "\(String(describing: outcome.failure))")
        #expect(!outcome.wroteSomething && !outcome.keysChanged && journal.changes.isEmpty)
        #expect(emulator.image.prefix(files) == before)
        #expect(try emulator.key(0).failures == 1, "the refused authentication counts, as on the chip")
    }

    @Test func aTearAfterEveryAPDULeavesKeysTheJournalNamesAndTheNextPresentationFinishes() throws {
        var settledOpen = 0
        for tear in 0..<21 {
            let emulator = try Type4Emulator(chip: .ntag424, uid: Self.uid)
            var faults = TagFaults()
            faults.removedAfterExchanges = tear
            emulator.represent(faults: faults)
            let journal = Journal()
            let (torn, _) = try Self.present(emulator, journal: journal)
            #expect(torn.failure != nil, "torn after \(tear) APDUs")
            #expect(journal.open.count <= 1, "torn after \(tear): at most one change in doubt")
            settledOpen += journal.open.count
            let factory = NTAG424JobKeys.factory
            for number in 0..<5 {
                let held = SecretKey(id: "k", bytes: try emulator.key(number).value).fingerprint
                let named = journal.changes.last { $0.keyNumber == number }
                let candidates = [factory[number].fingerprint] + (named.map { [$0.newFingerprint] } ?? [])
                #expect(candidates.contains(held), "torn after \(tear): K\(number) is a key the journal names")
            }
            emulator.represent()
            let (resumed, _) = try Self.present(emulator, journal: journal, resumed: true)
            #expect(resumed.failure == nil, "torn after \(tear): \(String(describing: resumed.failure))")
            #expect(journal.open.isEmpty && journal.done == [0, 1, 2, 3, 4], "torn after \(tear)")
            try Self.expectPersonalised(emulator, lock: .permanent, "torn after \(tear)")
        }
        #expect(settledOpen >= 5, "tears inside each ChangeKey left an intent to settle")
    }
}
