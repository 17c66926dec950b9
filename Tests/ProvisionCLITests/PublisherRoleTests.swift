import Foundation
import Ledger
import TestSupport
import Testing

/// The publisher's role on a real server (docs/events.md, docs/stations.md "Roles"): a login bound with
/// `provision ledger grant publisher` reads the outbox and marks events published through the store API, and a
/// station's login marks only its own stations' events.
@Suite(.serialized) struct PublisherRoleTests {
    @Test func aPublisherMarksEventsPublishedAndAStationOnlyItsOwn() async throws {
        let folder = try JobFolder(rows: 1, lock: false)
        let line = try StationLine.migrated(folder: folder)
        #expect(
            try line.server.query(
                line.admin, "SELECT pg_has_role('\(line.publisher)', '\(line.publisherGroup)', 'MEMBER')") == [["t"]])
        let ids = ["00000000-0000-7000-8000-00000000e001", "00000000-0000-7000-8000-00000000e002"]
        let (own, foreign) = ("00000000-0000-7000-8000-00000000e003", "00000000-0000-7000-8000-00000000e004")
        _ = try line.server.query(
            line.admin,
            "INSERT INTO jobs (name, manifest_sha256, template_sha256, created_at) "
                + "VALUES ('batch', 'x', 'x', '2026-01-01T00:00:00.000Z'); "
                + ids.map {
                    "INSERT INTO outbox (id, job, row, outcome, payload, created_at) "
                        + "VALUES ('\($0)', 'batch', 1, 'done', '{}', '2026-01-01T00:00:00.000Z'); "
                }.joined())

        let publisher = try await PostgresLedger.open(conninfo: line.conninfo(line.publisher), station: "publisher")
        let events = try await Self.settled(2, from: publisher)
        #expect(events.map(\.id) == ids)
        #expect(try await publisher.outboxBacklog(job: "batch") == 2)
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(try await publisher.markPublished(ids: [ids[0]], at: at) == 1)
        // Idempotent: an event already published keeps its first time.
        #expect(try await publisher.markPublished(ids: ids, at: at.addingTimeInterval(60)) == 1)
        #expect(try await publisher.markPublished(ids: ids, at: at.addingTimeInterval(120)) == 0)
        let read = try await publisher.outboxEvents(job: nil, after: 0, limit: 10, unpublishedOnly: false)
        #expect(read.map(\.publishedAt) == [at, at.addingTimeInterval(60)])
        #expect(try await publisher.outboxBacklog(job: nil) == 0)
        // Nothing but the function: no direct UPDATE of the outbox.
        let update = try line.sql("UPDATE outbox SET published_at = NULL", as: line.publisher)
        #expect(update.status != 0 && update.output.contains("permission denied for table outbox"), "\(update.output)")

        // A station's login marks the events of its own stations and events no station wrote (schema 7, `run
        // --publish`), and may not mark another station's: such an id refuses the whole call.
        _ = try line.server.query(
            line.admin,
            "UPDATE outbox SET published_at = NULL WHERE id = '\(ids[1])'; "
                + "INSERT INTO outbox (id, job, row, station, outcome, payload, created_at) VALUES "
                + "('\(own)', 'batch', 1, 's1', 'done', '{}', '2026-01-01T00:00:00.000Z'), "
                + "('\(foreign)', 'batch', 1, 's2', 'done', '{}', '2026-01-01T00:00:00.000Z')")
        let station = try await PostgresLedger.open(conninfo: line.conninfo(line.bench), station: "s1")
        #expect(try await station.outboxBacklog(job: "batch") == 3)
        let refused = try await #require(throws: LedgerError.self) {
            try await station.markPublished(ids: [own, foreign], at: at)
        }
        #expect(
            refused.code == .roleRequired && refused.message.contains("only the events of its own stations"),
            "\(refused)")
        #expect(try line.server.query(line.admin, "SELECT count(*) FROM outbox WHERE published_at IS NULL") == [["3"]])
        #expect(try await station.markPublished(ids: [own, ids[1]], at: at) == 2)
        #expect(
            try line.server.query(line.admin, "SELECT id FROM outbox WHERE published_at IS NULL") == [[foreign]])
        // A verifier's login has no part in it.
        let verifier = try await PostgresLedger.open(conninfo: line.conninfo(line.gate), station: "gate")
        let notVerifier = try await #require(throws: LedgerError.self) {
            try await verifier.markPublished(ids: [foreign], at: at)
        }
        #expect(notVerifier.code == .roleRequired, "\(notVerifier)")
    }

    /// The job's unpublished events once `count` are readable: a server reader takes only events of transactions
    /// older than every one still running, and other suites of this process may hold one open for a moment.
    static func settled(_ count: Int, from ledger: PostgresLedger) async throws -> [OutboxEvent] {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let events = try await ledger.outboxEvents(job: "batch", after: 0, limit: 10, unpublishedOnly: true)
            if events.count >= count || ContinuousClock.now > deadline { return events }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
