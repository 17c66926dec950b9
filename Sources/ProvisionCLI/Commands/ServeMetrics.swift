import Foundation
import Ledger
import Provisioning
import Reports
import Support
import Synchronization

/// `provision serve`'s `/metrics` in the Prometheus text format 0.0.4: the taps this process answered (verdicts by
/// job, request latency, ledger errors) and the line as the ledger shows it, read at most once a second.
final class ServeMetrics: Sendable {
    /// Upper bounds (seconds) of the latency histogram's buckets.
    static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

    private struct Taps {
        var verdicts: [String: [String: Int]] = [:]
        var bucketCounts = [Int](repeating: 0, count: ServeMetrics.buckets.count)
        var count = 0
        var sum = 0.0
        var ledgerErrors = 0
    }

    /// The line as last read from the ledgers, and when.
    private struct Line {
        var at: ContinuousClock.Instant?
        var text = ""
    }

    private let jobs: Mutex<[TapServiceJob]>
    private let taps = Mutex(Taps())
    private let line = Mutex(Line())
    private let clock = ContinuousClock()

    init(jobs: [TapServiceJob]) { self.jobs = Mutex(jobs) }

    /// The jobs after a reload (SIGHUP): the next reading of the line reads theirs; tap counts are kept.
    func replaceJobs(_ jobs: [TapServiceJob]) {
        self.jobs.withLock { $0 = jobs }
        line.withLock { $0 = Line() }
    }

    /// Counts one answered tap: its verdict under its job (`""` when no job's keys made it) and its latency.
    func verdict(job: String?, verdict: String, seconds: Double) {
        taps.withLock { taps in
            taps.verdicts[job ?? "", default: [:]][verdict, default: 0] += 1
            for (index, bound) in Self.buckets.enumerated() where seconds <= bound { taps.bucketCounts[index] += 1 }
            taps.count += 1
            taps.sum += seconds
        }
    }

    /// Counts one ledger call that failed.
    func ledgerError() { taps.withLock { $0.ledgerErrors += 1 } }

    /// The exposition text, each family once, the line's families from a reading at most a second old.
    func text() -> String {
        var text = taps.withLock { taps in Self.tapFamilies(taps) }
        text += lineFamilies()
        return text
    }

    private static func tapFamilies(_ taps: Taps) -> String {
        var text = family(
            "provision_serve_verdicts_total", "counter", "Tap verification answers by job and verdict.")
        for (job, verdicts) in taps.verdicts.sorted(by: { $0.key < $1.key }) {
            for (verdict, count) in verdicts.sorted(by: { $0.key < $1.key }) {
                text += "provision_serve_verdicts_total{job=\"\(escape(job))\",verdict=\"\(verdict)\"} \(count)\n"
            }
        }
        text += family(
            "provision_serve_request_duration_seconds", "histogram",
            "Time to answer a /v1/verify request, ledger included.")
        for (index, bound) in buckets.enumerated() {
            text += "provision_serve_request_duration_seconds_bucket{le=\"\(bound)\"} \(taps.bucketCounts[index])\n"
        }
        text += "provision_serve_request_duration_seconds_bucket{le=\"+Inf\"} \(taps.count)\n"
        text += "provision_serve_request_duration_seconds_sum \(taps.sum)\n"
        text += "provision_serve_request_duration_seconds_count \(taps.count)\n"
        text += family("provision_serve_ledger_errors_total", "counter", "Ledger calls that failed.")
        text += "provision_serve_ledger_errors_total \(taps.ledgerErrors)\n"
        return text
    }

    /// The line families, read again when the last reading is a second old or more.
    private func lineFamilies() -> String {
        let now = clock.now
        if let cached = line.withLock({ line in line.at.map { now - $0 < .seconds(1) } == true ? line.text : nil }) {
            return cached
        }
        let jobs = self.jobs.withLock { $0 }
        let text = (try? waitBlocking { try await Self.readLine(jobs) }) ?? ""
        if text.isEmpty { ledgerError() }
        line.withLock { $0 = Line(at: now, text: text) }
        return text
    }

    /// Rows by state per job, tags done per station, first-pass yield and tags per hour over the last 10 minutes
    /// (`LedgerStore.lineFigures`: a function on a ledger server, so a verifier's login gets them too).
    private static func readLine(_ jobs: [TapServiceJob]) async throws(LedgerError) -> String {
        var rows = family("provision_line_rows", "gauge", "Rows of the job by state.")
        var stations = family("provision_line_station_tags_done", "gauge", "Tags done per station.")
        var yield = family(
            "provision_line_first_pass_yield_ratio", "gauge", "Share of attempted rows done on their first attempt.")
        var rate = family(
            "provision_line_tags_per_hour", "gauge", "Tags done per hour over the last 10 minutes, all stations.")
        let now = Date()
        for job in jobs {
            let name = job.verifier.job
            let label = "job=\"\(escape(name))\""
            let counts = try await job.ledger.counts(job: name)
            for state in RecordState.allCases {
                rows += "provision_line_rows{\(label),state=\"\(state.rawValue)\"} \(counts[state])\n"
            }
            let figures = try await job.ledger.lineFigures(
                job: name, recentSince: now.addingTimeInterval(-LineStatus.window))
            let status = LineStatus(job: name, counts: counts, activity: figures.stations, at: now)
            for station in status.stations.sorted(by: { $0.reader < $1.reader }) {
                stations += "provision_line_station_tags_done{\(label),station=\"\(escape(station.reader))\"} "
                stations += "\(station.done)\n"
            }
            yield += "provision_line_first_pass_yield_ratio{\(label)} \(figures.firstPassYield)\n"
            rate += "provision_line_tags_per_hour{\(label)} \(status.tagsPerHour)\n"
        }
        return rows + stations + yield + rate
    }

    private static func family(_ name: String, _ type: String, _ help: String) -> String {
        "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    /// A label value with `\`, `"` and newlines escaped.
    static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
