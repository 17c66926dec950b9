import Foundation
import TestSupport
import Testing

/// The end-of-run text summary of `provision run`, and the files written beside it, through the binary.
@Suite(.serialized) struct RunSummaryTextTests {
    static let notePrefix = "Measured ÷ airtime (the modelled radio floor) is below 1 because with timing=instant"

    /// The run's stdout and its measured ÷ airtime ratio as printed.
    private func run(_ options: String) throws -> (folder: JobFolder, stdout: String, ratio: Double) {
        let folder = try JobFolder(rows: 4)
        let spec = folder.sim(uid: "04000000000001", options: "count=4" + options)
        let outcome = try ProvisionProcess.run(["run", "job.json", "--reader", spec], directory: folder.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let marker = try #require(outcome.stdout.range(of: "(measured ÷ airtime "))
        let ratio = try #require(Double(outcome.stdout[marker.upperBound...].prefix { $0 != ")" }))
        return (folder, outcome.stdout, ratio)
    }

    /// The note as the text summary prints it: its wrapped lines joined again.
    private func note(in stdout: String) -> String? {
        let lines = stdout.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("  Measured ÷ airtime") }) else { return nil }
        let end = lines[start...].firstIndex { $0.hasPrefix("  per phase") } ?? lines.endIndex
        #expect(lines[start..<end].allSatisfy { $0.hasPrefix("  ") && $0.count <= 102 })
        return lines[start..<end].map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    @Test func instantTimingExplainsARatioBelowOneInEverySummary() throws {
        let (folder, stdout, ratio) = try run("")
        defer { try? FileManager.default.removeItem(at: folder.url) }
        #expect(ratio < 1, "timing=instant does not wait for the modelled airtime")
        let text = try #require(note(in: stdout))
        #expect(text.hasPrefix(Self.notePrefix))
        let markdown = try String(contentsOf: folder.reports.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(markdown.contains("\n" + text + "\n"))
        let html = try String(contentsOf: folder.reports.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.contains(text.replacingOccurrences(of: "'", with: "&#39;") + "</figcaption>"))
    }

    @Test func datasheetTimingExplainsTheRatioOnlyWhenItIsBelowOne() throws {
        let (folder, stdout, ratio) = try run("&timing=datasheet")
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let markdown = try String(contentsOf: folder.reports.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect((note(in: stdout) != nil) == (ratio < 1), "ratio \(ratio)")
        #expect(markdown.contains(Self.notePrefix) == (ratio < 1), "ratio \(ratio)")
    }
}
