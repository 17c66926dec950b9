import JSONReader
import Testing

@Test func wholeNumbersStayIntegersOthersAreDoubles() throws {
    let value = try JSONValue.parse(Array("[12, -3, 1.5, 2e3, 9223372036854775808]".utf8))
    #expect(
        value == .array([.integer(12), .integer(-3), .number(1.5), .number(2000), .number(9_223_372_036_854_775_808)]))
}

@Test func renderedSortsKeysAndIndentsByTwo() throws {
    let value = try JSONValue.parse(Array("{\"b\": [true, null], \"a\": {}, \"c\": []}".utf8))
    #expect(value.rendered() == "{\n  \"a\": {},\n  \"b\": [\n    true,\n    null\n  ],\n  \"c\": []\n}")
}

@Test func quotedEscapesQuotesBackslashesAndControls() {
    #expect(JSONValue.quoted("a\"b\\c\nd\u{01}/é") == "\"a\\\"b\\\\c\\nd\\u0001/é\"")
}

@Test func kindNamesTheValue() {
    #expect(JSONValue.integer(1).kind == "a number")
    #expect(JSONValue.object([:]).kind == "an object")
    #expect(JSONValue.null.kind == "null")
}

@Test func parseErrorsNameLineAndColumn() {
    #expect(throws: JSONScanner.SyntaxError.self) { try JSONValue.parse(Array("{\n  \"a\": }".utf8)) }
    do {
        _ = try JSONValue.parse(Array("{\n  \"a\": }".utf8))
    } catch {
        #expect(error.position == TextPosition(line: 2, column: 8))
    }
}
