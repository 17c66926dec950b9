import Crypto
import Foundation
import Ledger
import NDEF
import NFCTags
import Provisioning
import Testing

private let uid: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
private let message: [UInt8] = [0xD1, 0x01, 0x04, 0x55, 0x04, 0x61, 0x2E, 0x62]

private func recorded(_ bytes: [UInt8] = message, locked: Bool = true) -> TagRecord {
    TagRecord(
        uid: uid, chip: "NTAG215", bytesSHA256: Digest.sha256(bytes), byteCount: bytes.count, locked: locked,
        writtenAt: Date())
}

private func locked(_ bytes: [UInt8]?) -> TagReadBack {
    TagReadBack(message: bytes, lock: Type2FamilyTag.lockState(cc3: 0x0F, staticLock: [0xFF, 0xFF]))
}

@Suite struct TagAuditorTests {
    let auditor = TagAuditor(job: "batch", lockRequired: true)

    @Test func sameBytesLockedIsPass() {
        let verdict = auditor.classify(locked(message), recorded: recorded(), row: 7)
        #expect(verdict.status == .pass)
        #expect(verdict.row == 7)
        #expect(verdict.uid == uid)
        #expect(verdict.detail.contains("8 bytes"))
    }

    @Test func inconsistentIdentityIsIdentityMismatchBeforeTheContentUnlessTheJobRecords() {
        var reading = locked(message)
        reading.identityAnomalies = [UIDAnomaly.bcc1(found: 0x05, expected: 0x04).description]
        let verdict = auditor.classify(reading, recorded: recorded(), row: 2)
        #expect(verdict.status == .identityMismatch)
        #expect(verdict.detail.hasPrefix("identity check: BCC1 is 05, expected 04"), "\(verdict.detail)")
        var recording = auditor
        recording.identityCheck = .record
        #expect(recording.classify(reading, recorded: recorded(), row: 2).status == .pass)
    }

    @Test func oneChangedByteIsMismatchWithBothHashes() {
        var changed = message
        changed[7] ^= 0x01
        let verdict = auditor.classify(locked(changed), recorded: recorded(), row: 3)
        #expect(verdict.status == .mismatch)
        #expect(verdict.detail.contains("same length, 8 bytes"))
        let ledgerHash = Hex8.of(Digest.sha256(message))
        #expect(verdict.detail.contains(ledgerHash))
        #expect(verdict.detail.contains(Hex8.of(Digest.sha256(changed))))
    }

    @Test func differentLengthIsNamed() {
        let verdict = auditor.classify(locked(Array(message.prefix(5))), recorded: recorded(), row: 3)
        #expect(verdict.status == .mismatch)
        #expect(verdict.detail.contains("5 bytes read, 8 written"))
    }

    @Test func unreadableNDEFIsMismatchSayingWhy() {
        let reading = TagReadBack(
            message: nil, unreadable: "CC0 is 00, not E1",
            lock: Type2FamilyTag.lockState(cc3: 0x00, staticLock: [0, 0]))
        let verdict = auditor.classify(reading, recorded: recorded(), row: 1)
        #expect(verdict.status == .mismatch)
        #expect(verdict.detail == "NDEF unreadable: CC0 is 00, not E1")
    }

    @Test func contentMismatchWinsOverMissingLock() {
        let reading = TagReadBack(
            message: [0xD0, 0x00, 0x00], lock: Type2FamilyTag.lockState(cc3: 0x00, staticLock: [0, 0]))
        #expect(auditor.classify(reading, recorded: recorded(), row: 1).status == .mismatch)
    }

    @Test(arguments: [
        (UInt8(0x00), [UInt8(0xFF), 0xFF], "CC3 is 00"),
        (UInt8(0x0F), [UInt8(0x00), 0x00], "static lock bytes are 00 00"),
        (UInt8(0x0F), [UInt8(0xFF), 0x0F], "static lock bytes are FF 0F"),
    ])
    func goodContentNotReadOnlyIsUnlocked(cc3: UInt8, lock: [UInt8], named: String) {
        let reading = TagReadBack(message: message, lock: Type2FamilyTag.lockState(cc3: cc3, staticLock: lock))
        #expect(!reading.isLockedReadOnly)
        let verdict = auditor.classify(reading, recorded: recorded(), row: 2)
        #expect(verdict.status == .unlocked)
        #expect(verdict.detail.contains(named))
    }

