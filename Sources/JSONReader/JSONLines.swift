/// JSON Lines framing: one JSON document per line, parsed with the line's number in every position.
///
/// The caller reads a line's bytes (up to, not including, the LF) from wherever it streams them, so
/// only one line is held at a time; this strips a CR before the LF, tells a blank line apart, and
/// parses the rest with `JSONScanner`.
public enum JSONLines {
    /// What one line holds.
    public enum Line: Sendable {
        /// Nothing but spaces and tabs (or nothing at all).
        case blank
        /// One JSON document.
        case document(JSONNode)
    }

    /// Parses the bytes of line number `line` (without its LF; a trailing CR is dropped).
    ///
    /// - Throws: `JSONScanner.SyntaxError` with the line and column of the problem.
    public static func parse(_ bytes: [UInt8], line: Int) throws(JSONScanner.SyntaxError) -> Line {
        var bytes = bytes
        if bytes.last == 0x0D { bytes.removeLast() }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return .blank }
        return .document(try JSONScanner.parse(bytes, line: line))
    }
}
