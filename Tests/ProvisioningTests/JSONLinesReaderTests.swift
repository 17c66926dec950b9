import Provisioning
import Testing

@Test func jsonLinesRowsKeepScalarsAsText() throws {
    let text = "{\"sku\": \"A\", \"n\": 12, \"ok\": true, \"x\": null, \"f\": -1.5e3}\r\n{\"sku\": \"B\"}"
    for chunkSize in [1, 5, 64 * 1024] {
        let reader = try JSONLinesReader(bytes: Array(text.utf8), file: "r.jsonl", chunkSize: chunkSize)
        let first = try #require(try reader.next())
        #expect(first.fields == ["sku": "A", "n": "12", "ok": "true", "x": "", "f": "-1.5e3"])
        #expect(first.row == 1 && first.line == 1)
        let second = try #require(try reader.next())
        #expect(second.fields == ["sku": "B"])
        #expect(second.row == 2 && second.line == 2)
        #expect(try reader.next() == nil)
        #expect(reader.columns == nil)
    }
}

@Test(arguments: [
    ("{\"a\": 1}\n\n{\"a\": 2}\n", "r.jsonl:2:1: row 2: blank line (expected a JSON object)"),
    ("[1]\n", "r.jsonl:1:1: row 1: a record must be a JSON object, found an array"),
    ("{\"a\": [1]}\n", "r.jsonl:1:7: row 1: a: must be a string, number, boolean or null, found an array"),
    ("{\"a\": 1,}\n", "r.jsonl:1:9: row 1: expected a key in double quotes"),
    ("{\"a\": 1} x\n", "r.jsonl:1:10: row 1: unexpected text after the JSON value"),
    ("{\"a\": \"\u{0}\"}\n", "r.jsonl:1:8: row 1: NUL byte"),
    ("{\"a\": 1, \"a\": 2}\n", "r.jsonl:1:10: row 1: duplicate key 'a'"),
])
func jsonLinesErrorsNameLineAndColumn(_ text: String, _ message: String) {
    do {
        let reader = try JSONLinesReader(bytes: Array(text.utf8), file: "r.jsonl")
        while try reader.next() != nil {}
        Issue.record("no error")
    } catch {
        #expect(error.description == message)
    }
}

@Test func jsonLinesInvalidUTF8IsReported() {
    do {
        let reader = try JSONLinesReader(
            bytes: Array("{\"a\": \"x".utf8) + [0xFE] + Array("\"}\n".utf8), file: "r.jsonl")
        _ = try reader.next()
        Issue.record("no error")
    } catch {
        #expect(error.description == "r.jsonl:1:9: row 1: invalid UTF-8")
    }
}