    @Test func unlockedTagPassesWhenTheJobDoesNotLock() throws {
        let open = TagAuditor(job: "batch", lockRequired: false)
        let reading = TagReadBack(message: message, lock: Type2FamilyTag.lockState(cc3: 0x00, staticLock: [0, 0]))
        #expect(open.classify(reading, recorded: recorded(locked: false), row: 2).status == .pass)
    }

    @Test func refusedPasswordIsAuthFailedNamingTheKeyIDOnly() throws {
        let key = SecretKey(id: "brand", bytes: Array(repeating: 0x5A, count: 32))
        let protected = TagAuditor(job: "batch", lockRequired: false, protectionKey: key)
        var reading = TagReadBack(message: nil)
        reading.authenticationRefused = "PWD_AUTH refused: tag answered NAK 0h"
        let verdict = protected.classify(reading, recorded: recorded(), row: 4)
        #expect(verdict.status == .authFailed && verdict.row == 4)
        #expect(verdict.detail.contains("derived from key brand") && verdict.detail.contains("NAK 0h"))
        #expect(!verdict.detail.contains("5A5A"))
        #expect(try protected.password(for: uid) == TagPassword(key: key, uid: uid))
        #expect(try auditor.password(for: uid) == nil, "no protect key: no PWD_AUTH")
    }

    @Test func ledgerFingerprintOfAnotherKeyIsAuthFailedWithoutTouchingTheTag() {
        let key = SecretKey(id: "brand", bytes: Array(repeating: 0x5A, count: 32))
        let protected = TagAuditor(job: "batch", lockRequired: false, protectionKey: key)
        var record = recorded()
        record.keyID = "brand"
        record.keyFingerprint = "0011223344556677"
        let verdict = protected.keyConflict(record, row: 2)
        #expect(verdict?.status == .authFailed)
        #expect(
            verdict?.detail.contains("0011223344556677") == true && verdict?.detail.contains(key.fingerprint) == true)
        record.keyFingerprint = key.fingerprint
        #expect(protected.keyConflict(record, row: 2) == nil)
        record.keyFingerprint = nil
        #expect(protected.keyConflict(record, row: 2) == nil, "an older ledger without fingerprints: try PWD_AUTH")
        #expect(auditor.keyConflict(record, row: 2) == nil)
    }

    @Test func aRowRecordedWithTheSHA256FingerprintOfBeforeV1IsCheckedAsSuch() {
        let bytes = [UInt8](repeating: 0x5A, count: 32)
        let protected = TagAuditor(
            job: "batch", lockRequired: false, protectionKey: SecretKey(id: "brand", bytes: bytes, kind: .hmac))
        var record = recorded()
        record.keyID = "brand"
        // The same key's fingerprint of the older scheme (first 8 bytes of SHA-256) is no conflict…
        record.keyFingerprint = Hex.compact(Digest.sha256(bytes).prefix(8))
        #expect(protected.keyConflict(record, row: 2) == nil)
        // …another key's is.
        record.keyFingerprint = Hex.compact(Digest.sha256([UInt8](repeating: 0x5B, count: 32)).prefix(8))
        #expect(protected.keyConflict(record, row: 2)?.status == .authFailed)
    }

    @Test func unknownNamesTheOtherJob() {
        let none = auditor.verdictWithoutRecord(uid: uid, others: [])
        #expect(none.status == .unknown && none.row == nil)
        #expect(none.detail == "UID not done in job batch")
        let other = auditor.verdictWithoutRecord(uid: uid, others: [RowReference(job: "badges", row: 4)])
        #expect(other.status == .unknown)
        #expect(other.detail == "UID not done in job batch; it belongs to row 4 of job badges")
    }

    @Test func aNeverWrittenTagInNoJobIsBlankAndAProgrammedStrangerStaysUnknown() {
        let factory = TagReadBack(message: [])
        var unformatted = TagReadBack(message: nil, unreadable: "no CC")
        unformatted.notNDEF = true
        for reading in [factory, TagReadBack(message: [0xD0, 0x00, 0x00]), unformatted] {
            let verdict = auditor.verdictWithoutRecord(uid: uid, others: [], reading: reading)
            #expect(verdict.status == .blank && !verdict.status.isFailure, "\(verdict.detail)")
        }
        let programmed = TagReadBack(message: NDEFMessage(records: [NDEFPayload.uri("https://x.example/1")]).bytes)
        #expect(auditor.verdictWithoutRecord(uid: uid, others: [], reading: programmed).status == .unknown)
        #expect(auditor.verdictWithoutRecord(uid: uid, others: [], reading: programmed).status.isFailure)
        let nak = TagReadBack(message: nil, unreadable: "tag answered NAK 0h to a READ")
        #expect(auditor.verdictWithoutRecord(uid: uid, others: [], reading: nak).status == .unknown)
        let erased = auditor.verdictWithoutRecord(
            uid: uid, others: [RowReference(job: "badges", row: 4)], reading: factory)
        #expect(erased.status == .unknown, "another job's tag read blank is not a spare")
    }
}

