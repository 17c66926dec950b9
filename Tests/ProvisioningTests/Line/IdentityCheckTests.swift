import Foundation
import Ledger
import NDEF
import NFCTags
import Provisioning
import TagEmulator
import TestSupport
import Testing

/// The identity cross-check of `docs/reference/type2.md` §11 on the line: pages 0–2 against the anticollision
/// UID, both BCCs and INT, refused before any WRITE, at no extra exchange.
@Suite struct IdentityCheckTests {
    static let uid: [UInt8] = [0x04, 0x51, 0x7C, 0xE1, 0xED, 0x25, 0x80]
    static let message = NDEFMessage(records: [NDEFPayload.uri("https://example.com/identity")]).bytes

    /// A selected emulated NTAG215 (a clone when `identity` is set) behind a command log.
    static func tag(_ identity: IdentityFault?, chip: ChipModel = .ntag215) throws -> CommandLog<EmulatorTransceiver> {
        var faults = TagFaults()
        faults.identity = identity
        let tag = try NTAGEmulator(chip: chip, uid: uid, faults: faults)
        _ = try #require(tag.activate())
        return CommandLog(EmulatorTransceiver(tag: tag))
    }

    static func plan(_ policy: IdentityCheck = .refuse) -> TagPipeline.Plan {
        TagPipeline.Plan(message: message, acceptedChips: [.ntag215], lock: true, uid: uid, identityCheck: policy)
    }

    @Test(arguments: [
        (IdentityFault.uid, "pages 0–1 hold UID 04517C44488025, anticollision gave 04517CE1ED2580"),
        (.bcc0, "BCC0 is A0, expected A1"),
        (.bcc1, "BCC1 is A8, expected A9"),
        (.int, "internal byte is 00, not 48"),
    ])
    func cloneIsRefusedBeforeAnyWrite(fault: IdentityFault, detail: String) throws {
        let log = try Self.tag(fault)
        let outcome = TagPipeline.run(Self.plan(), on: log)
        let failure = try #require(outcome.failure)
        #expect(failure.failureClass == .identityMismatch)
        #expect(failure.phase == .identify)
        #expect(failure.detail.contains(detail), "\(failure.detail)")
        #expect(failure.isRetryable)
        #expect(!outcome.wroteSomething)
        #expect(log.writes.isEmpty, "no WRITE may reach a refused tag: \(log.commands)")
        // GET_VERSION, READ of the lock page, FAST_READ 00–04: refused on the bytes identify read.
        #expect(log.commands == [[0x60], [0x30, 0x82], [0x3A, 0x00, 0x04]])
        let tag = log.inner.tag as? NTAGEmulator
        #expect(tag?.storedPage(4) == [0x03, 0x00, 0xFE, 0x00], "the factory TLV is untouched")
    }

    @Test func genuineTagCostsNoExtraExchange() throws {
        for chip in [ChipModel.ntag215, .ntag213] {
            let genuine = try Self.tag(nil, chip: chip)
            let plan = TagPipeline.Plan(message: Self.message, acceptedChips: [chip.tagChip], lock: true, uid: Self.uid)
            let outcome = TagPipeline.run(plan, on: genuine)
            #expect(outcome.failure == nil)
            #expect(outcome.identityAnomalies == nil)
            // Same count as without any anticollision UID to compare with (the check reads nothing).
            let unchecked = try Self.tag(nil, chip: chip)
            let without = TagPipeline.run(
                .init(message: Self.message, acceptedChips: [chip.tagChip], lock: true), on: unchecked)
            #expect(outcome.exchanges == without.exchanges)
            #expect(genuine.commands == unchecked.commands)
            #expect(!genuine.commands.contains([0x30, 0x00]), "pages 0–2 come from the FAST_READ, not READ 00")
        }
    }

