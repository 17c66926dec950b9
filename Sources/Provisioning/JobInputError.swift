// Re-exported: this error's `position` (and the template's positions) are JSONReader's `TextPosition`,
// so a client reading `error.position?.line` needs no import of its own.
@_exported import JSONReader

/// A problem with a job's inputs (manifest, template, records), naming the file and where in it.
///
/// `description` is the one-line form the CLI prints: `FILE:LINE:COLUMN: message`, with the JSON
/// path first where there is one (`jobs/x.json:4:5: serial.stepp: unknown key`). Equality and
/// hashing use the code only (docs/style.md §3.2), so tests match on codes and compare `description` for text.
public struct JobInputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem this is; the CLI maps `fileMissing` to exit 66 and the rest to 65.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// A file does not exist or cannot be read.
        public static let fileMissing = Code("fileMissing")
        /// A JSON syntax error in a manifest, template or JSON Lines row.
        public static let jsonSyntax = Code("jsonSyntax")
        /// A manifest field is missing, unknown or has a bad value.
        public static let manifestInvalid = Code("manifestInvalid")
        /// The CSV file breaks RFC 4180 or the header rules.
        public static let csvInvalid = Code("csvInvalid")
        /// A record (JSON Lines or inline) is not an object of scalar values.
        public static let recordInvalid = Code("recordInvalid")
        /// A template placeholder, filter or record is wrong.
        public static let templateInvalid = Code("templateInvalid")
        /// A row cannot be rendered (missing field, bad value for the record).
        public static let renderFailed = Code("renderFailed")
        /// A rendered message does not fit the chip.
        public static let capacityExceeded = Code("capacityExceeded")
        /// A `unique` field repeats an earlier row's value.
        public static let duplicateValue = Code("duplicateValue")
        public var description: String { name }
    }

    /// The kind of problem.
    public let code: Code
    /// The file as shown to the user (relative to the working directory when under it).
    public let file: String
    /// Where in the file, when known.
    public let position: TextPosition?
    /// The 1-based data row, for problems with one row.
    public let row: Int?
    /// What is wrong, without the location prefix.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, file: String, position: TextPosition? = nil, row: Int? = nil, _ message: String) {
        self.code = code
        self.file = file
        self.position = position
        self.row = row
        self.message = message
    }

    /// `FILE:LINE:COLUMN: [row N: ]message`.
    public var description: String {
        var text = file
        if let position { text += ":\(position.line):\(position.column)" }
        text += ": "
        if let row { text += "row \(row): " }
        return text + message
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
