import Foundation

/// RFC 4180 quoting for report CSV files.
enum CSVField {
    /// Quotes `text` when it holds a delimiter, quote or line break (`quotedScalars`); doubles embedded
    /// quotes. A leading `=`, `+`, `-`, `@`, TAB or CR gets a `'` so spreadsheets do not run it as a
    /// formula (a TAB or CR before `=` is skipped by spreadsheets, so it must be guarded too). Quoting
    /// `;` and TAB keeps a spreadsheet that splits on them from starting a new cell (and a formula) mid-field.
    static func escape(_ text: String) -> String {
        var value = text
        if let first = value.unicodeScalars.first, formulaStarts.contains(first) { value = "'" + value }
        guard value.unicodeScalars.contains(where: quotedScalars.contains) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Characters that make a field quoted: the delimiters spreadsheets split on (`,` `;` TAB), the quote, CR, LF.
    static let quotedScalars: Set<Unicode.Scalar> = [",", ";", "\"", "\t", "\r", "\n"]

    /// First characters a spreadsheet may take as the start of a formula.
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// One CSV line (CRLF-free; `\n` terminated).
    static func line(_ fields: [String]) -> String { fields.map(escape).joined(separator: ",") + "\n" }
}
