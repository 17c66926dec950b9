import Foundation
import Reports
import Testing

@Test func tableEscapesCellsAndMarksColumns() {
    let html = HTMLPage.table(
        caption: "c <1>", headers: ["a", "n"], rows: [["<b>x</b>", "5"], ["y & z", "10"]], numeric: [1], code: [0],
        nowrap: [0])
    let page = XMLInspector.parse(html)
    #expect(page.error == nil)
    #expect(page.elements("caption").map(\.text) == ["c <1>"])
    #expect(page.elements("td").map(\.text) == ["<b>x</b>", "5", "y & z", "10"])
    #expect(page.elements("td").map { $0.attributes["class"] ?? "" } == ["code nowrap", "num", "code nowrap", "num"])
    #expect(!html.contains("<b>"))
}

@Test func emptyTableSaysNone() {
    let page = XMLInspector.parse(HTMLPage.table(caption: "c", headers: ["a", "b", "c"], rows: []))
    let cell = page.elements("td", class: "empty")
    #expect(cell.map(\.text) == ["none"])
    #expect(cell.first?.attributes["colspan"] == "3")
}

@Test func documentHasInlineStyleWithPrintRulesAndNothingFetched() {
    let html = HTMLPage.document(title: "t </title><script>", body: "<p>b</p>")
    let page = XMLInspector.parse(html)
    #expect(page.error == nil)
    #expect(page.elements("title").map(\.text) == ["t </title><script>"])
    let style = page.elements("style").first?.text ?? ""
    #expect(style.contains("@media print"))
    #expect(style.contains("@page"))
    #expect(!html.contains("<script") && !html.contains("http") && !html.contains("<link"))
}

@Test func factsEscapeLabelsAndValues() {
    let page = XMLInspector.parse(HTMLPage.facts([("k<", "v&", code: true), ("plain", "p", code: false)]))
    #expect(page.error == nil)
    #expect(page.elements("dt").map(\.text) == ["k<", "plain"])
    #expect(page.elements("code").map(\.text) == ["v&"])
}
