import Foundation

/// A throw-away job folder for end-to-end tests: a manifest, a template and CSV rows.
public struct JobFolder: Sendable {
    /// The folder (also the working directory the CLI runs in).
    public let url: URL
    /// The job name.
    public let job: String

    /// Writes `rows` CSV rows (sku,name), a URI + Text template and a manifest with `extra` keys.
    public init(job: String = "t", rows: Int, tag: String = "ntag215", lock: Bool = true, extra: String = "") throws {
        url = try Fixtures.temporaryDirectory("job-\(job)")
        self.job = job
        var csv = "sku,name\n"
        for row in 1...max(rows, 1) where rows > 0 { csv += "SKU-\(row),Item \(row)\n" }
        try Data(csv.utf8).write(to: url.appendingPathComponent("rows.csv"))
        let template = """
            {"records": [{"type": "uri", "uri": "https://example.com/p/{{sku}}/{{serial}}?u={{uid}}"},
                         {"type": "text", "text": "{{name}}", "lang": "en"}]}
            """
        try Data(template.utf8).write(to: url.appendingPathComponent("template.json"))
        let manifest = """
            {"job": "\(job)", "template": "template.json", "records": "rows.csv", "tag": "\(tag)",
             "lock": "\(lock ? "permanent" : "none")", "retries": 2, "onFailure": "reuse",
             "serial": {"start": 1, "width": 5, "prefix": "S"}\(extra)}
            """
        try Data(manifest.utf8).write(to: url.appendingPathComponent("job.json"))
    }

    /// The tag image store used in reader specs.
    public var store: URL { url.appendingPathComponent("tags") }
    /// The default ledger path (`reports/<job>/ledger.sqlite` under the folder).
    public var ledger: URL { url.appendingPathComponent("reports/\(job)/ledger.sqlite") }
    /// The default reports folder.
    public var reports: URL { url.appendingPathComponent("reports/\(job)") }

    /// A `sim:` spec storing images in `store`.
    public func sim(_ chip: String = "ntag215", uid: String, options: String = "") -> String {
        "sim:\(chip)?uid=\(uid)&store=\(store.path)" + (options.isEmpty ? "" : "&" + options)
    }

    /// Runs `sqlite3 -separator , <ledger> <sql>` and returns its rows.
    public func query(_ sql: String) throws -> [[String]] { try SQLiteShell.query(ledger.path, sql) }
}
