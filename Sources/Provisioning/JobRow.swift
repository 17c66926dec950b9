/// One data row of a job: its 1-based number, the line it starts on, and its fields by name.
public struct JobRow: Sendable, Hashable {
    /// The 1-based data row (the CSV header is not a row).
    public var row: Int
    /// The 1-based line of the file where the row starts (for inline records, the manifest line).
    public var line: Int
    /// Field values by header name (CSV) or key (JSON).
    public var fields: [String: String]

    /// Creates a row.
    public init(row: Int, line: Int, fields: [String: String]) {
        self.row = row
        self.line = line
        self.fields = fields
    }
}

/// A stream of rows read one at a time; memory does not grow with the number of rows.
///
/// After `next()` throws for a bad row, calling it again continues with the following row unless
/// `isFinished` is true (the rest of the input cannot be trusted, e.g. after an unclosed quote).
public protocol RowReading: AnyObject {
    /// The file rows come from, as shown in messages.
    var file: String { get }
    /// Column names known before the first row (the CSV header); `nil` for JSON sources.
    var columns: [String]? { get }
    /// Whether the reader has nothing more to give.
    var isFinished: Bool { get }
    /// The largest number of input bytes held in memory at once so far.
    var peakBufferedBytes: Int { get }
    /// The next row, `nil` at the end.
    func next() throws(JobInputError) -> JobRow?
}
