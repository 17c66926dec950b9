import Foundation
import Ledger
import Support

/// The ledger alone, as the line drives it, with no tag: B1's bound (issue 9, `scripts/bench`).
///
/// `ledger-bench FOLDER TAGS` makes a fresh ledger in FOLDER with a job of TAGS rows shaped like the B1
/// job's, then for every row does what `LineWorker` does with the ledger for a done tag — `claim` (synced),
/// `markDone` (deferred, synced by the next claim), the late timings every 64 tags, the final `sync()` —
/// with made-up UIDs and no reader, rendering or radio. Its tags/s is the most any line on this ledger can
/// reach; `scripts/bench` sets it against the bare single-row commits measured in the same round.
/// Prints one JSON object; exits 64 on bad arguments, 70 when the ledger does not end with every row done.
@main
struct LedgerBench {
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.count == 2, let folder = arguments.first, let tags = Int(arguments.last!), tags > 0 else {
            FileHandle.standardError.write(Data("usage: ledger-bench FOLDER TAGS\n".utf8))
            exit(64)
        }
        do {
            let figures = try await run(folder: folder, tags: tags)
            print(figures)
        } catch {
            FileHandle.standardError.write(Data("ledger-bench: \(error)\n".utf8))
            exit(70)
        }
    }

    static func run(folder: String, tags: Int) async throws -> String {
        let path = folder + "/ledger.sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let ledger = try await Ledger.open(path: path)
        let job = "b1"
        try await ledger.registerJob(
            name: job, manifestHash: String(repeating: "a", count: 64),
            templateHash: String(repeating: "b", count: 64))
        try await ledger.addRows(
            job: job,
            rows: (1...tags).map { row in
                RowInput(
                    row: row, fields: ["sku": "SKU-\(10_000 + row)", "name": "Part \(row)", "lot": "L2612-A"],
                    messageSHA256: [], messageLength: 56)
            })
        try await ledger.markStarted(job: job)
        let clock = ContinuousClock()
        var claimTime = Duration.zero
        var doneTime = Duration.zero
        // Batched as `LateTimings` batches them in the line: one transaction every 64 tags.
        var late: [Ledger.LateTiming] = []
        var generator = SystemRandomNumberGenerator()
        let start = clock.now
        for done in 0..<tags {
            // An NTAG21x UID: manufacturer byte 04h and six random bytes.
            let uid = [0x04] + (0..<6).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let started = Date()
            let claimStart = clock.now
            guard let claim = try await ledger.claim(job: job, reader: "sim:ntag215", uid: uid) else {
                throw BenchError("no pending row left after \(done) tags")
            }
            let doneStart = clock.now
            claimTime += doneStart - claimStart
            let tag = TagRecord(
                uid: uid, chip: "ntag215", bytesSHA256: Array(repeating: 0xA5, count: 32), byteCount: 56, locked: true,
                writtenAt: Date())
            let attempt = AttemptRecord(
                uid: uid, row: claim.row, reader: "sim:ntag215", outcome: .done, phase: "ledger",
                durations: .init(detect: 25, identify: 17, write: 35, verify: 8, lock: 10), exchanges: 27,
                modelledAirtimeMicroseconds: 121_914, startedAt: started, finishedAt: Date())
            try await ledger.markDone(
                job: job, row: claim.row, uid: uid, tag: tag, attempt: attempt, durability: .deferred)
            let finished = clock.now
            doneTime += finished - doneStart
            late.append(
                .init(
                    uid: uid, row: claim.row, ledgerMicroseconds: (finished - claimStart).wholeMicroseconds,
                    removalMicroseconds: 20))
            if late.count >= 64 {
                try await ledger.recordLateTimings(job: job, late)
                late.removeAll(keepingCapacity: true)
            }
        }
        try await ledger.recordLateTimings(job: job, late)
        try await ledger.sync()
        let seconds = (clock.now - start).seconds
        try await ledger.markFinished(job: job)
        let done = try await ledger.counts(job: job).done
        guard done == tags else { throw BenchError("\(done) of \(tags) rows done") }
        return """
            {"tags": \(tags), "seconds": \(seconds), "claim_us_mean": \(claimTime.microseconds / Double(tags)), \
            "done_us_mean": \(doneTime.microseconds / Double(tags))}
            """
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
