import Foundation
import Testing

@testable import ProvisionCLI

/// Time bounds: a probe that does not answer never holds doctor up.
@Suite struct DoctorProbeTests {
    @Test func aProbeThatAnswersInTimeGivesItsValue() async {
        #expect(await DoctorProbe.bounded(seconds: 5) { 42 } == 42)
    }

    // The order of events proves the bound, not a stopwatch: the body answers only when the test lets it (after
    // the probe has returned), so `nil` can only come from the bound's timer. A full parallel run once starved
    // the cooperative pool for 52 s, so an elapsed-time check here measured the machine, not the probe.
    @Test func aProbeThatHangsIsAbandonedAtItsBound() async {
        let release = DispatchSemaphore(value: 0)
        let value = await DoctorProbe.bounded(seconds: 0.3) { () -> Int in
            release.wait()
            return 1
        }
        release.signal()
        #expect(value == nil)
    }

    @Test func aToolIsRunInTheCLocaleAndItsOutputKept() async {
        let result = await DoctorProbe.run("sh", ["-c", "echo $LC_ALL; echo oops >&2; exit 3"], seconds: 30)
        #expect(result == .finished(status: 3, output: "C\n", errors: "oops\n"))
    }

    // `.timedOut` comes only from the bound (the tool terminated, or the probe abandoned): `sleep 600` would
    // otherwise answer `.finished` ten minutes later, past the suite's time limit.
    @Test(.timeLimit(.minutes(2))) func aToolThatHangsIsTerminatedAtItsBound() async {
        #expect(await DoctorProbe.run("sleep", ["600"], seconds: 0.5) == .timedOut)
    }

    @Test func aMissingToolIsMissing() async {
        #expect(await DoctorProbe.run("provision-no-such-tool", []) == .missing)
        #expect(
            DoctorProbe.locate("pcscd", searchPath: "")
                == (FileManager.default.isExecutableFile(atPath: "/usr/sbin/pcscd") ? "/usr/sbin/pcscd" : nil))
    }
}
