import Foundation

/// The `clock` check of `provision doctor`: the system time is plausible (ledger, report and audit
/// times come from it) and, when `timedatectl` can tell, NTP keeps it synchronised.
enum DoctorClock {
    /// What `timedatectl show` says about time synchronisation; `nil` for a key it did not print.
    struct Synchronisation: Sendable, Hashable {
        /// `NTP=yes`: a time-sync service is enabled.
        var ntpEnabled: Bool?
        /// `NTPSynchronized=yes`: the kernel clock is synchronised.
        var synchronised: Bool?
    }

    /// The earliest plausible time: nothing of this version existed before 2025-01-01T00:00:00Z.
    static let earliest = Date(timeIntervalSince1970: 1_735_689_600)
    /// The latest plausible time: 2100-01-01T00:00:00Z.
    static let latest = Date(timeIntervalSince1970: 4_102_444_800)

    /// Reads `timedatectl show` output (`KEY=value` lines).
    static func synchronisation(fromTimedatectl output: String) -> Synchronisation {
        var result = Synchronisation()
        for line in output.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let value = parts[1] == "yes" ? true : parts[1] == "no" ? false : nil
            switch parts[0] {
            case "NTP": result.ntpEnabled = value
            case "NTPSynchronized": result.synchronised = value
            default: break
            }
        }
        return result
    }

    /// `clock` from the time now and what `timedatectl show` did.
    ///
    /// fail: the time is before `earliest` or after `latest`; warn: synchronisation is off, not yet
    /// reached, or unknown (no `timedatectl`, no systemd); ok: plausible and synchronised.
    static func clockCheck(now: Date, timedatectl: DoctorProbe.ToolResult) -> DoctorCheck {
        let shown = now.formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: false).timeZone(separator: .omitted))
        guard now >= earliest, now < latest else {
            return DoctorCheck(
                name: "clock", status: .fail,
                detail: "the clock says \(shown), which cannot be right: ledger, report and audit times would be "
                    + "wrong; set it (sudo timedatectl set-ntp true, or sudo date -s …)")
        }
        switch timedatectl {
        case .finished(0, let output, _):
            let sync = synchronisation(fromTimedatectl: output)
            switch (sync.synchronised, sync.ntpEnabled) {
            case (true, _):
                return DoctorCheck(name: "clock", status: .ok, detail: "\(shown), synchronised by NTP")
            case (false, false):
                return DoctorCheck(
                    name: "clock", status: .warn,
                    detail: "\(shown), plausible, but NTP is off: the clock drifts (sudo timedatectl set-ntp true)")
            case (false, _):
                return DoctorCheck(
                    name: "clock", status: .warn,
                    detail: "\(shown), plausible, but not synchronised yet (timedatectl: NTPSynchronized=no); "
                        + "check the time service (timedatectl timesync-status)")
            case (nil, _):
                return unknown(shown, because: "timedatectl show printed no NTPSynchronized")
            }
        case .finished(_, _, let errors):
            let reason = errors.split(whereSeparator: \.isNewline).first.map(String.init) ?? "no reason given"
            return unknown(shown, because: "timedatectl failed: \(reason)")
        case .timedOut:
            let seconds = DoctorProbe.describe(DoctorProbe.toolSeconds)
            return unknown(shown, because: "timedatectl did not answer within \(seconds)")
        case .missing:
            return unknown(shown, because: "timedatectl is not installed")
        }
    }

    private static func unknown(_ shown: String, because reason: String) -> DoctorCheck {
        DoctorCheck(
            name: "clock", status: .warn,
            detail: "\(shown), plausible; NTP synchronisation could not be checked (\(reason)); make sure a time "
                + "service keeps this clock right")
    }
}
