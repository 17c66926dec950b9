import Foundation

/// RFC 4180 quoting for report CSV files.
enum CSVField {
    /// Quotes `text` when it contains a comma, quote, CR or LF; doubles embedded quotes. A leading
    /// `=`, `+`, `-` or `@` gets a `'` so spreadsheets do not run it as a formula.
    static func escape(_ text: String) -> String {
        var value = text
        if let first = value.first, "=+-@".contains(first) { value = "'" + value }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// One CSV line (CRLF-free; `\n` terminated).
    static func line(_ fields: [String]) -> String { fields.map(escape).joined(separator: ",") + "\n" }
}
