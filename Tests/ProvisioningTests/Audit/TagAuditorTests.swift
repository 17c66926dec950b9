import Crypto
import Foundation
import Ledger
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
    TagReadBack(message: bytes, cc3: 0x0F, staticLock: [0xFF, 0xFF])
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
        let reading = TagReadBack(message: nil, unreadable: "CC0 is 00, not E1", cc3: 0x00, staticLock: [0, 0])
        let verdict = auditor.classify(reading, recorded: recorded(), row: 1)
        #expect(verdict.status == .mismatch)
        #expect(verdict.detail == "NDEF unreadable: CC0 is 00, not E1")
    }

    @Test func contentMismatchWinsOverMissingLock() {
        let reading = TagReadBack(message: [0xD0, 0x00, 0x00], cc3: 0x00, staticLock: [0, 0])
        #expect(auditor.classify(reading, recorded: recorded(), row: 1).status == .mismatch)
    }

    @Test(arguments: [
        (UInt8(0x00), [UInt8(0xFF), 0xFF], "CC3 is 00"),
        (UInt8(0x0F), [UInt8(0x00), 0x00], "static lock bytes are 00 00"),
        (UInt8(0x0F), [UInt8(0xFF), 0x0F], "static lock bytes are FF 0F"),
    ])
    func goodContentNotReadOnlyIsUnlocked(cc3: UInt8, lock: [UInt8], named: String) {
        let reading = TagReadBack(message: message, cc3: cc3, staticLock: lock)
        #expect(!reading.isLockedReadOnly)
        let verdict = auditor.classify(reading, recorded: recorded(), row: 2)
        #expect(verdict.status == .unlocked)
        #expect(verdict.detail.contains(named))
    }

    @Test func unlockedTagPassesWhenTheJobDoesNotLock() {
        let open = TagAuditor(job: "batch", lockRequired: false)
        let reading = TagReadBack(message: message, cc3: 0x00, staticLock: [0, 0])
        #expect(open.classify(reading, recorded: recorded(locked: false), row: 2).status == .pass)
    }

    @Test func refusedPasswordIsAuthFailedNamingTheKeyIDOnly() {
        let key = SecretKey(id: "brand", bytes: Array(repeating: 0x5A, count: 32))
        let protected = TagAuditor(job: "batch", lockRequired: false, protectionKey: key)
        var reading = TagReadBack(message: nil, cc3: nil, staticLock: nil)
        reading.authenticationRefused = "PWD_AUTH refused: tag answered NAK 0h"
        let verdict = protected.classify(reading, recorded: recorded(), row: 4)
        #expect(verdict.status == .authFailed && verdict.row == 4)
        #expect(verdict.detail.contains("derived from key brand") && verdict.detail.contains("NAK 0h"))
        #expect(!verdict.detail.contains("5A5A"))
        #expect(protected.password(for: uid) == TagPassword(key: key, uid: uid))
        #expect(auditor.password(for: uid) == nil, "no protect key: no PWD_AUTH")
    }

    @Test func ledgerFingerprintOfAnotherKeyIsAuthFailedWithoutTouchingTheTag() {
        let key = SecretKey(id: "brand", bytes: Array(repeating: 0x5A, count: 32))
        let protected = TagAuditor(job: "batch", lockRequired: false, protectionKey: key)
        var record = recorded()
        record.keyID = "brand"
        record.keyFingerprint = "0011223344556677"
        let verdict = protected.keyConflict(record, row: 2)
        #expect(verdict?.status == .authFailed)
        #expect(verdict?.detail.contains("0011223344556677") == true && verdict?.detail.contains(key.fingerprint) == true)
        record.keyFingerprint = key.fingerprint
        #expect(protected.keyConflict(record, row: 2) == nil)
        record.keyFingerprint = nil
        #expect(protected.keyConflict(record, row: 2) == nil, "an older ledger without fingerprints: try PWD_AUTH")
        #expect(auditor.keyConflict(record, row: 2) == nil)
    }

    @Test func unknownNamesTheOtherJob() {
        let none = auditor.verdictWithoutRecord(uid: uid, others: [])
        #expect(none.status == .unknown && none.row == nil)
        #expect(none.detail == "UID not done in job batch")
        let other = auditor.verdictWithoutRecord(uid: uid, others: [RowReference(job: "badges", row: 4)])
        #expect(other.status == .unknown)
        #expect(other.detail == "UID not done in job batch; it belongs to row 4 of job badges")
    }
}

/// The first 8 digest bytes as the auditor prints them.
enum Hex8 {
    static func of(_ digest: [UInt8]) -> String {
        digest.prefix(8).map { String(format: "%02X", $0) }.joined()
    }
}
