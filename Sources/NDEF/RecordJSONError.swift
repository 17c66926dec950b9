/// A problem in record JSON, naming the JSON path of the offending value.
///
/// `description` reads `records[2].uri: missing`; a problem with the document as a whole (not JSON,
/// wrong top-level shape) has an empty path and only the reason.
public struct RecordJSONError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the problem is, such as `records[2].uri` or `records[0].titles[1].lang`.
    public let path: String
    /// What is wrong there, such as `missing` or `expected a string, got a number`.
    public let reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `path: reason`, or just the reason when the path is empty.
    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}
