import Glibc

/// `poll(2)` with a nanosecond timeout, so the emulator's I/O loop wakes when a reply is due.
///
/// `poll` takes whole milliseconds: rounded up, every ACK and reply of the PN532 emulator left up to
/// 1 ms late, a per-frame cost no real PN532 has. `ppoll(2)` takes a `timespec`; Swift's Glibc module
/// does not declare it (it needs `_GNU_SOURCE`), so it is looked up in the C library at run time
/// (`dlsym`), with `poll` and the timeout rounded up as the fallback. The kernel's default timer
/// slack (50 µs) is then the only lateness.
enum PrecisePoll {
    private typealias PPoll =
        @convention(c) (UnsafeMutablePointer<pollfd>?, nfds_t, UnsafePointer<timespec>?, UnsafeRawPointer?) -> Int32

    /// `ppoll` from the C library (`RTLD_DEFAULT` is the null handle on glibc).
    private static let ppoll: PPoll? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "ppoll").map {
        unsafeBitCast($0, to: PPoll.self)
    }

    /// Whether the nanosecond path is available.
    static var isPrecise: Bool { ppoll != nil }

    /// Waits until one of `descriptors` is ready or `nanoseconds` have passed; returns `poll`'s result.
    @discardableResult
    static func wait(_ descriptors: inout [pollfd], nanoseconds: UInt64) -> Int32 {
        if let ppoll {
            var timeout = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
            return descriptors.withUnsafeMutableBufferPointer { ppoll($0.baseAddress, nfds_t($0.count), &timeout, nil) }
        }
        let milliseconds = Int32(clamping: (nanoseconds + 999_999) / 1_000_000)
        return poll(&descriptors, nfds_t(descriptors.count), milliseconds)
    }
}
