import Foundation
import Ledger
import Reports
import Testing

/// The live line view's figures from counts and station activity: rates over the recent window, yield, the
/// line's ETA, and the text an operator reads.
@Suite struct LineStatusTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func counts(pending: Int, claimed: Int = 0, done: Int, failed: Int = 0) -> StateCounts {
        var counts = StateCounts()
        (counts.pending, counts.claimed, counts.done, counts.failed) = (pending, claimed, done, failed)
        return counts
    }

    @Test func ratesAddUpAcrossStationsAndGiveTheETA() {
        var a = StationActivity(
            reader: "station-a", attempts: 110, done: 100, firstAt: Self.now.addingTimeInterval(-3600),
            lastAt: Self.now.addingTimeInterval(-2), recentDone: 60)
        a.lastFailure = StationFailure(
            failureClass: "tagLost", detail: "tag left the field", at: Self.now.addingTimeInterval(-30))
        // Started 300 s ago: its 30 recent tags are measured over those 300 s, not the whole window.
        let b = StationActivity(
            reader: "station-b", attempts: 30, done: 30, firstAt: Self.now.addingTimeInterval(-300),
            lastAt: Self.now.addingTimeInterval(-1), recentDone: 30)
        let status = LineStatus(
            job: "j", counts: Self.counts(pending: 90, claimed: 2, done: 130), activity: [a, b], at: Self.now)
        #expect(status.stations.map(\.tagsPerHour) == [360, 360])
        #expect(status.tagsPerHour == 720)
        #expect(status.etaSeconds == 92.0 * 3600 / 720)
        #expect(abs(status.stations[0].yieldPercent - 100.0 * 100 / 110) < 1e-9)
        let text = status.text
        #expect(text.hasPrefix("job j: 130/222 done, 0 failed, 0 burned, 2 claimed, 90 pending\n"), "\(text)")
        #expect(text.contains("station-a  last seen 0:02 ago · 360 tags/h · yield 90.9 % · 100 done"), "\(text)")
        #expect(text.contains("last failure tagLost 0:30 ago: tag left the field"), "\(text)")
        #expect(
            text.hasSuffix("ETA 7:40 at 720 tags/h (last 10 min)\noutbox: 0 events not yet published\n"), "\(text)")
    }

    @Test func theOutboxBacklogIsShownAsTextAndJSON() throws {
        var status = LineStatus(job: "j", counts: Self.counts(pending: 1, done: 1), activity: [], at: Self.now)
        status.outboxBacklog = 1
        #expect(status.text.contains("\noutbox: 1 event not yet published\n"), "\(status.text)")
        status.outboxBacklog = 12
        #expect(status.text.contains("\noutbox: 12 events not yet published\n"), "\(status.text)")
        let object =
            try JSONSerialization.jsonObject(with: try JSONDocument.encoder().encode(status)) as? [String: Any]
        #expect(object?["outbox_backlog"] as? Int == 12, "\(String(describing: object))")
    }

    @Test func aStalledLineHasNoETAAndAFinishedOneSaysSo() {
        let idle = StationActivity(
            reader: "s", attempts: 5, done: 5, firstAt: Self.now.addingTimeInterval(-7200),
            lastAt: Self.now.addingTimeInterval(-3600), recentDone: 0)
        let stalled = LineStatus(job: "j", counts: Self.counts(pending: 3, done: 5), activity: [idle], at: Self.now)
        #expect(stalled.etaSeconds == nil && stalled.text.contains("no ETA: no station is running"))
        var waiting = idle
        waiting.lastAt = Self.now.addingTimeInterval(-30)
        let slow = LineStatus(job: "j", counts: Self.counts(pending: 3, done: 5), activity: [waiting], at: Self.now)
        #expect(slow.running && slow.etaSeconds == nil)
        #expect(slow.text.contains("ETA unknown: no tag done in the last 10 min"))
        let finished = LineStatus(job: "j", counts: Self.counts(pending: 0, done: 8), activity: [idle], at: Self.now)
        #expect(finished.etaSeconds == 0 && finished.text.contains("every row is resolved"))
        let empty = LineStatus(job: "j", counts: Self.counts(pending: 8, done: 0), activity: [], at: Self.now)
        #expect(empty.text.contains("no station has attempted a tag yet"))
    }

    /// Two stations of job `j` and one of another job on the same ledger server: `a` is live, `b` is gone.
    /// (Built through its Codable form: the ledger makes them.)
    static func leases(aLive: Bool) throws -> [StationLeaseInfo] {
        let at = now.timeIntervalSinceReferenceDate
        let rows = [("a", aLive), ("b", false), ("other", true), ("copy", false)].map { name, live in
            let heartbeat = at + (live ? -1 : -600)
            return
                #"{"name": "\#(name)", "instance": "h:1:2", "startedAt": \#(at - 900), "heartbeatAt": \#(heartbeat), "#
                + #""live": \#(live), "expiresAt": \#(heartbeat + 15)}"#
        }
        return try JSONDecoder().decode([StationLeaseInfo].self, from: Data("[\(rows.joined(separator: ","))]".utf8))
    }

    /// Station `a` did 60 tags in the window (last 2 s ago, as a live lease would show), `b` some before.
    static func activity() -> [StationActivity] {
        [
            StationActivity(
                reader: "a/sim:ntag215", attempts: 60, done: 60, firstAt: now.addingTimeInterval(-3600),
                lastAt: now.addingTimeInterval(-2), recentDone: 60),
            StationActivity(
                reader: "b/sim:ntag215", attempts: 10, done: 10, firstAt: now.addingTimeInterval(-3600),
                lastAt: now.addingTimeInterval(-1200), recentDone: 0),
        ]
    }

    @Test func onlyTheJobsStationsAreListedAndTheirLeasesTellWhetherTheLineRuns() throws {
        var status = LineStatus(
            job: "j", counts: Self.counts(pending: 30, done: 70), activity: Self.activity(), at: Self.now)
        status.add(leases: try Self.leases(aLive: true), claims: [])
        #expect(status.leases.map(\.station) == ["a", "b"], "not the other job's station, nor one that never worked")
        #expect(status.running && status.etaSeconds == 30.0 * 3600 / 360)
        let text = status.text
        #expect(text.contains("station a: live") && text.contains("station b: gone"), "\(text)")
        #expect(!text.contains("station other") && !text.contains("station copy"), "\(text)")
        let json = try Self.json(status)
        #expect((json["leases"] as? [[String: Any]])?.compactMap { $0["station"] as? String } == ["a", "b"])
        #expect(json["running"] as? Bool == true)
    }

    @Test func noETAWhenNoneOfTheJobsStationsIsAlive() throws {
        // `a`'s last tag is recent enough to give a rate, but its lease is gone: the line has stopped.
        var status = LineStatus(
            job: "j", counts: Self.counts(pending: 30, done: 70), activity: Self.activity(), at: Self.now)
        status.add(leases: try Self.leases(aLive: false), claims: [])
        #expect(!status.running && status.etaSeconds == nil)
        #expect(status.text.contains("no ETA: no station is running"), "\(status.text)")
        #expect(!status.text.contains("ETA 0:"), "\(status.text)")
        let json = try Self.json(status)
        #expect(json["running"] as? Bool == false)
        #expect(json["eta_seconds"] is NSNull)
        #expect(json.keys.contains("eta_seconds"), "null, not left out")
    }

    static func json(_ status: LineStatus) throws -> [String: Any] {
        let data = try JSONDocument.encoder().encode(status)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}
