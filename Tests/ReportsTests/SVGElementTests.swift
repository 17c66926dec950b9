import Foundation
import Reports
import Testing

@Test(arguments: [
    ("plain", "plain"),
    ("<script>alert('x')</script>", "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"),
    ("a & b \"q\"", "a &amp; b &quot;q&quot;"),
    ("bell\u{07}nul\u{00}", "bell\u{FFFD}nul\u{FFFD}"),
    ("tab\tline\n", "tab\tline\n"),
])
func escapeReplacesMarkupAndForbiddenCharacters(input: String, expected: String) {
    #expect(SVGElement.escape(input) == expected)
}

@Test func textEscapeLeavesQuotesAlone() {
    #expect(SVGElement.escape("<\"'>", quotes: false) == "&lt;\"'&gt;")
}

@Test func renderKeepsAttributeOrderAndEscapesEverything() {
    let element = SVGElement(
        "g", [("id", "a\"b"), ("data-x", "<1>")],
        children: [SVGElement("text", [("x", "1")], text: "</text><script>"), SVGElement("rect")])
    let xml = element.render()
    #expect(
        xml
            == "<g id=\"a&quot;b\" data-x=\"&lt;1&gt;\">\n"
            + "<text x=\"1\">&lt;/text&gt;&lt;script&gt;</text>\n<rect/>\n</g>"
    )
    let parsed = XMLInspector.parse(xml)
    #expect(parsed.error == nil)
    #expect(parsed.elements.map(\.name) == ["g", "text", "rect"])
    #expect(parsed.elements[0].attributes["id"] == "a\"b")
    #expect(parsed.elements[1].text == "</text><script>")
}

@Test func hostileNamesAreSanitisedIntoWellFormedXML() {
    let element = SVGElement("bad name>", [("on click=\"x", "1"), ("9lives", "2")], text: "t")
    let parsed = XMLInspector.parse(element.render())
    #expect(parsed.error == nil)
    #expect(parsed.elements.first?.name == "badname")
    #expect(parsed.elements.first?.attributes["onclickx"] == "1")
    #expect(parsed.elements.first?.attributes["x9lives"] == "2")
}

@Test func withReplacesOrAppendsAttributes() {
    let element = SVGElement("rect", [("x", "1")]).with("x", "2").with("y", "3")
    #expect(element.attributes.map(\.name) == ["x", "y"])
    #expect(element.attribute("x") == "2")
    #expect(element.attribute("y") == "3")
}

@Test(arguments: [
    (0.0, "0"), (1.0, "1"), (-2.5, "-2.5"), (3.14159, "3.14"), (0.005, "0.01"), (0.05, "0.05"), (100.1, "100.1"),
    (-0.001, "0"), (Double.nan, "0"), (Double.infinity, "0"), (12345.678, "12345.68"),
])
func numbersPrintWithAtMostTwoDecimals(value: Double, expected: String) {
    #expect(SVG.number(value) == expected)
}

@Test func standaloneDocumentCarriesNamespaceTitleAndSize() {
    let document = SVG.document(
        width: 300, height: 200, title: "T <1>", description: "D", standalone: true,
        children: [SVG.rect(x: 0, y: 0, width: -5, height: 10, fill: "#000")])
    let parsed = XMLInspector.parse(document.render())
    #expect(parsed.error == nil)
    let root = parsed.elements[0]
    #expect(root.attributes["xmlns"] == "http://www.w3.org/2000/svg")
    #expect(root.attributes["viewBox"] == "0 0 300 200")
    #expect(parsed.elements(("title")).first?.text == "T <1>")
    #expect(parsed.elements("rect").first?.attributes["width"] == "0")
    #expect(!SVG.document(width: 1, height: 1, title: "", description: "", children: []).render().contains("http"))
}

@Test(arguments: [
    (755.6, 0, "756"), (94.28, 1, "94.3"), (0.0, 2, "0.00"), (-1.005, 2, "-1.00"), (1.395, 2, "1.40"),
    (12.5, 0, "13"), (-0.04, 1, "0.0"), (Double.nan, 1, "0"), (1234567.0, 1, "1234567.0"), (0.05, 3, "0.050"),
])
func fixedDecimalsIgnoreTheLocale(value: Double, digits: Int, expected: String) {
    #expect(SVG.fixed(value, digits: digits) == expected)
}
