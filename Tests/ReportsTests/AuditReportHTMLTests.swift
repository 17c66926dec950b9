import Foundation
import Provisioning
import Reports
import Testing

@Test func auditHTMLIsSelfContainedAndEscaped() {
    let html = AuditReportHTML.render(SampleReports.audit())
    #expect(!html.lowercased().contains("<script"))
    #expect(!html.contains("http"))
    #expect(html == AuditReportHTML.render(SampleReports.audit()))
    let page = XMLInspector.parse(html)
    #expect(page.error == nil)
    #expect(page.elements("td").map(\.text).contains("page 7 <script>alert(\"x\")</script> & more"))
    #expect(page.elements("svg").count == 1)
    #expect(page.elements("rect", class: "bar").count == 9, "one bar per status")
    #expect(
        page.elements("caption").map(\.text) == [
            "All 4 finding(s), in read order", "All 5 passing tag(s), in read order",
        ])
}

@Test func auditHTMLHasAPassOrFailBannerAndColoursFailingCounts() {
    let failing = AuditReportHTML.render(SampleReports.audit())
    #expect(failing.contains("<div class=\"banner fail\">FAIL: 4 of 9 tag(s) failed the audit</div>"))
    #expect(failing.contains("<div class=\"kpi fail\"><span class=\"value\">2</span><span class=\"name\">mismatch"))
    #expect(failing.contains("<div class=\"kpi\"><span class=\"value\">5</span><span class=\"name\">pass"))
    var clean = SampleReports.audit()
    clean.findings = clean.findings.filter { $0.status == .pass }
    let passing = AuditReportHTML.render(clean)
    #expect(passing.contains("<div class=\"banner pass\">PASS: no tag failed the audit</div>"))
    #expect(!passing.contains("kpi fail"))
}

@Test func auditHTMLShowsAMismatchsExpectedAndFoundRecordsSideBySideColouringTheDifference() throws {
    let page = XMLInspector.parse(AuditReportHTML.render(try overwrittenTagReport()))
    #expect(page.error == nil)
    #expect(page.elements("h3").map(\.text) == ["Expected records and what the tag holds"])
    #expect(page.elements("caption").map(\.text).contains("04A00000000002, row 2: mismatch"))
    #expect(page.elements("th").map(\.text).contains("expected (what the run wrote)"))
    let marked = page.elements("td", class: "code differs").map(\.text)
    #expect(
        marked == [
            "nfcWellKnown (1), type \"U\", no id, URI \"https://example.com/p/S2\", 17-byte payload",
            "nfcWellKnown (1), type \"U\", no id, URI \"https://evil.example/x\", 15-byte payload",
        ])
    let cells = page.elements("td").map(\.text)
    #expect(cells.contains("record 0 (differs)") && cells.contains("record 1"))
    var matching = try overwrittenTagReport()
    matching.findings.removeLast()
    #expect(!AuditReportHTML.render(matching).contains("Expected records"), "no block without a mismatch")
}