    @Test func recordPolicyKeepsTheAnomalyAndWrites() throws {
        let log = try Self.tag(.bcc1)
        let outcome = TagPipeline.run(Self.plan(.record), on: log)
        #expect(outcome.failure == nil)
        #expect(outcome.locked)
        #expect(outcome.identityAnomalies == "BCC1 is A8, expected A9 (UID3 ^ UID4 ^ UID5 ^ UID6)")
    }

    @Test func genericTagOnAPlainReaderIsCheckedOnTheDetectionRead() throws {
        let tag = try NTAGEmulator(chip: .ntag215, uid: Self.uid)
        _ = try #require(tag.activate())
        let plain = PlainPath(EmulatorTransceiver(tag: tag))
        let log = CommandLog(plain)
        let other: [UInt8] = [0x04, 0x51, 0x7C, 0x00, 0x00, 0x00, 0x01]
        let plan = TagPipeline.Plan(message: Self.message, acceptedChips: [], lock: false, uid: other)
        let outcome = TagPipeline.run(plan, on: log)
        #expect(outcome.failure?.failureClass == .identityMismatch)
        #expect(log.commands == [[0x30, 0x00], [0x30, 0x04]], "NDEF detection's READ 00 and READ 04, nothing more")
    }

    @Test func onlyRefusableAnomaliesAreActedOn() {
        let all: [UIDAnomaly] = [.notNXP(0x05), .internalByte(0x00), .bcc0(found: 0, expected: 1)]
        // A generic tag from another maker: UID0 and INT are its own business; the BCC is not.
        #expect(Type2FamilyTag.refusable(all, chip: nil, uid0: 0x05) == [.bcc0(found: 0, expected: 1)])
        // An NXP tag (named by GET_VERSION or by UID0 = 04) must have INT = 48.
        #expect(Type2FamilyTag.refusable(all, chip: .ntag215, uid0: 0x05).count == 2)
        #expect(Type2FamilyTag.refusable([.internalByte(0x00)], chip: nil, uid0: 0x04) == [.internalByte(0x00)])
    }

    @Test func mismatchIsTriedTwiceAtMostWhateverTheRetries() {
        let mismatch = CycleFailure(.identityMismatch, phase: .identify, "x")
        #expect(mismatch.allowsRetry(after: 1, of: 5))
        #expect(!mismatch.allowsRetry(after: 2, of: 5))
        #expect(!mismatch.allowsRetry(after: 1, of: 1))
        let timeout = CycleFailure(.timeout, phase: .write, "x")
        #expect(timeout.allowsRetry(after: 4, of: 5))
        #expect(!CycleFailure(.wrongChip, phase: .identify, "x").allowsRetry(after: 1, of: 5))
    }
}

/// A reader path without raw commands (PC/SC style `plain`).
private final class PlainPath: Transceiver {
    let inner: EmulatorTransceiver
    init(_ inner: EmulatorTransceiver) { self.inner = inner }
    func transceive(_ command: [UInt8], timeoutMilliseconds: Int) throws(TransportError) -> [UInt8] {
        try inner.transceive(command, timeoutMilliseconds: timeoutMilliseconds)
    }
    func reactivate() throws(TransportError) { try inner.reactivate() }
    var modelledAirtimeMicroseconds: Double? { inner.modelledAirtimeMicroseconds }
    var supportsRawCommands: Bool { false }
}

/// The line worker with clone tags in a simulated population.
@Suite(.serialized) struct IdentityCheckLineTests {
    static func job(_ policy: IdentityCheck = .refuse) -> LineJob {
        var job = LineJob(name: "id", acceptedChips: [.ntag215], lock: true, tries: 3, onFailure: .burn) {
            row, _, _, _ in
            NDEFMessage(records: [NDEFPayload.uri("https://example.com/\(row)")]).bytes
        }
        job.identityCheck = policy
        return job
    }

