import Foundation
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
    #expect(page.elements("rect", class: "bar").count == 8, "one bar per status")
    #expect(
        page.elements("caption").map(\.text) == [
            "All 4 finding(s), in read order", "All 5 passing tag(s), in read order",
        ])
}
