import Foundation
import JSONReader

/// A streaming RFC 4180 CSV reader: a header row, then one `JobRow` per record.
///
/// Accepted: quoted fields with doubled quotes, commas and line breaks inside; CRLF or LF line ends;
/// a UTF-8 byte order mark; a final line end or none. Errors, each naming file, line and column:
/// an empty file, empty or duplicate header names, ragged rows (blank lines included), a quote inside
/// an unquoted field, text after a closing quote, a bare CR, invalid UTF-8, NUL bytes, and an
/// unclosed quote (the only error after which reading stops). The file is read in chunks; memory
/// holds one chunk and one record.
public final class CSVReader: RowReading {
    /// The file as shown in messages.
    public let file: String
    /// The header names in file order.
    public private(set) var header: [String] = []
    /// Whether the reader has nothing more to give.
    public private(set) var isFinished = false

    private let stream: ByteStream
    private var line = 1
    private var column = 1
    private var rowNumber = 0
    /// Continuation bytes still expected after a valid UTF-8 lead byte.
    private var continuations = 0

    /// Opens `url` and reads the header row.
    public convenience init(url: URL, file: String, chunkSize: Int = 64 * 1024) throws(JobInputError) {
        try self.init(stream: ByteStream(url: url, file: file, chunkSize: chunkSize), file: file)
    }

    /// Reads CSV from memory (tests), `chunkSize` bytes at a time.
    public convenience init(bytes: [UInt8], file: String, chunkSize: Int = 64 * 1024) throws(JobInputError) {
        try self.init(stream: ByteStream(bytes: bytes, file: file, chunkSize: chunkSize), file: file)
    }

    private init(stream: ByteStream, file: String) throws(JobInputError) {
        self.stream = stream
        self.file = file
        try stream.skipByteOrderMark()
        guard try !stream.isAtEnd() else {
            throw error(TextPosition(line: 1, column: 1), "empty file: a header row is required")
        }
        var record = Record()
        try readRecord(into: &record)
        if let problem = record.problem { throw problem }
        var seen: [String: Int] = [:]
        for (number, field) in record.fields.enumerated() {
            let name = record.text(of: field)
            if name.isEmpty {
                throw error(field.position, "header field \(number + 1) is empty")
            }
            if let earlier = seen[name] {
                throw error(field.position, "duplicate header name '\(name)' (also field \(earlier + 1))")
            }
            seen[name] = number
            header.append(name)
        }
    }

    /// The header names.
    public var columns: [String]? { header }

    /// The most input bytes held in memory at once so far.
    public var peakBufferedBytes: Int { stream.peakBufferedBytes }

    /// The next row; throws for a malformed record, then continues with the next one.
    public func next() throws(JobInputError) -> JobRow? {
        guard !isFinished else { return nil }
        guard try !stream.isAtEnd() else {
            isFinished = true
            return nil
        }
        rowNumber += 1
        let startLine = line
        // The record's buffers are kept between rows, so reading a row allocates only its strings.
        var record = Record()
        swap(&record, &spare)
        defer { swap(&record, &spare) }
        try readRecord(into: &record)
        if let problem = record.problem { throw problem }
        if record.fields.count != header.count {
            if record.fields.count == 1, record.fields[0].start == record.fields[0].end, !record.fields[0].quoted {
                throw error(
                    TextPosition(line: startLine, column: 1), row: rowNumber,
                    "blank line (expected \(header.count) fields)")
            }
            let position = record.fields.count > header.count ? record.fields[header.count].position : record.end
            throw error(
                position, row: rowNumber,
                "row has \(record.fields.count) field\(record.fields.count == 1 ? "" : "s"), "
                    + "the header has \(header.count)"
            )
        }
        var fields = [String: String](minimumCapacity: header.count)
        for (name, field) in zip(header, record.fields) {
            fields[name] = record.text(of: field)
        }
        return JobRow(row: rowNumber, line: startLine, fields: fields)
    }

    /// One field: its bytes are `Record.bytes[start..<end]`.
    private struct Field {
        var start: Int
        var end: Int
        var position: TextPosition
        var quoted = false
    }

    /// One record: every field's bytes back to back in one buffer.
    private struct Record {
        var bytes: [UInt8] = []
        var fields: [Field] = []
        var end = TextPosition(line: 1, column: 1)
        var problem: JobInputError?

        func text(of field: Field) -> String {
            bytes.withUnsafeBufferPointer { String(decoding: $0[field.start..<field.end], as: UTF8.self) }
        }