    static func ledger(_ name: String, rows: Int) async throws -> (Ledger, URL) {
        let folder = try Fixtures.temporaryDirectory(name)
        let ledger = try await Ledger.open(path: folder.appendingPathComponent("ledger.sqlite").path)
        try await ledger.registerJob(name: "id", manifestHash: "m", templateHash: "t")
        try await ledger.addRows(
            job: "id", rows: (1...rows).map { RowInput(row: $0, fields: [:], messageSHA256: [], messageLength: 0) })
        return (ledger, folder)
    }

    @Test func clonesAreRefusedTheirRowsStayPendingAndNothingIsWritten() async throws {
        let (ledger, folder) = try await Self.ledger("identity-line", rows: 4)
        let store = folder.appendingPathComponent("tags").path
        let reader = try SimulatedReader(
            spec: ReaderSpec("sim:ntag215?count=4&uid=04000000000001&identity=-,uid,-,int&store=\(store)"))
        let stop = try await LineWorker(reader: reader, ledger: ledger, job: Self.job()).run()
        #expect(stop == .readerExhausted)
        let counts = try await ledger.counts(job: "id")
        #expect(
            counts.done == 2 && counts.pending == 2 && counts.failed == 0 && counts.burned == 0 && counts.claimed == 0,
            "a refused tag wrote nothing, so even onFailure burn returns its row: \(counts)")
        let done = try await ledger.tags(job: "id").map { Hex.compact($0.tag.uid) }
        #expect(done == ["04000000000001", "04000000000003"])
        let failures = try await ledger.failures(job: "id")
        // Each clone: the first try and one retry after re-activation (retries 3 notwithstanding).
        #expect(
            failures.map { Hex.compact($0.uid) } == [
                "04000000000002", "04000000000002", "04000000000004", "04000000000004",
            ])
        #expect(Set(failures.compactMap(\.failureClass)) == ["identityMismatch"])
        #expect(failures.allSatisfy { $0.phase == "identify" && $0.row != nil })
        #expect(failures.first?.failureDetail?.contains("anticollision gave 04000000000002") == true)
        #expect(failures.last?.failureDetail?.contains("internal byte is 00, not 48") == true)
        for uid in ["04000000000002", "04000000000004"] {
            let image = try [UInt8](Data(contentsOf: URL(fileURLWithPath: store).appendingPathComponent("\(uid).bin")))
            #expect(Array(image[16..<20]) == [0x03, 0x00, 0xFE, 0x00], "\(uid): factory TLV untouched")
            #expect(Array(image[8..<12]).suffix(2) == [0x00, 0x00], "\(uid): not locked")
        }
    }

    @Test func aMisreadIsRetriedAfterReactivationAndTheTagFinishes() async throws {
        let (ledger, _) = try await Self.ledger("identity-misread", rows: 1)
        // The 3rd exchange is the FAST_READ 00–04: its 20 bytes arrive as noise (CRC right).
        let reader = try SimulatedReader(spec: ReaderSpec("sim:ntag215?count=1&uid=04000000000001&plan=garbage:20@3"))
        #expect(try await LineWorker(reader: reader, ledger: ledger, job: Self.job()).run() == .jobComplete)
        let attempts = try await ledger.attempts(job: "id")
        #expect(attempts.map(\.outcome) == [.failed, .done])
        #expect(attempts.first?.failureClass == "identityMismatch")
    }

    @Test func recordPolicyWritesTheCloneAndKeepsTheAnomaly() async throws {
        let (ledger, _) = try await Self.ledger("identity-record", rows: 2)
        let reader = try SimulatedReader(spec: ReaderSpec("sim:ntag215?count=2&uid=04000000000001&identity=bcc0"))
        #expect(try await LineWorker(reader: reader, ledger: ledger, job: Self.job(.record)).run() == .jobComplete)
        let attempts = try await ledger.attempts(job: "id")
        #expect(attempts.map(\.outcome) == [.done, .done])
        #expect(attempts.first?.failureClass == nil)
        #expect(attempts.first?.failureDetail?.hasPrefix("identity check (record): BCC0 is") == true)
        #expect(attempts.last?.failureDetail == nil)
    }
}
