import Crypto
import Foundation
import Ledger
import NDEF
import NFCTags
import TagEmulator
import TestSupport
import Testing

@testable import Provisioning

/// A job of `rows` rows whose message is a URI with the row, the UID and the claim time.
private func makeJob(
    _ name: String, lock: Bool = true, retries: Int = 2, onFailure: LineJob.FailurePolicy = .reuse,
    chips: Set<TagChip> = [.ntag215]
) -> LineJob {
    LineJob(name: name, acceptedChips: chips, lock: lock, tries: retries, onFailure: onFailure) {
        row, fields, uid, time in
        let url =
            "https://example.com/p/\(fields["sku"] ?? "?")/\(row)?u=\(Hex.compact(uid))"
            + "&t=\(Int(time.timeIntervalSince1970))"
        return NDEFMessage(records: [NDEFPayload.uri(url)]).bytes
    }
}

private func prepareLedger(_ folder: URL, job: String, rows: Int) async throws -> Ledger {
    let ledger = try await Ledger.open(path: folder.appendingPathComponent("ledger.sqlite").path)
    try await ledger.registerJob(name: job, manifestHash: "m", templateHash: "t")
    let inputs = (1...rows).map { RowInput(row: $0, fields: ["sku": "SKU\($0)"], messageSHA256: [], messageLength: 0) }
    try await ledger.addRows(job: job, rows: inputs)
    return ledger
}

@Suite(.serialized) struct LineWorkerTests {
    @Test func everyRowDoneOnceAndTagImagesHoldTheirMessages() async throws {
        let folder = try Fixtures.temporaryDirectory("line")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = try await prepareLedger(folder, job: "j", rows: 12)
        let store = folder.appendingPathComponent("tags").path
        let reader = try SimulatedReader(spec: ReaderSpec("sim:ntag215?uid=04000000000001&store=\(store)"))
        let stop = try await LineWorker(reader: reader, ledger: ledger, job: makeJob("j")).run()
        #expect(stop == .jobComplete)
        // Each done commit was deferred; the next claim or the stop synced it: nothing is left unsynced.
        #expect(await ledger.unsyncedCommitCount == 0)
        let counts = try await ledger.counts(job: "j")
        #expect(counts.done == 12 && counts.pending == 0 && counts.claimed == 0)
        let tags = try await ledger.tags(job: "j")
        #expect(tags.map(\.row) == Array(1...12))
        #expect(Set(tags.map(\.tag.uid)).count == 12)
        for entry in tags {
            let url = URL(fileURLWithPath: store).appendingPathComponent("\(Hex.compact(entry.tag.uid)).bin")
            let emulator = try NTAGEmulator(image: [UInt8](try Data(contentsOf: url)), chip: .ntag215)
            let area = Array(emulator.image[16..<(16 + 496)])
            let message = try NDEFTLV.extractMessage(fromArea: area)
            #expect(Hex.compact(Digest256.of(message)) == Hex.compact(entry.tag.bytesSHA256))
            let uri = try NDEFMessage(bytes: message).records.first?.wellKnownTypeURIPayload()?.absoluteString
            #expect(uri?.contains("/SKU\(entry.row)/\(entry.row)?u=\(Hex.compact(entry.tag.uid))") == true)
            #expect(entry.tag.locked)
            #expect(emulator.image[10...11] == [0xFF, 0xFF], "static lock bytes set")
        }
    }

    /// On a datasheet-timed reader identify (milliseconds of radio) outlasts a sync, so the measuring
    /// policy runs each claim's sync under it. The sync's cost is injected (200 µs, a quiet disk's), since
    /// this machine's fsync under load must not decide the path; identify is the line's own measurement.
    /// Both paths, each forced on an instant reader (whose microseconds of identify the machine's load
    /// decides against a sync, so a measured run could go either way), leave every row done once, its tag
    /// holding its message, and nothing unsynced.
    @Test(arguments: [("datasheet", nil, true), ("instant", true, true), ("instant", false, false)])
    func claimsAreSyncedUnderIdentifyWhenIdentifyOutlastsTheSync(
        timing: String, fixed: Bool?, overlaps: Bool
    ) async throws {
        let folder = try Fixtures.temporaryDirectory("line-overlap")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = try await prepareLedger(folder, job: "o", rows: 4)
        let store = folder.appendingPathComponent("tags").path
        let reader = try SimulatedReader(
            spec: ReaderSpec("sim:ntag215?uid=04000000000001&timing=\(timing)&removal=0&store=\(store)"))
        var worker = LineWorker(reader: reader, ledger: ledger, job: makeJob("o"))
        worker.claimSync = fixed.map { ClaimSyncPolicy(fixed: $0) } ?? ClaimSyncPolicy(syncMicroseconds: 200)
        #expect(try await worker.run() == .jobComplete)
        #expect(worker.claimSync.overlaps == overlaps)
        #expect(await ledger.unsyncedCommitCount == 0)
        let tags = try await ledger.tags(job: "o")
        #expect(tags.map(\.row) == [1, 2, 3, 4] && tags.allSatisfy { $0.tag.locked })
        for entry in tags {
            let url = URL(fileURLWithPath: store).appendingPathComponent("\(Hex.compact(entry.tag.uid)).bin")
            let image = [UInt8](try Data(contentsOf: url))
            let message = try NDEFTLV.extractMessage(fromArea: Array(image[16..<(16 + 496)]))
            #expect(Hex.compact(Digest256.of(message)) == Hex.compact(entry.tag.bytesSHA256))
        }
        let attempts = try await ledger.attempts(job: "o")
        #expect(attempts.count == 4 && attempts.allSatisfy { $0.outcome == .done && ($0.durations.ledger ?? -1) >= 0 })
    }

