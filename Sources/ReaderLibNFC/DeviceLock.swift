import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive advisory `flock` on a reader's device node, held while the reader is open
/// (`pn532-libnfc.md` §9 pitfall 3: libnfc's own claim never reaches the kernel).
///
/// The lock is always a per-reader lock file in the temporary directory (`pn532-libnfc.md` §9 pitfall
/// 3), never the device node: even a brief `open`/`close` of a tty by a second process disturbs the
/// holder's link (measured on a pty: the holder's exchanges then time out). The file is named after
/// the device path with symlinks resolved (`/dev/serial/by-id/…` and `/dev/ttyUSB0` share one lock),
/// or after the connstring for path-less drivers (`acr122_usb:…`).
/// Not `Sendable`: owns a descriptor.
final class DeviceLock {
    /// The locked file.
    let path: String
    private let descriptor: Int32

    /// Takes the lock without waiting.
    ///
    /// - Throws: `LibNFCError.deviceBusy` naming the holder's PID when it can be found.
    init(connstring: String) throws(LibNFCError) {
        let path = Self.lockPath(for: connstring)
        let fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC | O_CREAT, 0o644)
        guard fd >= 0 else {
            throw LibNFCError(.openFailed, "cannot open \(path) to lock it: \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.holder(of: fd)
            close(fd)
            let who = holder.map { "process \($0)" } ?? "another process"
            throw LibNFCError(
                .deviceBusy, "reader \(connstring) is in use by \(who) (lock \(path)); stop it or choose another reader")
        }
        self.path = path
        descriptor = fd
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// The lock file for `connstring`, named after its resolved device path or the connstring.
    static func lockPath(for connstring: String) -> String {
        let parts = connstring.split(separator: ":", omittingEmptySubsequences: false)
        var key = connstring
        if parts.count >= 2, parts[1].hasPrefix("/") {
            key = URL(fileURLWithPath: String(parts[1])).resolvingSymlinksInPath().path
        }
        let safe = key.map { $0.isLetter || $0.isNumber ? $0 : "_" }
        return NSTemporaryDirectory() + "provision-libnfc-" + String(safe) + ".lock"
    }

    /// The PID holding an `FLOCK` on the file behind `fd`, read from `/proc/locks`.
    private static func holder(of fd: Int32) -> Int32? {
        var info = stat()
        guard fstat(fd, &info) == 0, let text = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return nil }
        let device = UInt64(info.st_dev)
        let major = (device >> 8) & 0xFFF | (device >> 32) & ~UInt64(0xFFF)
        let minor = device & 0xFF | (device >> 12) & ~UInt64(0xFF)
        let wanted = String(format: "%02llx:%02llx:%llu", major, minor, UInt64(info.st_ino))
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "FLOCK", fields[5] == wanted else { continue }
            return Int32(fields[4])
        }
        return nil
    }
}
