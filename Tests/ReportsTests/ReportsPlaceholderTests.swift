import Reports
import Testing

@Test func reportsModuleLinks() {
    #expect(String(describing: ReportsModule.self) == "ReportsModule")
}
