import JSONReader
import Testing

@Test func accessorsAnswerOnlyForTheirKind() throws {
    let root = try JSONScanner.parse(Array("{\"s\": \"x\", \"l\": [1], \"o\": {\"k\": null}}".utf8))
    #expect(root["s"]?.string == "x")
    #expect(root["s"]?.members == nil)
    #expect(root["l"]?.elements?.count == 1)
    #expect(root["o"]?["k"]?.kindName == "null")
    #expect(root["missing"] == nil)
    #expect(root["l"]?["k"] == nil)
    #expect(root.kindName == "an object")
}

@Test func textPositionReadsLineColon() {
    #expect(TextPosition(line: 3, column: 14).description == "3:14")
}
