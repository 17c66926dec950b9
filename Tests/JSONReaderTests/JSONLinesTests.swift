import JSONReader
import Testing

@Test func aLineIsParsedWithItsOwnLineNumber() throws {
    guard case .document(let node) = try JSONLines.parse(Array("{\"a\": 1}\r".utf8), line: 7) else {
        Issue.record("not a document")
        return
    }
    #expect(node.position == TextPosition(line: 7, column: 1))
    #expect(node["a"]?.position == TextPosition(line: 7, column: 7))
}

@Test(arguments: ["", " \t", "\r", "  \r"])
func spacesTabsAndCROnlyAreBlank(_ text: String) throws {
    guard case .blank = try JSONLines.parse(Array(text.utf8), line: 1) else {
        Issue.record("\(text) is not blank")
        return
    }
}

@Test func aSyntaxErrorNamesTheLine() {
    do {
        _ = try JSONLines.parse(Array("{\"a\": 1,}".utf8), line: 3)
        Issue.record("no error")
    } catch {
        #expect("\(error.position): \(error.message)" == "3:9: expected a key in double quotes")
    }
}
