import Foundation
import Provisioning

extension RunReportWriter {
    /// `summary.md`: the header, row counts and figures as Markdown tables.
    public static func markdown(_ report: RunReport, _ figures: RunFigures) -> String {
        var text = "# Job \(report.job)\n\n"
        text += "| | |\n|---|---|\n"
        text += "| manifest sha256 | `\(report.manifestSHA256)` |\n"
        text += "| template sha256 | `\(report.templateSHA256)` |\n"
        text += "| readers | \(report.readers.joined(separator: ", ")) |\n"
        text += "| started | \(report.startedAt.map(timestamp) ?? "—") |\n"
        text += "| finished | \(report.finishedAt.map(timestamp) ?? "—") |\n\n"
        let rows = report.rows
        text += "## Rows\n\n| total | done | failed | burned | claimed | pending |\n|---|---|---|---|---|---|\n"
        text +=
            "| \(rows.total) | \(rows.done) | \(rows.failed) | \(rows.burned) | \(rows.claimed) | \(rows.pending) |\n\n"
        text += "## Figures\n\n| figure | value |\n|---|---|\n"
        text += "| tags per hour | \(format(figures.tagsPerHour, digits: 0)) |\n"
        text += "| first-pass yield | \(format(figures.firstPassYield * 100, digits: 1)) % |\n"
        text += "| retries | \(figures.retries) |\n"
        text += "| exchanges per tag | \(format(figures.exchangesPerTag, digits: 1)) |\n"
        text += "| measured tag work per tag | \(format(figures.measuredPerTagMilliseconds, digits: 2)) ms |\n"
        if let air = figures.airtimePerTagMilliseconds, let ratio = figures.measuredOverAirtime {
            text += "| modelled airtime per tag | \(format(air, digits: 2)) ms |\n"
            text += "| measured ÷ airtime | \(format(ratio, digits: 3)) |\n"
        }
        for note in figures.airtimeNotes { text += "\n\(note)\n" }
        text += "\n## Per-phase time (ms, successful tags)\n\n| phase | n | p50 | p95 | max |\n|---|---|---|---|---|\n"
        for phase in Phase.allCases {
            guard let spread = figures.phases[phase] else { continue }
            text += "| \(phase.rawValue) | \(spread.count) | \(format(spread.p50, digits: 2)) | "
            text += "\(format(spread.p95, digits: 2)) | \(format(spread.max, digits: 2)) |\n"
        }
        text += StationFigures.markdownTable(StationFigures.of(report))
        text += reissueSection(report)
        text += "\n## Failures by class\n\n"
        if figures.failuresByClass.isEmpty {
            text += "None.\n"
        } else {
            text += "| class | count |\n|---|---|\n"
            for failure in FailureClass.allCases {
                if let count = figures.failuresByClass[failure] { text += "| \(failure.rawValue) | \(count) |\n" }
            }
        }
        return text
    }

    /// `summary.json` (docs/ledger.md § summary.json; docs/json.md, version 2), through the one document encoder.
    ///
    /// Numbers are rounded by kind (`JSONPrecision`): milliseconds to 3 decimals, ratios to 4, tags per
    /// hour to 1, exchanges per tag to 2.
    public static func json(_ report: RunReport, _ figures: RunFigures) -> String {
        var phases: [String: SummaryJSON.PhaseSpread] = [:]
        for (phase, spread) in figures.phases {
            phases[phase.rawValue] = .init(
                count: spread.count, p50Ms: spread.p50.rounded(.milliseconds),
                p95Ms: spread.p95.rounded(.milliseconds), maxMs: spread.max.rounded(.milliseconds))
        }
        var failures: [String: Int] = [:]
        for (failure, count) in figures.failuresByClass { failures[failure.rawValue] = count }
        let summary = SummaryJSON(
            version: JSONDocument.version, job: report.job, manifestSHA256: report.manifestSHA256,
            templateSHA256: report.templateSHA256, readers: report.readers,
            started: report.startedAt.map(JSONDocument.timestamp),
            finished: report.finishedAt.map(JSONDocument.timestamp),
            rows: .init(
                total: report.rows.total, done: report.rows.done, failed: report.rows.failed,
                burned: report.rows.burned, claimed: report.rows.claimed, pending: report.rows.pending),
            tagsPerHour: figures.tagsPerHour.rounded(.rate), firstPassYield: figures.firstPassYield.rounded(.ratio),
            retries: figures.retries, failuresByClass: DataKeyed(failures), phases: DataKeyed(phases),
            exchangesPerTag: figures.exchangesPerTag.rounded(.mean),
            measuredMsPerTag: figures.measuredPerTagMilliseconds.rounded(.milliseconds),
            airtimeMsPerTag: figures.airtimePerTagMilliseconds.rounded(.milliseconds),
            measuredOverAirtime: figures.measuredOverAirtime.rounded(.ratio),
            reissued: report.reissues.map {
                .init(
                    row: $0.row, originalRow: $0.original, by: $0.by, detail: $0.detail,
                    at: $0.time.map(JSONDocument.timestamp))
            }, stations: stationsJSON(report))
        return (try? JSONDocument.text(summary)) ?? "{}\n"
    }

