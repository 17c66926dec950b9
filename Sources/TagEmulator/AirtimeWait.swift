import Glibc

/// Waiting out modelled airtime for `timing=datasheet` (`docs/reference/rf-timing.md` §8.1, real-time mode).
///
/// An exchange's modelled time starts when the command is sent: the caller takes `now()` before it
/// hands the frame to the tag and waits until that instant plus the exchange's airtime. The deadline
/// is absolute, so the emulator's own work inside the exchange is part of the airtime (as the chip's
/// is), but host time spent *between* exchanges is never absorbed: each exchange starts its own clock.
///
/// The wait sleeps on `CLOCK_MONOTONIC` to an absolute deadline (`clock_nanosleep` with
/// `TIMER_ABSTIME`, no drift from relative sleeps) up to `spinNanoseconds` before the deadline and
/// spins for the rest, so the scheduler's wake-up latency on a loaded host does not lengthen every
/// exchange. Sleep is for the reader's own thread only, never an emulator's I/O loop.
public enum AirtimeWait {
    /// How long before the deadline the sleep ends and the spin begins.
    public static let spinNanoseconds: UInt64 = 200_000

    /// The monotonic clock, nanoseconds.
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Waits until `start` + `microseconds` on the monotonic clock; returns at once when that has passed.
    public static func wait(from start: UInt64, microseconds: Double) {
        guard microseconds > 0 else { return }
        let deadline = start + UInt64(microseconds * 1000)
        if deadline > spinNanoseconds {
            let wake = deadline - spinNanoseconds
            if now() < wake {
                var until = timespec(tv_sec: Int(wake / 1_000_000_000), tv_nsec: Int(wake % 1_000_000_000))
                while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nil) == EINTR {}
            }
        }
        while now() < deadline {}
    }
}
