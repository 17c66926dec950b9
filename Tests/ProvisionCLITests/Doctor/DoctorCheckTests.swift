import Testing

@testable import ProvisionCLI

/// Status order and how the checks' statuses give the overall status and exit code.
@Suite struct DoctorCheckTests {
    private func report(_ statuses: [DoctorStatus]) -> DoctorReport {
        DoctorReport(
            checks: statuses.enumerated().map { DoctorCheck(name: "c\($0.offset)", status: $0.element, detail: "d") })
    }

    @Test func statusesOrderFromOkToFail() {
        #expect(DoctorStatus.ok < .warn && DoctorStatus.warn < .fail)
        #expect(DoctorStatus.worst([]) == .ok)
        #expect(DoctorStatus.worst([.ok, .warn, .ok]) == .warn)
        #expect(DoctorStatus.worst([.warn, .fail, .ok]) == .fail)
    }

    @Test func onlyAFailedCheckMakesExit1() {
        #expect(report([.ok, .ok]).exitCode == .success)
        #expect(report([.ok, .warn, .warn]).exitCode == .success)
        #expect(report([.warn, .fail]).exitCode == .failure)
        #expect(report([.warn, .fail]).status == .fail)
        #expect(report([]).exitCode == .success)
    }

    @Test func aTimedOutProbeIsAWarningNamingIt() {
        let check = DoctorCheck.timedOut("disk", "the file system", seconds: 2)
        #expect(check.status == .warn)
        #expect(check.detail.hasPrefix("the file system did not answer within 2 s"))
    }
}
