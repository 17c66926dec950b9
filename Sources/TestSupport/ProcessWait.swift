import Foundation
import Glibc

extension Process {
    /// Waits on the calling thread for the process to exit and returns its status as `terminationStatus` gives it
    /// (the exit code, or the signal that ended it).
    ///
    /// Foundation's `waitUntilExit` can miss an exit and spin for ever beside a zombie child (seen under the full
    /// suite's load, where it hung a whole test run), so this polls every 5 ms, and reaps a child left a zombie for a
    /// second itself (its termination source then stays: a zombie is rare). Never call it on a thread of the
    /// cooperative pool (`onThread`).
    public func waitReaping() -> Int32 {
        let pid = processIdentifier
        var zombieSince: ContinuousClock.Instant?
        while isRunning {
            if ProvisionProcess.state(pid: pid) == "Z" {
                let since = zombieSince ?? .now
                zombieSince = since
                var status: Int32 = 0
                if ContinuousClock.now - since > .seconds(1), waitpid(pid, &status, WNOHANG) == pid {
                    let signal = status & 0x7f
                    return signal == 0 ? (status >> 8) & 0xff : signal
                }
            }
            usleep(5_000)
        }
        // Returns at once for a process that ended, and lets go of Foundation's termination source (a pipe kept for
        // each process until a waitUntilExit: hundreds of processes leaked a thousand descriptors).
        waitUntilExit()
        return terminationStatus
    }
}
