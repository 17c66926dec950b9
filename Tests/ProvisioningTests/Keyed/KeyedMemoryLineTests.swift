import Foundation
import Ledger
import NDEF
import NFCTags
import Provisioning
import Support
import Synchronization
import TestSupport
import Testing

/// A second keyed family, defined only in TestSupport, through the line worker, the real SQLite ledger and its key
/// journal, and the auditor: keyed personalisation is a family capability the pipeline reaches by its seams alone.
@Suite struct KeyedMemoryLineTests {
    typealias Fixture = KeyedMemoryFixture

    static func worker(_ tags: [KeyedMemoryTag], ledger: Ledger, job: LineJob) -> LineWorker {
        var worker = LineWorker(reader: KeyedMemoryTagReader(tags: tags), ledger: ledger, job: job)
        worker.families = Fixture.families
        return worker
    }

    /// The tag holds the job's keys, is locked, and a phone's read verifies under its K1.
    static func expectPersonalised(_ tag: KeyedMemoryTag, row: Int) throws {
        #expect(tag.keys == (try Fixture.keys(tag.uid)), "the tag holds the job's K0 and K1")
        #expect(tag.versions == [1, 1] && tag.isLocked)
        let read = try #require(try KeyedMemoryTransceiver(tag).transceive([0xD2], timeoutMilliseconds: 0).first)
        #expect(read == 0)
        let layout = Fixture.layout(row: row)
        let shown = try KeyedMemoryTransceiver(tag).transceive([0xD2], timeoutMilliseconds: 0).dropFirst(3)
        let keys = try KeyedMemoryScheme.keys(master: Fixture.master, uid: tag.uid)
        let counter = try layout.checkReadBack(
            Array(shown), written: Fixture.bytes(row: row), uid: tag.uid, keys: keys, counter: nil)
        #expect(counter == tag.counter)
    }

    @Test func runPersonalisesEveryRowAndJournalsEachKeyChangeIntendedThenDone() async throws {
        let folder = try Fixtures.temporaryDirectory("keyed-memory")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = try await Fixture.ledger(folder, job: "kmem", rows: 3)
        let tags = (1...3).map { KeyedMemoryTag(uid: KeyedMemoryTagReader.uid($0)) }
        #expect(try await Self.worker(tags, ledger: ledger, job: Fixture.lineJob("kmem")).run() == .jobComplete)
        let done = try await ledger.tags(job: "kmem")
        #expect(done.map(\.row) == [1, 2, 3])
        for entry in done {
            let tag = try #require(tags.first { $0.uid == entry.tag.uid })
            try Self.expectPersonalised(tag, row: entry.row)
            #expect(entry.tag.chip == KeyedMemoryFamily.chip.id && entry.tag.locked)
            let journal = try await ledger.keyChanges(job: "kmem", uid: tag.uid)
            #expect(journal.map(\.keyNumber) == [1, 0], "K1 first, K0 last")
            #expect(journal.allSatisfy { $0.state == .done && $0.newVersion == 1 })
            let keys = try KeyedMemoryScheme.keys(master: Fixture.master, uid: tag.uid)
            #expect(journal.map(\.newFingerprint) == [keys[1].fingerprint, keys[0].fingerprint])
            #expect(journal.map(\.keyID) == ["brand.K1", "brand.K0"])
            // Each change was journaled before it was sent: D8 follows the row's write and settings in one session.
            #expect(tag.commands.filter { $0 == 0xD8 }.count == 2 && tag.commands.filter { $0 == 0xD4 }.count == 1)
        }
    }

    /// Torn after the `occurrence`th key change reached the tag, before its answer: that change stays `intended` in
    /// the journal, and the tag's next attempt (it comes back to the reader) settles it by the key version and one
    /// authentication instead of guessing, sends no key twice, and finishes the row with the job's keys.
    @Test(arguments: [(1, 1), (2, 0)])
    func tornAfterAKeyChangeIsSettledByTheNextAttemptAndTheRowFinishes(occurrence: Int, keyNumber: Int) async throws {
        let folder = try Fixtures.temporaryDirectory("keyed-memory-tear")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = try await Fixture.ledger(folder, job: "tear", rows: 1)
        let tag = KeyedMemoryTag(uid: KeyedMemoryTagReader.uid(7))
        tag.tear(afterCommand: 0xD8, occurrence: occurrence)
        let failures = Mutex<[String]>([])
        let worker = LineWorker(
            reader: KeyedMemoryTagReader(tags: [tag]), ledger: ledger, job: Fixture.lineJob("tear"),
            events: { event in
                if case .failed(_, _, _, let failure, _) = event { failures.withLock { $0.append("\(failure)") } }
            })
        var line = worker
        line.families = Fixture.families
        #expect(try await line.run() == .jobComplete)
        let failed = failures.withLock { $0 }
        #expect(failed.count == 1 && failed[0].contains("tag left the field"), "\(failed)")
        let commands = tag.commands
        let tornAt = try #require(commands.indices.filter { commands[$0] == 0xD8 }.dropFirst(occurrence - 1).first)
        let after = commands[(tornAt + 1)...]
        // D7 is sent only to settle a change the journal holds as intended.
        #expect(after.contains(0xD7), "the next attempt asked the torn key's version: \(Hex.compact(after))")
        #expect(commands.filter { $0 == 0xD8 }.count == 2, "K1 and K0 each sent once")
        let settled = try await ledger.keyChanges(job: "tear", uid: tag.uid)
        #expect(settled.map(\.keyNumber) == [1, 0] && settled.allSatisfy { $0.state == .done }, "\(settled)")
        #expect(try await ledger.tags(job: "tear").map(\.row) == [1])
        try Self.expectPersonalised(tag, row: 1)
    }

    @Test func auditPassesFinishedTagsAndFindsATamperedOne() async throws {
        let folder = try Fixtures.temporaryDirectory("keyed-memory-audit")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = try await Fixture.ledger(folder, job: "audit", rows: 2)
        let tags = (1...2).map { KeyedMemoryTag(uid: KeyedMemoryTagReader.uid(10 + $0)) }
        #expect(try await Self.worker(tags, ledger: ledger, job: Fixture.lineJob("audit")).run() == .jobComplete)

        func audit(deep: Bool) async throws -> [TagVerdict] {
            var auditor = TagAuditor(job: "audit", lockRequired: true)
            auditor.keyed = Fixture.audit(deep: deep)
            let session = AuditSession(limit: 2)
            _ = try await AuditWorker(
                reader: KeyedMemoryTagReader(tags: tags), ledger: ledger, auditor: auditor, session: session,
                families: Fixture.families
            ).run()
            return await session.verdicts.map(\.verdict)
        }
        let passed = try await audit(deep: true)
        #expect(passed.count == 2 && passed.allSatisfy { $0.status == .pass }, "\(passed.map(\.detail))")
        #expect(passed.allSatisfy { $0.detail.contains("KMAC verifies") && $0.detail.contains("K0 accepted") })

        var tampered = tags[1].message
        tampered[8] ^= 0x01  // in "example.com", outside every window
        tags[1].tamper(message: tampered)
        let found = try await audit(deep: false)
        #expect(found.map(\.status) == [.pass, .mismatch], "\(found.map(\.detail))")
    }
}
