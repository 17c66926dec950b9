import Crypto
import Foundation
import Ledger
import NDEF
import NFCTags
import Provisioning
import TestSupport
import Testing

/// A second tag family, kept in memory, through the same pipeline as Type 2: `run` (the line) and
/// `audit` work on it through the `FamilyTag` seam alone, so the pipeline holds no Type 2 knowledge.
@Suite struct SecondFamilyTests {
    static let families = TagFamilies([MemoryFamily(), Type2Family()])

    static func uid(_ index: Int) -> [UInt8] { [0x02, 0x4D, 0x45, 0x4D, 0x00, 0x00, UInt8(index)] }

    static func message(row: Int, uid: [UInt8]) -> [UInt8] {
        NDEFMessage(records: [NDEFPayload.uri("https://example.com/m/\(row)/\(Hex.compact(uid))")]).bytes
    }

    static func job(_ name: String) -> LineJob {
        LineJob(name: name, acceptedChips: [MemoryFamily.chip], lock: true, tries: 2, onFailure: .reuse) {
            row, _, uid, _ in message(row: row, uid: uid)
        }
    }

    static func ledger(_ folder: URL, job: String, rows: Int) async throws -> Ledger {
        let ledger = try await Ledger.open(path: folder.appendingPathComponent("ledger.sqlite").path)
        try await ledger.registerJob(name: job, manifestHash: "m", templateHash: "t")
        let inputs = (1...rows).map { RowInput(row: $0, fields: [:], messageSHA256: [], messageLength: 0) }
        try await ledger.addRows(job: job, rows: inputs)
        return ledger
    }

    @Test func runWritesLocksAndRecordsEveryRowThenTheAuditPassesThem() async throws {
        let folder = try Fixtures.temporaryDirectory("second-family")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = try await Self.ledger(folder, job: "mem", rows: 3)
        let tags = (1...3).map { MemoryTag(uid: Self.uid($0)) }
        var worker = LineWorker(reader: MemoryTagReader(tags: tags), ledger: ledger, job: Self.job("mem"))
        worker.families = Self.families
        #expect(try await worker.run() == .jobComplete)
        let done = try await ledger.tags(job: "mem")
        #expect(done.map(\.row) == [1, 2, 3])
        for entry in done {
            let tag = try #require(tags.first { $0.uid == entry.tag.uid })
            #expect(tag.message == Self.message(row: entry.row, uid: tag.uid))
            #expect(tag.isLocked && entry.tag.locked)
            #expect(entry.tag.chip == MemoryFamily.chip.id)
            #expect(tag.writes == 1, "written once, then read back and locked")
        }

        let session = AuditSession(limit: 3)
        let audit = AuditWorker(
            reader: MemoryTagReader(tags: tags), ledger: ledger, auditor: TagAuditor(job: "mem", lockRequired: true),
            session: session, families: Self.families)
        _ = try await audit.run()
        let verdicts = await session.verdicts.map(\.verdict)
        #expect(verdicts.count == 3)
        #expect(verdicts.allSatisfy { $0.status == .pass }, "\(verdicts.map(\.detail))")
    }

    @Test func auditFindsATamperedMemoryTag() async throws {
        let folder = try Fixtures.temporaryDirectory("second-family")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = try await Self.ledger(folder, job: "tamper", rows: 1)
        let tag = MemoryTag(uid: Self.uid(9))
        var worker = LineWorker(reader: MemoryTagReader(tags: [tag]), ledger: ledger, job: Self.job("tamper"))
        worker.families = Self.families
        #expect(try await worker.run() == .jobComplete)
        let other = MemoryTag(uid: Self.uid(9))
        _ = try other.answer([0xB2] + Self.message(row: 2, uid: other.uid))
        _ = try other.answer([0xB3])
        let session = AuditSession(limit: 1)
        _ = try await AuditWorker(
            reader: MemoryTagReader(tags: [other]), ledger: ledger,
            auditor: TagAuditor(job: "tamper", lockRequired: true), session: session, families: Self.families
        ).run()
        #expect(await session.verdicts.map(\.verdict.status) == [.mismatch])
    }

    /// A family without configuration memory (`ConfigurationReadable` absent): the read-back says so,
    /// and an audit of a job that protects tags finds the configuration unreadable, not a pass.
    @Test func familyWithoutConfigurationIsUnreadableForAProtectingAudit() throws {
        let uid = Self.uid(7)
        let tag = MemoryTag(uid: uid)
        _ = try tag.answer([0xB2] + Self.message(row: 1, uid: uid))
        let activation = DetectedTag(uid: uid, atqa: 0x0044, sak: MemoryFamily.sak)
        let opened = try Self.families.open(MemoryTransceiver(tag), activation: activation)
        #expect(opened.configuration == nil && opened.inspection == nil)
        #expect(opened.passwordProtection == nil && opened.mirror == nil && opened.originality == nil)

        let reading = try TagReadBack.read(
            on: MemoryTransceiver(tag), activation: activation, families: Self.families, configuration: true)
        #expect(reading.message == Self.message(row: 1, uid: uid))
        #expect(reading.configuration == nil)
        #expect(reading.configurationUnreadable == "the memory family has no configuration pages")

        let key = SecretKey(id: "brand", bytes: Array(repeating: 0x5A, count: 32))
        let protection = ManifestSecurity.Protection(key: "brand", auth0: .ndef, access: .write)
        let auditor = TagAuditor(job: "mem", lockRequired: false, protectionKey: key, protection: protection)
        let bytes = reading.message ?? []
        let recorded = TagRecord(
            uid: uid, chip: MemoryFamily.chip.id, bytesSHA256: Digest.sha256(bytes), byteCount: bytes.count,
            locked: false, writtenAt: Date())
        let verdict = auditor.classify(
            reading, recorded: recorded, row: 1, expected: try auditor.expectedConfiguration(uid: uid, mirror: nil))
        #expect(verdict.status == .configMismatch, "\(verdict.detail)")
        #expect(verdict.detail.contains("unreadable: the memory family has no configuration pages"))
    }

    @Test func withoutItsFamilyTheTagIsRefusedAsAWrongChipAndNothingIsWritten() async throws {
        let folder = try Fixtures.temporaryDirectory("second-family")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = try await Self.ledger(folder, job: "plain", rows: 1)
        let tag = MemoryTag(uid: Self.uid(5))
        let worker = LineWorker(
            reader: MemoryTagReader(tags: [tag]), ledger: ledger, job: Self.job("plain"),
            settings: WorkerSettings(maxConsecutiveFailures: 1))
        _ = try? await worker.run()
        #expect(tag.writes == 0 && tag.message.isEmpty)
        #expect(try await ledger.counts(job: "plain").done == 0)
    }
}
