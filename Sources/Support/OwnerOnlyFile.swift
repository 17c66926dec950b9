import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a secret file once (a key, a PIN, a broker password), checking the file it actually opened: owner-only,
/// owned by this user or root, in a folder that group and others cannot write. The one such check of the package.
///
/// A symbolic link (Kubernetes and Docker secrets are links into a `..data` folder) is resolved first and its target
/// opened with `O_NOFOLLOW`; mode and owner come from `fstat` of the open descriptor, so the file checked is the
/// file read.
public enum OwnerOnlyFile {
    /// Why a secret file was refused.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The kinds of refusal, each with its own exit code at the entry point.
        public enum Reason: Sendable, Hashable {
            /// No such file.
            case missing
            /// Not a regular file, a read error, or over the size limit.
            case unreadable
            /// Mode, owner or folder let someone else read or replace it.
            case permissions
        }

        /// Why.
        public var reason: Reason
        /// What happened and what to do, naming the file (never its content).
        public var message: String

        /// A refusal for `reason`.
        public init(_ reason: Reason, _ message: String) {
            self.reason = reason
            self.message = message
        }

        public var description: String { message }
    }

    /// The bytes of the secret file at `url`, at most `maximumBytes` of them; `what` names it in messages
    /// ("key file", "PIN file"). The read buffer is wiped; the caller owns (and should wipe) the copy returned.
    ///
    /// - Throws: `Failure` `.missing` (no such file), `.permissions` (mode, owner or folder), `.unreadable` (not a
    ///   regular file, read error, too large).
    public static func read(_ url: URL, what: String, maximumBytes: Int = 4096) throws(Failure) -> [UInt8] {
        guard let resolved = realpath(url.path, nil) else {
            throw Failure(.missing, "cannot read \(what) \(url.path)")
        }
        let path = String(cString: resolved)
        free(resolved)
        let shown = path == url.path ? url.path : "\(url.path) (→ \(path))"
        let folder = (path as NSString).deletingLastPathComponent
        var folderStatus = stat()
        guard stat(folder, &folderStatus) == 0 else {
            throw Failure(.unreadable, "cannot read the folder of \(what) \(shown)")
        }
        guard folderStatus.st_mode & 0o022 == 0 else {
            throw Failure(
                .permissions,
                "the folder \(folder) of \(what) \(shown) is writable by group or others "
                    + "(mode \(String(folderStatus.st_mode & 0o7777, radix: 8))): anyone there could replace it; "
                    + "run: chmod go-w \(folder)")
        }
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else { throw Failure(.unreadable, "cannot open \(what) \(shown)") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw Failure(.unreadable, "\(what) \(shown) is not a regular file")
        }
        let mode = status.st_mode & 0o7777
        guard mode & 0o077 == 0 else {
            throw Failure(
                .permissions,
                "\(what) \(shown) is readable by group or others (mode \(String(mode, radix: 8))); "
                    + "run: chmod 600 \(path)")
        }
        guard status.st_uid == geteuid() || status.st_uid == 0 else {
            throw Failure(
                .permissions,
                "\(what) \(shown) belongs to user \(status.st_uid), not to this user (\(geteuid())) "
                    + "or root; run: chown \(geteuid()) \(path)")
        }
        var bytes = [UInt8](repeating: 0, count: maximumBytes + 1)
        defer { SecretBytes.wipe(&bytes) }  // the read buffer; the caller gets a copy of its first `count` bytes
        var count = 0
        while count < bytes.count {
            let got = bytes[count...].withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw Failure(.unreadable, "cannot read \(what) \(shown)") }
            if got == 0 { break }
            count += got
        }
        guard count <= maximumBytes else {
            throw Failure(.unreadable, "\(what) \(shown) is over \(maximumBytes) bytes")
        }
        return Array(bytes[..<count])
    }
}