/// The first 8 digest bytes as the auditor prints them.
enum Hex8 {
    static func of(_ digest: [UInt8]) -> String {
        digest.prefix(8).map { String(format: "%02X", $0) }.joined()
    }
}

/// Classification of the configuration pages (`protect`, mirror) and of a lock the job did not ask for.
@Suite struct TagAuditorConfigurationTests {
    let key = SecretKey(id: "brand", bytes: Array(repeating: 0x5A, count: 32))
    let settings = ManifestSecurity.Protection(key: "brand", auth0: .ndef, access: .write, authLimit: 5)

    var auditor: TagAuditor { TagAuditor(job: "batch", lockRequired: false, protectionKey: key, protection: settings) }

    func reading(auth0: UInt8, access: UInt8, cc3: UInt8 = 0x00, lock: [UInt8] = [0, 0]) -> TagReadBack {
        var reading = TagReadBack(
            message: message, lock: Type2FamilyTag.lockState(cc3: cc3, staticLock: lock),
            chip: ChipModel.ntag215.tagChip)
        reading.authenticated = true
        reading.configuration = Type2ChipConfiguration(
            Type2Configuration(
                dynamicLock: [0, 0, 0, 0xBD], cfg0: [0x04, 0x00, 0x00, auth0], cfg1: [access, 0x05, 0, 0]),
            chip: .ntag215)
        return reading
    }

    @Test func configurationAsSetPasses() throws {
        let expected = try auditor.expectedConfiguration(uid: uid, mirror: nil)
        #expect(try expected?.protection == ProtectionPlan(settings, key: key, uid: uid))
        let verdict = auditor.classify(
            reading(auth0: 0x04, access: 0x05), recorded: recorded(locked: false), row: 1, expected: expected)
        #expect(verdict.status == .pass, "\(verdict.detail)")
        #expect(verdict.detail.contains("configuration as set") && verdict.detail.contains("password accepted"))
    }

