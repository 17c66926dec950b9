import Foundation
import Provisioning
import Testing

/// Reads every row of `text` with a given chunk size; `nil` entries are rows that threw.
private func rows(_ bytes: [UInt8], chunkSize: Int = 64 * 1024) throws(JobInputError) -> (
    header: [String], rows: [JobRow]
) {
    let reader = try CSVReader(bytes: bytes, file: "t.csv", chunkSize: chunkSize)
    var out: [JobRow] = []
    while let row = try reader.next() { out.append(row) }
    return (reader.header, out)
}

struct RFC4180Case: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var header: [String]
    var rows: [[String]]
    var lines: [Int]
    var testDescription: String { name }
}

private let conformance: [RFC4180Case] = [
    RFC4180Case(
        name: "LF, trailing newline", bytes: Array("a,b\n1,2\n3,4\n".utf8), header: ["a", "b"],
        rows: [["1", "2"], ["3", "4"]], lines: [2, 3]),
    RFC4180Case(
        name: "CRLF, trailing newline", bytes: Array("a,b\r\n1,2\r\n3,4\r\n".utf8), header: ["a", "b"],
        rows: [["1", "2"], ["3", "4"]], lines: [2, 3]),
    RFC4180Case(
        name: "no trailing newline", bytes: Array("a,b\r\n1,2\r\n3,4".utf8), header: ["a", "b"],
        rows: [["1", "2"], ["3", "4"]], lines: [2, 3]),
    RFC4180Case(
        name: "BOM", bytes: [0xEF, 0xBB, 0xBF] + Array("a,b\n1,2\n".utf8), header: ["a", "b"],
        rows: [["1", "2"]], lines: [2]),
    RFC4180Case(
        name: "quoted comma", bytes: Array("a,b\n\"x,y\",2\n".utf8), header: ["a", "b"],
        rows: [["x,y", "2"]], lines: [2]),
    RFC4180Case(
        name: "doubled quotes", bytes: Array("a,b\n\"say \"\"hi\"\"\",\"\"\"\"\n".utf8), header: ["a", "b"],
        rows: [["say \"hi\"", "\""]], lines: [2]),
    RFC4180Case(
        name: "quoted LF newline", bytes: Array("a,b\n\"line1\nline2\",2\n3,4\n".utf8), header: ["a", "b"],
        rows: [["line1\nline2", "2"], ["3", "4"]], lines: [2, 4]),
    RFC4180Case(
        name: "quoted CRLF newline kept", bytes: Array("a,b\r\n\"l1\r\nl2\",2\r\n".utf8), header: ["a", "b"],
        rows: [["l1\r\nl2", "2"]], lines: [2]),
    RFC4180Case(
        name: "empty fields", bytes: Array("a,b,c\n,,\n\"\",x,\n".utf8), header: ["a", "b", "c"],
        rows: [["", "", ""], ["", "x", ""]], lines: [2, 3]),
    RFC4180Case(
        name: "spaces kept", bytes: Array("a,b\n 1 , 2\n".utf8), header: ["a", "b"],
        rows: [[" 1 ", " 2"]], lines: [2]),
    RFC4180Case(
        name: "quoted header", bytes: Array("\"a b\",\"c,d\"\n1,2\n".utf8), header: ["a b", "c,d"],
        rows: [["1", "2"]], lines: [2]),
    RFC4180Case(
        name: "UTF-8 text", bytes: Array("name\nZoë ✓ 日本\n".utf8), header: ["name"],
        rows: [["Zoë ✓ 日本"]], lines: [2]),
    RFC4180Case(name: "header only", bytes: Array("a,b\n".utf8), header: ["a", "b"], rows: [], lines: []),
    RFC4180Case(
        name: "single column empty value", bytes: Array("a\n\"\"\n".utf8), header: ["a"], rows: [[""]],
        lines: [2]),
]

@Test(arguments: conformance)
func rfc4180Conformance(_ testCase: RFC4180Case) throws {
    for chunkSize in [1, 2, 3, 7, 64 * 1024] {
        let result = try rows(testCase.bytes, chunkSize: chunkSize)
        #expect(result.header == testCase.header)
        #expect(result.rows.map { row in testCase.header.map { row.fields[$0] ?? "?" } } == testCase.rows)
        #expect(result.rows.map(\.line) == testCase.lines)
        #expect(result.rows.map(\.row) == testCase.rows.indices.map { $0 + 1 })
    }
}

struct CSVErrorCase: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var message: String
    var testDescription: String { name }
}

