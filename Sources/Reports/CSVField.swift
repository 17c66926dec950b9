import Foundation

/// RFC 4180 quoting for report CSV files.
enum CSVField {
    /// Quotes `text` when it contains a comma, quote, CR or LF; doubles embedded quotes. A leading
    /// `=`, `+`, `-`, `@`, TAB or CR gets a `'` so spreadsheets do not run it as a formula (a TAB or CR
    /// before `=` is skipped by spreadsheets, so it must be guarded too).
    static func escape(_ text: String) -> String {
        var value = text
        if let first = value.unicodeScalars.first, formulaStarts.contains(first) { value = "'" + value }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// First characters a spreadsheet may take as the start of a formula.
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// One CSV line (CRLF-free; `\n` terminated).
    static func line(_ fields: [String]) -> String { fields.map(escape).joined(separator: ",") + "\n" }
}
