import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive advisory `flock` on a reader's device node, held while the reader is open
/// (`docs/reference/pn532-libnfc.md` §9 pitfall 3: libnfc's own claim never reaches the kernel).
///
/// The lock is always a per-reader lock file in `/run/lock` (`docs/reference/pn532-libnfc.md` §9 pitfall 3), never the
/// device node: even a brief `open`/`close` of a tty by a second process disturbs the holder's link
/// (measured on a pty: the holder's exchanges then time out). `/run/lock` is shared by all users, so
/// two users still see each other's lock, and its sticky bit keeps others from replacing a lock file;
/// the file is opened with `O_NOFOLLOW` (a planted symlink is refused) and must be a regular file
/// owned by this user, root or the device node's owner (a stranger's file could block the reader).
/// The file is named after the device path with symlinks resolved (`/dev/serial/by-id/…` and
/// `/dev/ttyUSB0` share one lock), or after the connstring for path-less drivers (`acr122_usb:…`).
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
        let flags = O_NOCTTY | O_NONBLOCK | O_CLOEXEC | O_CREAT | O_NOFOLLOW
        var fd = open(path, O_RDWR | flags, 0o644)
        if fd < 0, errno == EACCES { fd = open(path, O_RDONLY | flags, 0o644) }
        guard fd >= 0 else {
            throw LibNFCError(.openFailed, "cannot open \(path) to lock it: \(String(cString: strerror(errno)))")
        }
        if let problem = Self.ownershipProblem(fd, connstring: connstring) {
            close(fd)
            throw LibNFCError(.openFailed, "lock file \(path) \(problem); remove it (as root) and try again")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.holder(of: fd) ?? Self.recordedHolder(fd)
            close(fd)
            let who = holder.map { "process \($0)" } ?? "another process"
            throw LibNFCError(
                .deviceBusy, "reader \(connstring) is in use by \(who) (lock \(path)); stop it or choose another reader"
            )
        }
        self.path = path
        descriptor = fd
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(fd, 0) == 0 { _ = pwrite(fd, pid, pid.count, 0) }
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
        return lockFolder + "/provision-libnfc-" + String(safe) + ".lock"
    }

    /// The folder of lock files: shared by all users, sticky (FHS `/run/lock`).
    static let lockFolder = "/run/lock"

    /// Why the open lock file cannot be trusted, or `nil`: not a regular file, several links, or owned
    /// by someone other than this user, root or the owner of the device node.
    static func ownershipProblem(_ fd: Int32, connstring: String) -> String? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return "cannot be examined" }
        guard info.st_mode & S_IFMT == S_IFREG, info.st_nlink == 1 else { return "is not a plain file" }
        var owners: Set<uid_t> = [geteuid(), 0]
        let parts = connstring.split(separator: ":", omittingEmptySubsequences: false)
        var device = stat()
        if parts.count >= 2, parts[1].hasPrefix("/"), stat(String(parts[1]), &device) == 0 {
            owners.insert(device.st_uid)
        }
        guard owners.contains(info.st_uid) else { return "belongs to user \(info.st_uid), who may not use this reader" }
        return nil
    }

    /// The PID the holder wrote into the lock file, when that process still runs: `/proc/locks` names
    /// another device on overlay file systems (containers), so the file's own record is the fallback.
    private static func recordedHolder(_ fd: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = pread(fd, &bytes, bytes.count, 0)
        guard count > 0,
            let pid = Int32(
                String(decoding: bytes[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)),
            pid > 0, kill(pid, 0) == 0 || errno == EPERM
        else { return nil }
        return pid
    }

    /// The PID holding an `FLOCK` on the file behind `fd`, read from `/proc/locks`.
    private static func holder(of fd: Int32) -> Int32? {
        var info = stat()
        guard fstat(fd, &info) == 0, let text = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else {
            return nil
        }
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
