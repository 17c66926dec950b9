/// The rows of a job as a `for … in` sequence: each element is a row or the problem with that row.
///
/// Wraps a `RowReading` (one row in memory at a time). The sequence ends at the end of the input or
/// after a problem that makes the rest unreadable (an unclosed CSV quote). Iterate it once: it
/// consumes its reader. Not Sendable, because the reader owns a file handle.
public struct JobRows: Sequence, IteratorProtocol {
    private let reader: any RowReading
    private var done = false

    /// Wraps an open reader (`Manifest.openRows()`).
    public init(_ reader: any RowReading) {
        self.reader = reader
    }

    /// The next row or problem; `nil` at the end.
    public mutating func next() -> Result<JobRow, JobInputError>? {
        guard !done else { return nil }
        do {
            guard let row = try reader.next() else {
                done = true
                return nil
            }
            return .success(row)
        } catch {
            done = reader.isFinished
            return .failure(error)
        }
    }
}

extension Manifest {
    /// The job's rows as a sequence; opening the file can fail (`fileMissing`, a CSV header error).
    public func rows(chunkSize: Int = 64 * 1024) throws(JobInputError) -> JobRows {
        JobRows(try openRows(chunkSize: chunkSize))
    }
}
