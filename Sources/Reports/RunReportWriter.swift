import Foundation
import Provisioning

/// Writes a run's report files into the reports folder: `summary.md`, `summary.json`, `tags.csv`,
/// `failures.csv`, `report.html`. Files are written whole to a temporary name and renamed, so a reader
/// never sees half a file.
public enum RunReportWriter {
    /// The file names written, in order.
    public static let fileNames = ["summary.md", "summary.json", "tags.csv", "failures.csv", "report.html"]

    /// Writes every report file for `report` into `folder` (created if missing).
    ///
    /// `refreshSeconds` makes report.html reload itself that often (`provision report --watch`).
    /// - Throws: Foundation file errors (the CLI maps them to exit 73/74).
    public static func write(_ report: RunReport, to folder: URL, refreshSeconds: Double? = nil) throws {
        try PrivateFiles.createFolder(folder)
        let figures = RunFigures(report)
        try atomicWrite(markdown(report, figures), to: folder.appendingPathComponent("summary.md"))
        try atomicWrite(json(report, figures), to: folder.appendingPathComponent("summary.json"))
        try atomicWrite(tagsCSV(report), to: folder.appendingPathComponent("tags.csv"))
        try atomicWrite(failuresCSV(report), to: folder.appendingPathComponent("failures.csv"))
        try atomicWrite(
            RunReportHTML.render(report, refreshSeconds: refreshSeconds),
            to: folder.appendingPathComponent("report.html"))
    }

    /// `tags.csv`: UID, row, serial, message sha256, locked, time, reader, chip, family.
    public static func tagsCSV(_ report: RunReport) -> String {
        var text = CSVField.line(
            ["uid", "row", "serial", "message_sha256", "locked", "time", "reader", "chip", "family"])
        for tag in report.tags {
            text += CSVField.line([
                tag.uid, String(tag.row), tag.serial, tag.messageSHA256, tag.locked ? "true" : "false",
                timestamp(tag.time), tag.reader, tag.chip, tag.family,
            ])
        }
        return text
    }

    /// `failures.csv`: UID, row, class, detail, phase, time, reader.
    public static func failuresCSV(_ report: RunReport) -> String {
        var text = CSVField.line(["uid", "row", "class", "detail", "phase", "time", "reader"])
        for failure in report.failures {
            text += CSVField.line([
                failure.uid, failure.row.map(String.init) ?? "", failure.failure?.rawValue ?? "", failure.detail,
                failure.phase.rawValue, timestamp(failure.time), failure.reader,
            ])
        }
        return text
    }

    /// ISO 8601 UTC with milliseconds.
    public static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true))
    }

    /// Writes `text` whole (temporary file renamed over `url`), owner-only (`PrivateFiles`).
    static func atomicWrite(_ text: String, to url: URL) throws {
        try PrivateFiles.write(text.utf8, to: url)
    }
}
