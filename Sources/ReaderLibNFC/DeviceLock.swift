import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive advisory `flock` on a reader's device node, held while the reader is open
/// (`pn532-libnfc.md` §9 pitfall 3: libnfc's own claim never reaches the kernel).
///
/// For a connstring with a path (`pn532_uart:/dev/ttyUSB0`) the device node itself is locked; for
/// others (`acr122_usb:…`) a lock file in the temporary directory named after the connstring.
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
        let fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC | (path.hasPrefix("/dev/") ? 0 : O_CREAT), 0o644)
        guard fd >= 0 else {
            throw LibNFCError(.openFailed, "cannot open \(path) to lock it: \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.holder(of: fd)
            close(fd)
            let who = holder.map { "process \($0)" } ?? "another process"
            throw LibNFCError(.deviceBusy, "\(path) is in use by \(who); stop it or choose another reader")
        }
        self.path = path
        descriptor = fd
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// The file to lock for `connstring`: its device path, or a lock file for path-less drivers.
    static func lockPath(for connstring: String) -> String {
        let parts = connstring.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count >= 2, parts[1].hasPrefix("/") { return String(parts[1]) }
        let safe = connstring.map { $0.isLetter || $0.isNumber ? $0 : "_" }
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