    @Test func tornTagsResumeTheirOwnRowAndNothingIsLost() async throws {
        let folder = try Fixtures.temporaryDirectory("line-tear")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = try await prepareLedger(folder, job: "t", rows: 30)
        let reader = try SimulatedReader(spec: ReaderSpec("sim:ntag215?uid=04000000000100&seed=11&faults=tear:0.4"))
        let stop = try await LineWorker(reader: reader, ledger: ledger, job: makeJob("t")).run()
        #expect(stop == .jobComplete)
        let counts = try await ledger.counts(job: "t")
        #expect(counts.done == 30 && counts.claimed == 0)
        let attempts = try await ledger.attempts(job: "t")
        let lost = attempts.filter { $0.failureClass == FailureClass.tagLost.rawValue }
        #expect(!lost.isEmpty, "the seed must tear some tags")
        let tags = try await ledger.tags(job: "t")
        for failure in lost {
            // The torn UID finished the very row it held.
            #expect(tags.first { $0.tag.uid == failure.uid }?.row == failure.row)
        }
    }

    @Test(arguments: [2, 4])
    func severalReadersNeverShareARow(readers count: Int) async throws {
        let folder = try Fixtures.temporaryDirectory("line-multi")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("ledger.sqlite").path
        _ = try await prepareLedger(folder, job: "m", rows: 40)
        try await withThrowingTaskGroup(of: WorkerStop.self) { group in
            for index in 0..<count {
                let ledger = try await Ledger.open(path: path)
                let reader = try SimulatedReader(spec: ReaderSpec("sim:ntag215?uid=04\(index + 1)00000000000"))
                group.addTask { try await LineWorker(reader: reader, ledger: ledger, job: makeJob("m")).run() }
            }
            for try await stop in group { #expect(stop == .jobComplete) }
        }
        let ledger = try await Ledger.open(path: path)
        let tags = try await ledger.tags(job: "m")
        #expect(tags.count == 40)
        #expect(Set(tags.map(\.row)) == Set(1...40))
        #expect(Set(tags.map(\.tag.uid)).count == 40)
    }

    @Test func duplicatesWrongChipsAndReadOnlyTagsAreRecordedAndSkipped() async throws {
        let folder = try Fixtures.temporaryDirectory("line-faults")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = try await prepareLedger(folder, job: "f", rows: 10)
        let reader = try SimulatedReader(
            spec: ReaderSpec("sim:ntag215?uid=04000000000200&seed=5&faults=wrongchip:0.2,readonly:0.2"))
        #expect(try await LineWorker(reader: reader, ledger: ledger, job: makeJob("f")).run() == .jobComplete)
        let failures = try await ledger.failures(job: "f")
        let classes = Set(failures.compactMap(\.failureClass))
        #expect(classes.isSubset(of: ["wrongChip", "readOnly"]))
        #expect(classes.count == 2, "the seed must produce both kinds")
        #expect(try await ledger.counts(job: "f").done == 10)
        // Presenting a done tag again is a duplicate, not a new row.
        let done = try await ledger.tags(job: "f")
        let firstUID = try #require(done.first?.tag.uid)
        let replay = try SimulatedReader(spec: ReaderSpec("sim:ntag215?uid=\(Hex.compact(firstUID))&count=1"))
        try await ledger.registerJob(name: "f2", manifestHash: "m", templateHash: "t")
        try await ledger.addRows(job: "f2", rows: [RowInput(row: 1, fields: [:], messageSHA256: [], messageLength: 0)])
        let stop = try await LineWorker(reader: replay, ledger: ledger, job: makeJob("f2")).run()
        #expect(stop == .readerExhausted)
        let skipped = try await ledger.failures(job: "f2")
        #expect(skipped.map(\.failureClass) == ["duplicateUID"])
        #expect(skipped.first?.failureDetail?.contains("already provisioned as row") == true)
    }
}

/// SHA-256 through the Crypto module (what the ledger stores).
enum Digest256 {
    static func of(_ bytes: [UInt8]) -> [UInt8] { Digest.sha256(bytes) }
}
