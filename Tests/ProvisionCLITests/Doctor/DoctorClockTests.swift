import Foundation
import Testing

@testable import ProvisionCLI

/// Clock plausibility and what `timedatectl show` says about NTP.
@Suite struct DoctorClockTests {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15

    private func timedatectl(_ output: String) -> DoctorProbe.ToolResult {
        .finished(status: 0, output: output, errors: "")
    }

    @Test func readsNTPKeysFromTimedatectlShow() {
        let output = "Timezone=Etc/UTC\nLocalRTC=no\nCanNTP=yes\nNTP=yes\nNTPSynchronized=no\nTimeUSec=Thu\n"
        let sync = DoctorClock.synchronisation(fromTimedatectl: output)
        #expect(sync.ntpEnabled == true && sync.synchronised == false)
        #expect(DoctorClock.synchronisation(fromTimedatectl: "Timezone=UTC\n") == .init())
    }

    @Test func aSynchronisedPlausibleClockIsOk() {
        let check = DoctorClock.clockCheck(now: now, timedatectl: timedatectl("NTP=yes\nNTPSynchronized=yes\n"))
        #expect(check.status == .ok)
        #expect(check.detail == "2027-01-15T08:00:00Z, synchronised by NTP")
    }

    @Test func unsynchronisedOrUnknownSynchronisationWarns() {
        let off = DoctorClock.clockCheck(now: now, timedatectl: timedatectl("NTP=no\nNTPSynchronized=no\n"))
        #expect(off.status == .warn && off.detail.contains("set-ntp true"))
        let waiting = DoctorClock.clockCheck(now: now, timedatectl: timedatectl("NTP=yes\nNTPSynchronized=no\n"))
        #expect(waiting.status == .warn && waiting.detail.contains("not synchronised yet"))
        let noSystemd = DoctorClock.clockCheck(
            now: now,
            timedatectl: .finished(
                status: 1, output: "", errors: "System has not been booted with systemd as init system (PID 1).\n"))
        #expect(noSystemd.status == .warn)
        #expect(noSystemd.detail.contains("could not be checked (timedatectl failed: System has not been booted"))
        #expect(DoctorClock.clockCheck(now: now, timedatectl: .missing).status == .warn)
        #expect(DoctorClock.clockCheck(now: now, timedatectl: .timedOut).detail.contains("did not answer within 3 s"))
    }

    @Test(arguments: [0.0, 1_600_000_000, 4_200_000_000])
    func anImplausibleClockFailsWhateverNTPSays(seconds: Double) {
        let check = DoctorClock.clockCheck(
            now: Date(timeIntervalSince1970: seconds), timedatectl: timedatectl("NTP=yes\nNTPSynchronized=yes\n"))
        #expect(check.status == .fail)
        #expect(check.detail.contains("cannot be right"))
    }
}
