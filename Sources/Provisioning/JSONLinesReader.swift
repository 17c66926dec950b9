import Foundation
import JSONReader

/// A streaming JSON Lines reader: one JSON object of scalar values per line, one `JobRow` per line.
///
/// Values may be strings, numbers (kept as written), booleans (`true`/`false`) or null (an empty
/// string). Blank lines, arrays, nested objects, invalid UTF-8 and NUL bytes are errors naming the
/// file, line and column; after one, reading continues with the next line. LF or CRLF line ends; a
/// byte order mark is skipped. One line is held in memory at a time.
public final class JSONLinesReader: RowReading {
    /// The file as shown in messages.
    public let file: String
    /// Whether the reader has nothing more to give.
    public private(set) var isFinished = false

    private let stream: ByteStream
    private var line = 0
    private var rowNumber = 0

    /// Opens `url` for reading.
    public convenience init(url: URL, file: String, chunkSize: Int = 64 * 1024) throws(JobInputError) {
        try self.init(stream: ByteStream(url: url, file: file, chunkSize: chunkSize), file: file)
    }

    /// Reads JSON Lines from memory (tests).
    public convenience init(bytes: [UInt8], file: String, chunkSize: Int = 64 * 1024) throws(JobInputError) {
        try self.init(stream: ByteStream(bytes: bytes, file: file, chunkSize: chunkSize), file: file)
    }

    private init(stream: ByteStream, file: String) throws(JobInputError) {
        self.stream = stream
        self.file = file
        try stream.skipByteOrderMark()
    }

    /// JSON Lines has no header.
    public var columns: [String]? { nil }

    /// The most input bytes held in memory at once so far.
    public var peakBufferedBytes: Int { stream.peakBufferedBytes }

    /// The next row; throws for a malformed line, then continues with the next one.
    public func next() throws(JobInputError) -> JobRow? {
        guard !isFinished else { return nil }
        guard try !stream.isAtEnd() else {
            isFinished = true
            return nil
        }
        line += 1
        rowNumber += 1
        var bytes: [UInt8] = []
        while let byte = try stream.next(), byte != 0x0A {
            bytes.append(byte)
        }
        let parsed: JSONLines.Line
        do {
            parsed = try JSONLines.parse(bytes, line: line)
        } catch {
            throw JobInputError(.jsonSyntax, file: file, position: error.position, row: rowNumber, error.message)
        }
        guard case .document(let node) = parsed else {
            throw JobInputError(
                .recordInvalid, file: file, position: TextPosition(line: line, column: 1), row: rowNumber,
                "blank line (expected a JSON object)")
        }
        let fields = try JobRow.fields(of: node, file: file, row: rowNumber, path: nil)
        return JobRow(row: rowNumber, line: line, fields: fields)
    }
}

/// Rows written inline in the manifest (`records: [ {…}, … ]`), already parsed.
public final class InlineRowReader: RowReading {
    /// The manifest, as shown in messages.
    public let file: String
    private let rows: [JobRow]
    private var index = 0

    /// Creates a reader over rows decoded from the manifest.
    public init(rows: [JobRow], file: String) {
        self.rows = rows
        self.file = file
    }

    /// Inline records have no header.
    public var columns: [String]? { nil }
    /// Whether every row was given out.
    public var isFinished: Bool { index >= rows.count }
    /// Inline rows live in the manifest; nothing is buffered from a file.
    public var peakBufferedBytes: Int { 0 }

    /// The next row.
    public func next() throws(JobInputError) -> JobRow? {
        guard index < rows.count else { return nil }
        defer { index += 1 }
        return rows[index]
    }
}

extension JobRow {
    /// The fields of one JSON object of scalar values; `path` prefixes messages (`records[3]`).
    static func fields(of node: JSONNode, file: String, row: Int, path: String?) throws(JobInputError) -> [String:
        String]
    {
        let prefix = path.map { "\($0): " } ?? ""
        guard let members = node.members else {
            throw JobInputError(
                .recordInvalid, file: file, position: node.position, row: row,
                "\(prefix)a record must be a JSON object, found \(node.kindName)")
        }
        var fields: [String: String] = [:]
        for member in members {
            switch member.value.kind {
            case .string(let text, _): fields[member.key] = text
            case .number(let text): fields[member.key] = text
            case .bool(let flag): fields[member.key] = flag ? "true" : "false"
            case .null: fields[member.key] = ""
            case .array, .object:
                let place = path.map { "\($0).\(member.key)" } ?? member.key
                throw JobInputError(
                    .recordInvalid, file: file, position: member.value.position, row: row,
                    "\(place): must be a string, number, boolean or null, found \(member.value.kindName)")
            }
        }
        return fields
    }
}