        /// Ends `field` at the current end of the bytes and adds it.
        mutating func close(_ field: Field) {
            var field = field
            field.end = bytes.count
            fields.append(field)
        }
    }

    /// The record buffers `next()` reuses.
    private var spare = Record()

    private func error(_ position: TextPosition, row: Int? = nil, _ message: String) -> JobInputError {
        JobInputError(.csvInvalid, file: file, position: position, row: row, message)
    }

    private var here: TextPosition { TextPosition(line: line, column: column) }

    /// Consumes one byte, checking NUL and UTF-8, and tracks line and column.
    private func take(into record: inout Record) throws(JobInputError) -> UInt8? {
        guard let byte = try stream.peek() else { return nil }
        if byte == 0 {
            note(&record, error(here, row: rowNumber > 0 ? rowNumber : nil, "NUL byte"))
        } else if byte & 0xC0 == 0x80 {
            if continuations > 0 {
                continuations -= 1
            } else {
                note(&record, error(here, row: rowNumber > 0 ? rowNumber : nil, "invalid UTF-8"))
            }
        } else if byte >= 0x80 {
            let length = UTF8Check.sequenceLength(try stream.peek(count: 4), at: 0)
            if length == 0 {
                note(&record, error(here, row: rowNumber > 0 ? rowNumber : nil, "invalid UTF-8"))
                continuations = 0
            } else {
                continuations = length - 1
            }
        } else {
            continuations = 0
        }
        _ = try stream.next()
        if byte == 0x0A {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
        return byte
    }

    /// Takes a run of ordinary ASCII bytes at once (`ByteStream.takeRun`): each is one column, valid
    /// UTF-8 and neither NUL nor a line end, exactly as `take` would count them one by one.
    private func skipPlain(into record: inout Record, quoted: Bool) throws(JobInputError) {
        let count = try stream.takeRun(into: &record.bytes, quoted: quoted)
        if count > 0 {
            column += count
            continuations = 0
        }
    }

    private func note(_ record: inout Record, _ problem: JobInputError) {
        if record.problem == nil { record.problem = problem }
    }

    /// Reads one record up to and including its line end (or the end of input).
    private func readRecord(into record: inout Record) throws(JobInputError) {
        record.bytes.removeAll(keepingCapacity: true)
        record.fields.removeAll(keepingCapacity: true)
        record.end = TextPosition(line: 1, column: 1)
        record.problem = nil
        let rowLabel: Int? = rowNumber > 0 ? rowNumber : nil
        while true {
            var field = Field(start: record.bytes.count, end: record.bytes.count, position: here)
            if try stream.peek() == UInt8(ascii: "\"") {
                field.quoted = true
                let open = here
                _ = try take(into: &record)
                while true {
                    try skipPlain(into: &record, quoted: true)
                    guard let byte = try take(into: &record) else {
                        isFinished = true
                        throw error(open, row: rowLabel, "quoted field is never closed")
                    }
                    if byte == UInt8(ascii: "\"") {
                        if try stream.peek() == UInt8(ascii: "\"") {
                            _ = try take(into: &record)
                            record.bytes.append(byte)
                            continue
                        }
                        break
                    }
                    record.bytes.append(byte)
                }
                if let after = try stream.peek(), after != UInt8(ascii: ","), after != 0x0A, after != 0x0D {
                    note(&record, error(here, row: rowLabel, "text after a closing quote"))
                }
            }
            while true {
                try skipPlain(into: &record, quoted: false)
                guard let byte = try stream.peek() else {
                    record.close(field)
                    record.end = here
                    return
                }
                if byte == UInt8(ascii: ",") {
                    _ = try take(into: &record)
                    break
                }
                if byte == 0x0A || byte == 0x0D {
                    record.end = here
                    _ = try take(into: &record)
                    if byte == 0x0D {
                        if try stream.peek() == 0x0A {
                            _ = try take(into: &record)
                        } else {
                            note(&record, error(record.end, row: rowLabel, "carriage return without a line feed"))
                            line += 1
                            column = 1
                        }
                    }
                    record.close(field)
                    return
                }
                if byte == UInt8(ascii: "\"") {
                    note(
                        &record,
                        error(
                            here, row: rowLabel,
                            "quote inside an unquoted field; quote the whole field and double the quote"))
                }
                _ = try take(into: &record)
                record.bytes.append(byte)
            }
            record.close(field)
        }
    }
}
