import Foundation
import Support

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a key file once, checking the file it actually opened: owner-only, owned by this user or
/// root, in a folder that group and others cannot write.
///
/// A symbolic link (Kubernetes and Docker secrets are links into a `..data` folder) is resolved
/// first and its target opened with `O_NOFOLLOW`; mode and owner come from `fstat` of the open
/// descriptor, so the file checked is the file read.
enum KeyFile {
    /// The largest key file read (a key is at most 64 bytes; the rest is slack for text forms).
    static let maximumBytes = 4096

    /// The bytes of the key file at `url`.
    ///
    /// - Throws: `KeyError` `.missing` (no such file), `.permissions` (mode, owner or folder),
    ///   `.unreadable` (not a regular file, read error, too large).
    static func read(_ url: URL, id: String, what: String = "key file") throws(KeyError) -> [UInt8] {
        guard let resolved = realpath(url.path, nil) else {
            throw KeyError(id: id, reason: .missing, message: "cannot read \(what) \(url.path)")
        }
        let path = String(cString: resolved)
        free(resolved)
        let shown = path == url.path ? url.path : "\(url.path) (→ \(path))"
        let folder = (path as NSString).deletingLastPathComponent
        var folderStatus = stat()
        guard stat(folder, &folderStatus) == 0 else {
            throw KeyError(id: id, reason: .unreadable, message: "cannot read the folder of \(what) \(shown)")
        }
        guard folderStatus.st_mode & 0o022 == 0 else {
            throw KeyError(
                id: id, reason: .permissions,
                message: "the folder \(folder) of \(what) \(shown) is writable by group or others "
                    + "(mode \(String(folderStatus.st_mode & 0o7777, radix: 8))): anyone there could replace the key; "
                    + "run: chmod go-w \(folder)")
        }
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw KeyError(id: id, reason: .unreadable, message: "cannot open \(what) \(shown)")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw KeyError(id: id, reason: .unreadable, message: "\(what) \(shown) is not a regular file")
        }
        let mode = status.st_mode & 0o7777
        guard mode & 0o077 == 0 else {
            throw KeyError(
                id: id, reason: .permissions,
                message: "\(what) \(shown) is readable by group or others (mode \(String(mode, radix: 8))); "
                    + "run: chmod 600 \(path)")
        }
        guard status.st_uid == geteuid() || status.st_uid == 0 else {
            throw KeyError(
                id: id, reason: .permissions,
                message: "\(what) \(shown) belongs to user \(status.st_uid), not to this user (\(geteuid())) "
                    + "or root; run: chown \(geteuid()) \(path)")
        }
        var bytes = [UInt8](repeating: 0, count: maximumBytes + 1)
        defer { SecretBytes.wipe(&bytes) }  // the read buffer; the caller gets a copy of its first `count` bytes
        var count = 0
        while count < bytes.count {
            let got = bytes[count...].withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else {
                throw KeyError(id: id, reason: .unreadable, message: "cannot read \(what) \(shown)")
            }
            if got == 0 { break }
            count += got
        }
        guard count <= maximumBytes else {
            throw KeyError(id: id, reason: .unreadable, message: "\(what) \(shown) is over \(maximumBytes) bytes")
        }
        return Array(bytes[..<count])
    }
}
