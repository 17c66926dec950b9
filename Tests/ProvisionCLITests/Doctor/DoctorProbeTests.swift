import Foundation
import Testing

@testable import ProvisionCLI

/// Time bounds: a probe that does not answer never holds doctor up.
@Suite struct DoctorProbeTests {
    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    @Test func aProbeThatAnswersInTimeGivesItsValue() async {
        #expect(await DoctorProbe.bounded(seconds: 5) { 42 } == 42)
    }

    // Elapsed times are compared with the hang, not the bound: under a full parallel test run the
    // cooperative pool may resume the waiting task seconds after the bound has passed.
    @Test func aProbeThatHangsIsAbandonedAtItsBound() async {
        let start = ContinuousClock.now
        let value = await DoctorProbe.bounded(seconds: 0.3) { () -> Int in
            Thread.sleep(forTimeInterval: 60)
            return 1
        }
        #expect(value == nil)
        #expect(seconds(ContinuousClock.now - start) < 30)
    }

    @Test func aToolIsRunInTheCLocaleAndItsOutputKept() async {
        let result = await DoctorProbe.run("sh", ["-c", "echo $LC_ALL; echo oops >&2; exit 3"], seconds: 30)
        #expect(result == .finished(status: 3, output: "C\n", errors: "oops\n"))
    }

    @Test func aToolThatHangsIsTerminatedAtItsBound() async {
        let start = ContinuousClock.now
        #expect(await DoctorProbe.run("sleep", ["60"], seconds: 0.5) == .timedOut)
        #expect(seconds(ContinuousClock.now - start) < 30)
    }

    @Test func aMissingToolIsMissing() async {
        #expect(await DoctorProbe.run("provision-no-such-tool", []) == .missing)
        #expect(
            DoctorProbe.locate("pcscd", searchPath: "")
                == (FileManager.default.isExecutableFile(atPath: "/usr/sbin/pcscd") ? "/usr/sbin/pcscd" : nil))
    }
}
