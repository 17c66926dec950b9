import Foundation

/// The self-contained page shell shared by the run and audit reports: inline CSS (screen and print),
/// no scripts, no fonts, images or styles fetched from anywhere, every data value escaped.
public enum HTMLPage {
    /// Escapes text for HTML element content and quoted attribute values (the XML escape, which is
    /// also correct HTML).
    public static func escape(_ text: String) -> String { SVGElement.escape(text, quotes: true) }

    /// A whole HTML5 document: `title` (escaped) and `body` (already HTML).
    ///
    /// `refreshSeconds` adds `<meta http-equiv="refresh">`, so a browser reloads a page that
    /// `provision report --watch` rewrites (no script needed).
    public static func document(title: String, body: String, refreshSeconds: Double? = nil) -> String {
        let refresh = refreshSeconds.map {
            "<meta http-equiv=\"refresh\" content=\"\(max(Int($0.rounded(.up)), 1))\"/>\n"
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8"/>
            \(refresh ?? "")<meta name="viewport" content="width=device-width, initial-scale=1"/>
            <title>\(escape(title))</title>
            <style>
            \(css)
            </style>
            </head>
            <body>
            \(body)
            </body>
            </html>

            """
    }

    /// A `<table>` with a header row; every cell escaped.
    ///
    /// Cells of columns in `numeric` align right, of columns in `code` use a monospace font, of
    /// columns in `nowrap` do not wrap; the cells after the first of the rows in `differing` are coloured as a
    /// failure (an audit's expected record beside a different one on the tag).
    public static func table(
        caption: String, headers: [String], rows: [[String]], numeric: Set<Int> = [], code: Set<Int> = [],
        nowrap: Set<Int> = [], differing: Set<Int> = []
    ) -> String {
        func cellClass(_ column: Int, row: Int? = nil) -> String {
            let classes =
                (numeric.contains(column) ? ["num"] : []) + (code.contains(column) ? ["code"] : [])
                + (nowrap.contains(column) ? ["nowrap"] : [])
                + (column > 0 && row.map(differing.contains) == true ? ["differs"] : [])
            return classes.isEmpty ? "" : " class=\"\(classes.joined(separator: " "))\""
        }
        var html = "<table>\n<caption>\(escape(caption))</caption>\n<thead><tr>"
        for (column, header) in headers.enumerated() { html += "<th\(cellClass(column))>\(escape(header))</th>" }
        html += "</tr></thead>\n<tbody>\n"
        if rows.isEmpty {
            html += "<tr><td colspan=\"\(headers.count)\" class=\"empty\">none</td></tr>\n"
        }
        for (index, row) in rows.enumerated() {
            html += "<tr>"
            for (column, cell) in row.enumerated() {
                html += "<td\(cellClass(column, row: index))>\(escape(cell))</td>"
            }
            html += "</tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    /// All `rows` in one table when there are at most 2 × `listed`, else the first and last `listed`
    /// and a link to `csv`, which holds every row: a run with thousands of failed attempts must not
    /// make a page a browser cannot open (111k attempts once made a 25 MB report).
    public static func headAndTail(
        _ noun: String, headers: [String], rows: [[String]], listed: Int, csv: String, order: String = "time order",
        numeric: Set<Int> = [], code: Set<Int> = [], nowrap: Set<Int> = []
    ) -> String {
        func part(_ caption: String, _ slice: ArraySlice<[String]>) -> String {
            table(caption: caption, headers: headers, rows: Array(slice), numeric: numeric, code: code, nowrap: nowrap)
        }
        guard rows.count > 2 * listed else { return part("All \(rows.count) \(noun), in \(order)", rows[...]) }
        return part("First \(listed) of \(rows.count) \(noun)", rows.prefix(listed))
            + part("Last \(listed) \(noun)", rows.suffix(listed))
            + "<p>Every one of the \(rows.count) is in <a href=\"\(escape(csv))\">\(escape(csv))</a>.</p>\n"
    }

    /// A two-column definition list of `(label, value)` pairs, escaped; values in `code` style when asked.
    public static func facts(_ pairs: [(String, String, code: Bool)]) -> String {
        var html = "<dl class=\"facts\">\n"
        for pair in pairs {
            let value = pair.code ? "<code>\(escape(pair.1))</code>" : escape(pair.1)
            html += "<dt>\(escape(pair.0))</dt><dd>\(value)</dd>\n"
        }
        return html + "</dl>\n"
    }

    /// A `<figure>` holding an inline chart.
    public static func figure(_ svg: SVGElement, caption: String) -> String {
        "<figure>\n\(svg.render())\n<figcaption>\(escape(caption))</figcaption>\n</figure>\n"
    }

    /// The page style: system font stacks only, fixed-size charts that shrink to fit, and a print
    /// layout (A4, no backgrounds needed, figures and table rows kept whole, header rows repeated).
    static let css = """
        :root { color: #111; background: #fff; }
        body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 14px;
          max-width: 1000px; margin: 16px auto; padding: 0 16px; line-height: 1.35; }
        h1 { font-size: 22px; margin: 0 0 4px; }
        h2 { font-size: 17px; margin: 22px 0 8px; border-bottom: 2px solid #111; padding-bottom: 2px; }
        code, .code { font-family: "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: 12px;
          word-break: break-all; }
        td.nowrap { white-space: nowrap; word-break: normal; }
        dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 8px 0; }
        dl.facts dt { font-weight: bold; }
        dl.facts dd { margin: 0; }
        .kpis { display: flex; flex-wrap: wrap; gap: 10px; margin: 10px 0; }
        .kpi { border: 2px solid #111; padding: 6px 12px; min-width: 120px; }
        .kpi .value { font-size: 22px; font-weight: bold; display: block; }
        .kpi .name { font-size: 12px; }
        figure { margin: 12px 0; break-inside: avoid; page-break-inside: avoid; }
        figure svg { max-width: 100%; height: auto; display: block; border: 1px solid #bbb; }
        figcaption { font-size: 12px; color: #333; margin-top: 4px; }
        table { border-collapse: collapse; width: 100%; margin: 8px 0 16px; font-size: 12px; }
        caption { text-align: left; font-weight: bold; padding: 4px 0; }
        th, td { border: 1px solid #999; padding: 3px 6px; text-align: left; vertical-align: top; }
        th { background: #e6e6e6; }
        td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
        td.empty { font-style: italic; color: #444; }
        tbody tr:nth-child(even) td { background: #f5f5f5; }
        .note { font-size: 12px; color: #333; }
        .banner { font-size: 20px; font-weight: bold; padding: 8px 14px; margin: 10px 0; border: 2px solid #111; }
        .banner.pass { background: #e3f4e3; color: #0b4f0b; }
        .banner.fail, .kpi.fail { background: #fbe3e3; color: #8a0c0c; border-color: #8a0c0c; }
        tbody tr td.differs, tbody tr:nth-child(even) td.differs { background: #fbe3e3; color: #8a0c0c;
          font-weight: bold; }
        @page { size: A4; margin: 12mm; }
        @media print {
          body { max-width: none; margin: 0; padding: 0; font-size: 10pt; }
          h2 { break-after: avoid; page-break-after: avoid; }
          figure svg { border: none; width: 100%; }
          thead { display: table-header-group; }
          tr { break-inside: avoid; page-break-inside: avoid; }
          tbody tr:nth-child(even) td, th { background: none; }
          .kpi { border-width: 1px; }
        }
        """
}
