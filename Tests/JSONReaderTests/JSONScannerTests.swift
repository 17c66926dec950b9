import JSONReader
import Testing

@Test func scannerRecordsPositionsOfValuesAndKeys() throws {
    let text = "{\n  \"a\": [1, \"x\"],\n  \"bé\": {\"c\": null}\n}"
    let root = try JSONScanner.parse(Array(text.utf8))
    #expect(root.position == TextPosition(line: 1, column: 1))
    let members = try #require(root.members)
    #expect(members.map(\.key) == ["a", "bé"])
    #expect(members[0].keyPosition == TextPosition(line: 2, column: 3))
    #expect(members[0].value.position == TextPosition(line: 2, column: 8))
    #expect(members[0].value.elements?[1].position == TextPosition(line: 2, column: 12))
    #expect(root["bé"]?["c"]?.position == TextPosition(line: 3, column: 15))
}

@Test func stringColumnsFollowEscapes() throws {
    let root = try JSONScanner.parse(Array("\"a\\u00e9\\\"b\"".utf8))
    guard case .string(let text, let columns) = root.kind else {
        Issue.record("not a string")
        return
    }
    #expect(text == "aé\"b")
    #expect(columns == [2, 3, 9, 11])
}

@Test func surrogatePairsDecode() throws {
    let root = try JSONScanner.parse(Array("\"\\ud83d\\ude00\"".utf8))
    #expect(root.string == "😀")
}

@Test(arguments: [
    ("", "1:1: unexpected end of input, expected a value"),
    ("{\"a\": 1,}", "1:9: expected a key in double quotes"),
    ("[1,]", "1:4: unexpected character ']', expected a value"),
    ("{\"a\" 1}", "1:6: expected ':' after the key"),
    ("{\"a\": 01}", "1:7: leading zero in a number"),
    ("\"abc", "1:5: unclosed string"),
    ("\"a\\x\"", "1:3: invalid escape '\\x'"),
    ("\"\\ud800\"", "1:2: unpaired surrogate escape"),
    ("// c\n{}", "1:1: unexpected character '/', expected a value"),
    ("{}\n{}", "2:1: unexpected text after the JSON value"),
    ("[\n  tru\n]", "2:3: unexpected character 't', expected a value"),
    ("\"a\tb\"", "1:3: control character U+0009 inside a string; escape it"),
])
func scannerErrorsHavePositions(_ text: String, _ expected: String) {
    do {
        _ = try JSONScanner.parse(Array(text.utf8))
        Issue.record("no error for \(text)")
    } catch {
        #expect("\(error.position): \(error.message)" == expected)
    }
}

@Test func deepNestingIsRefused() {
    let text = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
    #expect(throws: JSONScanner.SyntaxError.self) { try JSONScanner.parse(Array(text.utf8)) }
}