private let csvErrors: [CSVErrorCase] = [
    CSVErrorCase(name: "empty", bytes: [], message: "t.csv:1:1: empty file: a header row is required"),
    CSVErrorCase(
        name: "BOM only", bytes: [0xEF, 0xBB, 0xBF], message: "t.csv:1:1: empty file: a header row is required"),
    CSVErrorCase(name: "empty header", bytes: Array("a,,c\n".utf8), message: "t.csv:1:3: header field 2 is empty"),
    CSVErrorCase(
        name: "duplicate header", bytes: Array("a,b,a\n".utf8),
        message: "t.csv:1:5: duplicate header name 'a' (also field 1)"),
    CSVErrorCase(
        name: "ragged long", bytes: Array("a,b\n1,2,3\n".utf8),
        message: "t.csv:2:5: row 1: row has 3 fields, the header has 2"),
    CSVErrorCase(
        name: "ragged short", bytes: Array("a,b\n1\n".utf8),
        message: "t.csv:2:2: row 1: row has 1 field, the header has 2"),
    CSVErrorCase(
        name: "blank line", bytes: Array("a,b\n\n".utf8), message: "t.csv:2:1: row 1: blank line (expected 2 fields)"),
    CSVErrorCase(
        name: "unclosed quote", bytes: Array("a,b\n1,\"abc\n".utf8),
        message: "t.csv:2:3: row 1: quoted field is never closed"),
    CSVErrorCase(
        name: "quote in unquoted", bytes: Array("a,b\n1,a\"b\n".utf8),
        message: "t.csv:2:4: row 1: quote inside an unquoted field; quote the whole field and double the quote"),
    CSVErrorCase(
        name: "text after quote", bytes: Array("a,b\n\"1\"x,2\n".utf8),
        message: "t.csv:2:4: row 1: text after a closing quote"),
    CSVErrorCase(
        name: "invalid UTF-8 lead", bytes: Array("a,b\n1,x".utf8) + [0xC3, 0x28] + [0x0A],
        message: "t.csv:2:4: row 1: invalid UTF-8"),
    CSVErrorCase(
        name: "stray continuation", bytes: Array("a,b\n1,xy".utf8) + [0x80] + [0x0A],
        message: "t.csv:2:5: row 1: invalid UTF-8"),
    CSVErrorCase(
        name: "overlong", bytes: Array("a,b\n1,".utf8) + [0xC0, 0xAF] + [0x0A],
        message: "t.csv:2:3: row 1: invalid UTF-8"),
    CSVErrorCase(
        name: "invalid UTF-8 in header", bytes: Array("a,".utf8) + [0xFF] + Array("\n1,2\n".utf8),
        message: "t.csv:1:3: invalid UTF-8"),
    CSVErrorCase(name: "NUL", bytes: Array("a,b\n1,x".utf8) + [0x00] + [0x0A], message: "t.csv:2:4: row 1: NUL byte"),
    CSVErrorCase(
        name: "bare CR", bytes: Array("a,b\r1,2\n".utf8), message: "t.csv:1:4: carriage return without a line feed"),
]

@Test(arguments: csvErrors)
func csvErrorsNameFileLineAndColumn(_ testCase: CSVErrorCase) {
    for chunkSize in [1, 4, 64 * 1024] {
        do {
            _ = try rows(testCase.bytes, chunkSize: chunkSize)
            Issue.record("no error for \(testCase.name)")
        } catch {
            #expect(error.description == testCase.message)
            #expect(error.code == .csvInvalid)
        }
    }
}

@Test func readingContinuesAfterABadRecordButStopsAfterAnUnclosedQuote() throws {
    let reader = try CSVReader(bytes: Array("a,b\n1\n2,3\n\"x,4\n5,6\n".utf8), file: "t.csv")
    #expect(throws: JobInputError.self) { try reader.next() }
    let good = try #require(try reader.next())
    #expect(good.fields == ["a": "2", "b": "3"])
    #expect(good.row == 2)
    #expect(throws: JobInputError.self) { try reader.next() }
    #expect(reader.isFinished)
    #expect(try reader.next() == nil)
}

@Test func csvFromAFileStreamsInChunks() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("csv-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("rows.csv")
    var text = "sku,n\n"
    for index in 1...5_000 { text += "S\(index),\"\(index)\"\n" }
    try Data(text.utf8).write(to: url)
    let reader = try CSVReader(url: url, file: "rows.csv", chunkSize: 1024)
    var count = 0
    while let row = try reader.next() {
        count += 1
        #expect(row.fields["n"] == String(count))
    }
    #expect(count == 5_000)
    #expect(reader.peakBufferedBytes <= 2 * 1024)
    #expect(text.utf8.count > 50_000)
}

@Test func missingCSVFileIsFileMissing() {
    do {
        _ = try CSVReader(url: URL(fileURLWithPath: "/nonexistent/rows.csv"), file: "rows.csv")
        Issue.record("no error")
    } catch {
        #expect(error.code == .fileMissing)
        #expect(error.description == "rows.csv: no such file")
    }
}

@Test func jobRowsYieldRowsAndProblemsInOrder() throws {
    let reader = try CSVReader(bytes: Array("a,b\n1,2\n3\n4,5\n\"6,7\n".utf8), file: "t.csv", chunkSize: 3)
    let results = Array(JobRows(reader))
    #expect(results.count == 4)
    #expect((try? results[0].get())?.fields == ["a": "1", "b": "2"])
    #expect((try? results[2].get())?.row == 3)
    guard case .failure(let short) = results[1], case .failure(let unclosed) = results[3] else {
        Issue.record("expected failures")
        return
    }
    #expect(short.description == "t.csv:3:2: row 2: row has 1 field, the header has 2")
    #expect(unclosed.description == "t.csv:5:1: row 4: quoted field is never closed")
}
