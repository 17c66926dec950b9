import Foundation
import Reports
import TestSupport
import Testing

/// Debian's `chromium`, run headless on our own pages.
private struct Chromium {
    let executable: URL

    /// The `chromium` on `PATH`, or a failure telling how to install it (never a silent skip).
    static func locate() throws -> Chromium {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("chromium")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return Chromium(executable: candidate) }
        }
        throw BrowserFailure(
            "chromium not found on PATH: run `make test-deps` (apt package `chromium`); the browser test needs it")
    }

    /// Runs chromium headless with `arguments` after the common flags; returns its standard output.
    ///
    /// A run longer than 120 s is terminated and fails.
    func run(_ arguments: [String], profile: URL) throws -> String {
        let output = profile.appendingPathComponent("stdout.txt")
        let errors = profile.appendingPathComponent("stderr.txt")
        try Data().write(to: output)
        try Data().write(to: errors)
        let process = Process()
        process.executableURL = executable
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                "--user-data-dir=\(profile.appendingPathComponent("profile").path)",
            ] + arguments
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw BrowserFailure("chromium did not finish within 120 s")
        }
        let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw BrowserFailure("chromium exited \(process.terminationStatus): \(stderr.suffix(2000))")
        }
        return try String(contentsOf: output, encoding: .utf8)
    }
}

private struct BrowserFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// What a screenshot looks like, in numbers.
private struct Screenshot {
    var width: Int
    var height: Int
    /// Variance of the gray levels (0 for a blank page).
    var variance: Double
    /// Share of pixels darker than mid-gray (text, bars, rules).
    var darkShare: Double

    init(_ url: URL) throws {
        let image = try PNGImage(try Data(contentsOf: url))
        width = image.width
        height = image.height
        let luma = try image.luma()
        let count = Double(luma.count)
        let mean = luma.reduce(0.0) { $0 + Double($1) } / count
        variance = luma.reduce(0.0) { $0 + (Double($1) - mean) * (Double($1) - mean) } / count
        darkShare = Double(luma.filter { $0 < 128 }.count) / count
    }
}

@Suite(.serialized, .timeLimit(.minutes(5)))
struct ReportBrowserTests {
    static let size = (width: 1200, height: 2000)

    /// Renders `page` to a PNG of `size` and reads back the DOM chromium built from it.
    private func render(_ page: URL, in folder: URL) throws -> (dom: String, png: URL) {
        let chromium = try Chromium.locate()
        let dom = try chromium.run(["--dump-dom", page.absoluteString], profile: folder)
        let png = folder.appendingPathComponent("screenshot.png")
        _ = try chromium.run(
            ["--screenshot=\(png.path)", "--window-size=\(Self.size.width),\(Self.size.height)", page.absoluteString],
            profile: folder)
        return (dom, png)
    }

    @Test func runReportRendersInChromium() throws {
        let folder = try Fixtures.temporaryDirectory("browser-run")
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = SampleReports.line()
        try RunReportWriter.write(report, to: folder)
        let (dom, png) = try render(folder.appendingPathComponent("report.html"), in: folder)
        #expect(dom.contains("Run report — job museum-labels-2026"))
        #expect(dom.components(separatedBy: "<svg").count - 1 == 3)
        #expect(!dom.contains("<script"))
        #expect(FileManager.default.fileExists(atPath: png.path))
        let shot = try Screenshot(png)
        #expect(shot.width == Self.size.width && shot.height == Self.size.height)
        #expect(shot.variance > 500, "page looks blank: gray variance \(shot.variance)")
        #expect(shot.darkShare > 0.02 && shot.darkShare < 0.5, "dark share \(shot.darkShare)")
        // PROVISION_SAMPLE_PNG=reports/sample-report.png keeps the picture for people to look at.
        if let keep = ProcessInfo.processInfo.environment["PROVISION_SAMPLE_PNG"], !keep.isEmpty {
            let target = URL(fileURLWithPath: keep, relativeTo: Fixtures.repositoryRoot)
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.copyItem(at: png, to: target)
        }
    }

    @Test func auditReportRendersInChromium() throws {
        let folder = try Fixtures.temporaryDirectory("browser-audit")
        defer { try? FileManager.default.removeItem(at: folder) }
        let urls = try AuditReportWriter.write(SampleReports.audit(), to: folder)
        let page = try #require(urls.last)
        let (dom, png) = try render(page, in: folder)
        #expect(dom.contains("Audit report — job museum-labels-2026"))
        #expect(dom.contains("&lt;script&gt;alert"))  // the hostile detail stayed text
        #expect(!dom.contains("<script"))
        let shot = try Screenshot(png)
        #expect(shot.width == Self.size.width && shot.height == Self.size.height)
        #expect(shot.variance > 500, "page looks blank: gray variance \(shot.variance)")
    }
}