    @Test func protectionOffIsConfigMismatchNamingTheField() throws {
        let expected = try auditor.expectedConfiguration(uid: uid, mirror: nil)
        let verdict = auditor.classify(
            reading(auth0: 0xFF, access: 0x03), recorded: recorded(locked: false), row: 2, expected: expected)
        #expect(verdict.status == .configMismatch)
        #expect(
            verdict.detail == "content matches but AUTH0 expected 04, found FF (protection off); "
                + "AUTHLIM expected 5, found 3 (ACCESS 03)")
    }

    @Test func wrongContentIsStillMismatch() throws {
        var tampered = reading(auth0: 0xFF, access: 0x00)
        tampered.message = [0xD0, 0x00, 0x00]
        let verdict = auditor.classify(
            tampered, recorded: recorded(locked: false), row: 2,
            expected: try auditor.expectedConfiguration(uid: uid, mirror: nil))
        #expect(verdict.status == .mismatch)
    }

    @Test func unreadableConfigurationIsConfigMismatch() throws {
        var unread = reading(auth0: 0x04, access: 0x05)
        unread.configuration = nil
        unread.configurationUnreadable = "tag answered NAK 0h to the READ of the configuration pages"
        let verdict = auditor.classify(
            unread, recorded: recorded(locked: false), row: 2,
            expected: try auditor.expectedConfiguration(uid: uid, mirror: nil))
        #expect(verdict.status == .configMismatch)
        #expect(verdict.detail.contains("configuration pages unreadable: tag answered NAK 0h"))
    }

    @Test func lockedTagOfAJobThatDoesNotLockIsConfigMismatch() {
        let open = TagAuditor(job: "batch", lockRequired: false)
        let verdict = open.classify(locked(message), recorded: recorded(locked: false), row: 3)
        #expect(verdict.status == .configMismatch)
        #expect(
            verdict.detail
                == "content matches but lock expected none, found locked (CC3 0F, static lock bytes FF FF)")
    }

    @Test func missingLockStaysUnlockedAndNamesConfigurationToo() throws {
        let locking = TagAuditor(job: "batch", lockRequired: true, protectionKey: key, protection: settings)
        let verdict = locking.classify(
            reading(auth0: 0xFF, access: 0x05), recorded: recorded(), row: 4,
            expected: try locking.expectedConfiguration(uid: uid, mirror: nil))
        #expect(verdict.status == .unlocked)
        #expect(verdict.detail.contains("CC3 is 00") && verdict.detail.contains("AUTH0 expected 04, found FF"))
    }

    @Test func mirroredWindowIsComparedAsThePlaceholder() throws {
        let prefix: [UInt8] = [0xD1, 0x01, 0x19, 0x55, 0x04]
        let written = prefix + Array("00000000000000x000000".utf8)
        let plan = MirrorPlan(kind: .uidAndCounter, offsetInMessage: prefix.count, messageLength: written.count)
        let mirroring = TagAuditor(job: "batch", lockRequired: false)
        var read = TagReadBack(
            message: prefix + Array("04112233445566x000003".utf8),
            lock: Type2FamilyTag.lockState(cc3: 0, staticLock: [0, 0]), chip: ChipModel.ntag215.tagChip)
        read.configuration = Type2ChipConfiguration(
            Type2Configuration(
                dynamicLock: [0, 0, 0, 0xBD], cfg0: [plan.mirrorByte(keeping: 0), 0, UInt8(plan.page), 0xFF],
                cfg1: [0x10, 5, 0, 0]),
            chip: .ntag215)
        let expected = try mirroring.expectedConfiguration(uid: uid, mirror: plan)
        #expect(expected?.protection == nil)
        let verdict = mirroring.classify(read, recorded: recorded(written, locked: false), row: 5, expected: expected)
        #expect(verdict.status == .pass, "\(verdict.detail)")
        read.message = prefix + Array("0411223344556Fx000003".utf8)
        let other = mirroring.classify(read, recorded: recorded(written, locked: false), row: 5, expected: expected)
        #expect(other.status == .mismatch && other.detail.contains("0411223344556Fx000003"), "\(other.detail)")
    }
}

/// The message the run wrote, shown beside what a mismatching tag holds (`expectedMessage`).
@Suite struct TagAuditorExpectedMessageTests {
    let auditor = TagAuditor(job: "batch", lockRequired: false)

    @Test func theRenderedRowIsExpectedOnlyWhenItIsWhatTheLedgerRecorded() {
        let overwritten = NDEFMessage(records: [.uri("https://other.example/x")]).bytes
        #expect(
            auditor.expectedMessage(rendered: message, recorded: recorded(), read: overwritten, mirror: nil) == message)
        var changed = message
        changed[7] ^= 0x01  // the row renders differently now (template or fields changed): no guess is shown
        #expect(auditor.expectedMessage(rendered: changed, recorded: recorded(), read: overwritten, mirror: nil) == nil)
    }

    @Test func aMirrorWindowTheTagShowsCorrectlyIsCopiedAndAWrongOneKeepsItsPlaceholder() {
        let prefix: [UInt8] = [0xD1, 0x01, 0x19, 0x55, 0x04]
        let written = prefix + Array("00000000000000x000000".utf8)
        let plan = MirrorPlan(kind: .uidAndCounter, offsetInMessage: prefix.count, messageLength: written.count)
        let record = recorded(written, locked: false)
        let shown = prefix + Array("04112233445566x000003".utf8)
        // A window as the chip mirrors it is not a difference: expected shows the tag's own UID and counter there.
        #expect(auditor.expectedMessage(rendered: written, recorded: record, read: shown, mirror: plan) == shown)
        let wrong = prefix + Array("0411223344556Fx000003".utf8)
        #expect(auditor.expectedMessage(rendered: written, recorded: record, read: wrong, mirror: plan) == written)
        #expect(auditor.expectedMessage(rendered: written, recorded: record, read: nil, mirror: plan) == written)
    }
}
