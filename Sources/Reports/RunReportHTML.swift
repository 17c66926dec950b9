import Foundation
import Provisioning

/// `report.html`: one self-contained page for a run (inline CSS and SVG, no scripts, nothing fetched),
/// computed from a `RunReport` only, so the same report always gives the same bytes.
///
/// Layout: header (job, hashes, readers, start/end, rows, tags per hour, first-pass yield), the
/// throughput, per-phase and failure Pareto charts, the stations table on a line of two or more stations
/// (`StationFigures`), then the failures table and the first and last tags done.
public enum RunReportHTML {
    /// How many of the first and of the last tags done are listed.
    public static let tagsListed = 10
    /// Failed attempts listed at each end of the failures table (the rest are in failures.csv).
    public static let failuresListed = 100

    /// The page for `report`.
    public static func render(_ report: RunReport, refreshSeconds: Double? = nil) -> String {
        let figures = RunFigures(report)
        var body = "<header>\n<h1>Run report — job \(HTMLPage.escape(report.job))</h1>\n"
        body += HTMLPage.facts([
            ("manifest sha256", report.manifestSHA256, code: true),
            ("template sha256", report.templateSHA256, code: true),
            ("readers", report.readers.isEmpty ? "—" : report.readers.joined(separator: ", "), code: false),
            ("started", report.startedAt.map(RunReportWriter.timestamp) ?? "—", code: false),
            ("finished", report.finishedAt.map(RunReportWriter.timestamp) ?? "—", code: false),
        ])
        body += kpis(report, figures) + "</header>\n"
        body += "<section>\n<h2>Charts</h2>\n"
        let throughput = ThroughputChart(report)
        body += HTMLPage.figure(
            throughput.svg(prefix: "tp"),
            caption:
                "Tags done per minute in fixed time buckets, stacked by \(throughput.noun); shaded spans had no tags.")
        body += HTMLPage.figure(PhaseChart(report).svg(), caption: phaseCaption(figures))
        let failureCounts = FailureClass.allCases.map { ($0.rawValue, figures.failuresByClass[$0] ?? 0) }
        let pareto = ParetoChart(
            title: "Failed attempts by class (Pareto)", unit: "failed attempts", counts: failureCounts)
        // No failures, no chart: one line instead of an empty plot.
        body +=
            pareto.bars.isEmpty
            ? "<p class=\"note\">No failed attempts: no failure chart.</p>\n"
            : HTMLPage.figure(
                pareto.svg(prefix: "pf"),
                caption: "Bars: failed attempts per class, largest first (duplicates included); line: cumulative share."
            )
        body += "</section>\n" + StationFigures.htmlTable(StationFigures.of(report))
        body += "<section>\n<h2>Failures</h2>\n" + failuresTable(report) + "</section>\n"
        body += RunReportWriter.reissueHTML(report)
        body += "<section>\n<h2>Tags done</h2>\n" + tagTables(report) + "</section>\n"
        return HTMLPage.document(title: "Run report — \(report.job)", body: body, refreshSeconds: refreshSeconds)
    }

    private static func kpis(_ report: RunReport, _ figures: RunFigures) -> String {
        let rows = report.rows
        var items = [
            ("rows done", "\(rows.done) / \(rows.total)"), ("failed", String(rows.failed)),
            ("pending", String(rows.pending)),
            ("tags per hour", SVG.fixed(figures.tagsPerHour, digits: 0)),
            ("first-pass yield", SVG.fixed(figures.firstPassYield * 100, digits: 1) + " %"),
            ("retries", String(figures.retries)),
            ("exchanges per tag", SVG.fixed(figures.exchangesPerTag, digits: 1)),
        ]
        if rows.burned > 0 { items.insert(("burned", String(rows.burned)), at: 2) }
        if rows.claimed > 0 { items.insert(("claimed", String(rows.claimed)), at: 2) }
        if let ratio = figures.measuredOverAirtime {
            items.append(("measured ÷ radio floor", SVG.fixed(ratio, digits: 2)))
        }
        var html = "<div class=\"kpis\">\n"
        for (name, value) in items {
            html += "<div class=\"kpi\"><span class=\"value\">\(HTMLPage.escape(value))</span>"
            html += "<span class=\"name\">\(HTMLPage.escape(name))</span></div>\n"
        }
        return html + "</div>\n"
    }

    private static func phaseCaption(_ figures: RunFigures) -> String {
        let measured = SVG.fixed(figures.measuredPerTagMilliseconds, digits: 2)
        guard let air = figures.airtimePerTagMilliseconds else {
            return "Per-phase time per tag; mean tag work \(measured) ms. Timing not modelled: no radio floor."
        }
        let caption =
            "Per-phase time per tag; mean tag work \(measured) ms against a modelled radio floor of "
            + "\(SVG.fixed(air, digits: 2)) ms (dashed line)."
        return ([caption] + figures.airtimeNotes).joined(separator: " ")
    }

    /// The failures table: UID, row, class, detail, phase, time, reader.
    static func failuresTable(_ report: RunReport) -> String {
        let rows = report.failures.map { failure in
            [
                failure.uid, failure.row.map(String.init) ?? "—", failure.failure?.rawValue ?? "", failure.detail,
                failure.phase.rawValue, RunReportWriter.timestamp(failure.time), failure.reader,
            ]
        }
        return HTMLPage.headAndTail(
            "failed attempt(s)", headers: ["UID", "row", "class", "detail", "phase", "time", "reader"], rows: rows,
            listed: failuresListed, csv: "failures.csv", numeric: [1], code: [0], nowrap: [0, 5])
    }

    /// The first and last `tagsListed` tags done (one table when they overlap).
    static func tagTables(_ report: RunReport) -> String {
        let headers = ["UID", "row", "serial", "locked", "time", "reader", "message sha256"]
        func line(_ tag: RunReport.TagLine) -> [String] {
            [
                tag.uid, String(tag.row), tag.serial, tag.locked ? "yes" : "no", RunReportWriter.timestamp(tag.time),
                tag.reader, tag.messageSHA256,
            ]
        }
        let ordered = report.tags.enumerated().sorted {
            $0.element.time != $1.element.time ? $0.element.time < $1.element.time : $0.offset < $1.offset
        }.map(\.element)
        if ordered.count <= 2 * tagsListed {
            return HTMLPage.table(
                caption: "All \(ordered.count) tag(s) done, in time order", headers: headers, rows: ordered.map(line),
                numeric: [1], code: [0, 6], nowrap: [0, 4])
        }
        return HTMLPage.table(
            caption: "First \(tagsListed) of \(ordered.count) tags done", headers: headers,
            rows: ordered.prefix(tagsListed).map(line), numeric: [1], code: [0, 6], nowrap: [0, 4])
            + HTMLPage.table(
                caption: "Last \(tagsListed) tags done", headers: headers, rows: ordered.suffix(tagsListed).map(line),
                numeric: [1], code: [0, 6], nowrap: [0, 4])
    }
}
