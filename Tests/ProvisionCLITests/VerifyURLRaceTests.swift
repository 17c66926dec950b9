import Foundation
import TestSupport
import Testing

/// Counter checks are atomic on every store, end to end (issue 43, item 4): parallel `provision verify-url`
/// processes checking one fresh tap URL answer `valid` exactly once and `replayed` for the rest, on an SQLite
/// ledger (one file, many processes) and a PostgreSQL one (many connections under READ COMMITTED), for an NTAG21x
/// counter mirror and an NTAG 424 DNA SUN counter.
///
/// Each round makes a fresh URL with a higher counter and starts `checks` (16) `verify-url` child processes at
/// once, each one verifier checking the URL once: 16 verifier processes a round rather than the 4 with 4
/// checks each, which is harder (every check its own process and connection), over the 20 rounds. Before
/// the fix the PostgreSQL NTAG21x case answered `valid` more than once in some rounds, and a SUN check that lost
/// the race failed with exit 74 instead of answering `replayed`. The NTAG21x URLs are one genuine tap with its
/// mirrored counter window rewritten: the counter is outside the MAC, so each is a valid tap of a higher counter.
/// The SUN URLs are the emulated chip's own taps, read like a phone.
@Suite(.serialized) struct VerifyURLRaceTests {
    static let checks = 16
    static let rounds = 20

    enum Store: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case sqlite
        case postgresql
        var testDescription: String { rawValue }
    }

    /// The `verify-url` arguments that point at `store`: the job's own SQLite ledger, or a migrated PostgreSQL
    /// database the job's SQLite ledger is copied to (`ledger copy`).
    static func ledgerArguments(_ store: Store, folder: JobFolder) throws -> [String] {
        guard store == .postgresql else { return [] }
        let uri = try PostgresTestServer.shared().createDatabase()
        let migrate = try ProvisionProcess.run(["ledger", "migrate", "--ledger", uri], directory: folder.url)
        #expect(migrate.status == 0, "\(migrate.stderr)")
        let copy = try ProvisionProcess.run(
            ["ledger", "copy", "--from", folder.ledger.path, "--to", uri], directory: folder.url)
        #expect(copy.status == 0, "\(copy.stderr)")
        return ["--ledger", uri]
    }

    /// `checks` `verify-url URL` processes started at once in `folder`; returns how many answered each first word
    /// (`valid`, `replayed`, or whatever else a process printed, with its status and stderr).
    static func checkAtOnce(_ url: String, folder: JobFolder, env: [String: String], extra: [String]) async throws
        -> [String: Int]
    {
        let arguments = ["verify-url", url, "--manifest", "job.json"] + extra
        let outcomes = try await withThrowingTaskGroup(of: ProvisionProcess.Outcome.self) { group in
            for _ in 0..<checks {
                group.addTask {
                    try await onThread { try ProvisionProcess.run(arguments, directory: folder.url, environment: env) }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        return outcomes.reduce(into: [:]) { counts, outcome in
            let word = outcome.stdout.prefix { $0 != ":" }
            let expected = (word == "valid" && outcome.status == 0) || (word == "replayed" && outcome.status == 1)
            counts[expected ? String(word) : "\(outcome.status) \(outcome.stdout)\(outcome.stderr)", default: 0] += 1
        }
    }

    /// Runs the rounds on `next()`'s URLs and expects one `valid` and `checks - 1` `replayed` in each; prints how
    /// many rounds had more than one `valid`.
    static func expectOneValidPerRound(
        _ label: String, folder: JobFolder, env: [String: String], extra: [String], next: (Int) throws -> String
    ) async throws {
        var doubled = 0
        for round in 1...rounds {
            let counts = try await checkAtOnce(try next(round), folder: folder, env: env, extra: extra)
            if counts["valid", default: 0] > 1 { doubled += 1 }
            #expect(counts == ["valid": 1, "replayed": checks - 1], "\(label) round \(round): \(counts)")
        }
        print("\(label): \(doubled) of \(rounds) rounds answered valid more than once")
    }

    @Test(.timeLimit(.minutes(10)), arguments: Store.allCases)
    func parallelChecksOfOneNTAG21xTapAreValidOnce(_ store: Store) async throws {
        let job = try AuthTapJob()
        let reader = job.folder.sim(uid: "04000000000001", options: "count=2")
        let run = try await job.run(reader: reader)
        #expect(run.status == 0, "\(run.stderr)")
        let tap = try await job.tap(reader: reader).url
        let extra = try Self.ledgerArguments(store, folder: job.folder)
        try await Self.expectOneValidPerRound("NTAG21x on \(store)", folder: job.folder, env: job.env, extra: extra) {
            AuthTapJob.url(tap, counter: String(format: "%06X", 0x10 + $0))
        }
    }

    @Test(.timeLimit(.minutes(10)), arguments: Store.allCases)
    func parallelChecksOfOneSUNTapAreValidOnce(_ store: Store) async throws {
        let job = try await SUNTapJob()
        let uid: [UInt8] = [0x04, 0x43, 0x04, 0x00, 0x00, 0x00, 0x01]
        try await job.markDone(uid: uid)
        let tag = try job.tag(uid: uid)
        let extra = try Self.ledgerArguments(store, folder: job.folder)
        try await Self.expectOneValidPerRound("SUN on \(store)", folder: job.folder, env: job.env, extra: extra) { _ in
            try tag.tap()
        }
    }
}