    /// The `stations` of summary.json: `nil` (left out) unless the run had two or more stations.
    private static func stationsJSON(_ report: RunReport) -> [SummaryJSON.Station]? {
        let stations = StationFigures.of(report)
        guard !stations.isEmpty else { return nil }
        return stations.map { station in
            SummaryJSON.Station(
                station: station.station, readers: station.readers, attempts: station.attempts, done: station.done,
                failed: station.failed, yield: station.yield.rounded(.ratio),
                tagsPerHour: station.tagsPerHour.rounded(.rate),
                lastFailure: station.lastFailure.map {
                    .init(
                        failureClass: $0.failure?.rawValue ?? "failed", detail: $0.detail,
                        at: JSONDocument.timestamp($0.time))
                })
        }
    }

    static func format(_ value: Double, digits: Int) -> String {
        value.formatted(.number.precision(.fractionLength(digits)).grouping(.never))
    }
}

/// The shape of `summary.json`: `JSONDocument`'s encoder spells the keys snake_case.
private struct SummaryJSON: Encodable {
    struct Rows: Encodable { var total, done, failed, burned, claimed, pending: Int }
    /// One phase's spread over the successful tags (`p50_ms`, `p95_ms`, `max_ms`).
    struct PhaseSpread: Encodable {
        var count: Int
        var p50Ms, p95Ms, maxMs: Double
    }
    var version: Int
    var job, manifestSHA256, templateSHA256: String
    var readers: [String]
    var started, finished: String?
    var rows: Rows
    var tagsPerHour, firstPassYield: Double
    var retries: Int
    /// By failure class (`wrong_chip`), by phase name.
    var failuresByClass: DataKeyed<Int>
    var phases: DataKeyed<PhaseSpread>
    var exchangesPerTag, measuredMsPerTag: Double
    var airtimeMsPerTag, measuredOverAirtime: Double?
    struct Reissued: Encodable {
        var row, originalRow: Int
        var by, detail: String
        var at: String?
    }
    /// Rows issued again for destroyed tags (added in schema 5; empty when none).
    var reissued: [Reissued]
    /// One station of a line of stations (left out for a run with fewer than two).
    struct Station: Encodable {
        struct Failure: Encodable {
            var failureClass, detail, at: String

            enum CodingKeys: String, CodingKey {
                case detail, at
                case failureClass = "class"
            }
        }
        var station: String?
        var readers: [String]
        var attempts, done, failed: Int
        var yield, tagsPerHour: Double
        var lastFailure: Failure?

        enum CodingKeys: CodingKey {
            case station, readers, attempts, done, failed, yield, tagsPerHour, lastFailure
        }

        /// Encodes `station` and `last_failure` as `null` when there is none, not left out.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(station, forKey: .station)
            try container.encode(readers, forKey: .readers)
            try container.encode(attempts, forKey: .attempts)
            try container.encode(done, forKey: .done)
            try container.encode(failed, forKey: .failed)
            try container.encode(yield, forKey: .yield)
            try container.encode(tagsPerHour, forKey: .tagsPerHour)
            try container.encode(lastFailure, forKey: .lastFailure)
        }
    }
    var stations: [Station]?
}
