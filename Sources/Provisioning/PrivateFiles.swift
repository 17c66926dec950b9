import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Folders and files that hold row fields (ledgers, reports): created owner-only, 0700 and 0600.
///
/// Row fields can be customer data (names, serials, order numbers), so nothing `provision` creates
/// for a job is readable by other users of the station. Existing folders keep their mode: a started
/// job must find its ledger where it was, and an engineer may have chosen a shared folder on purpose.
public enum PrivateFiles {
    /// Mode of the folders created.
    public static let folderMode: mode_t = 0o700
    /// Mode of the files created.
    public static let fileMode: mode_t = 0o600

    /// Creates `folder` and any missing parents with mode 0700 (parents that exist are left alone).
    public static func createFolder(_ folder: URL) throws {
        var missing: [URL] = []
        var cursor = folder.standardizedFileURL
        while !FileManager.default.fileExists(atPath: cursor.path), cursor.path != "/" {
            missing.append(cursor)
            cursor = cursor.deletingLastPathComponent()
        }
        for url in missing.reversed() {
            guard mkdir(url.path, folderMode) == 0 || errno == EEXIST else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
            }
            // mkdir applies the umask; the mode must not depend on it.
            chmod(url.path, folderMode)
        }
    }

    /// Creates an empty file at `url` with mode 0600 if none is there (e.g. before SQLite opens it, so
    /// its WAL and shared-memory files inherit the mode).
    public static func createEmptyFile(_ url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, fileMode)
        guard descriptor >= 0 else {
            if errno == EEXIST { return }
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
        }
        fchmod(descriptor, fileMode)
        close(descriptor)
    }

    /// Writes `bytes` whole to a temporary 0600 file beside `url` and renames it over `url`, so a reader
    /// never sees half a file and the file is never readable by others, whatever the umask.
    public static func write(_ bytes: some Collection<UInt8>, to url: URL) throws {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, fileMode)
        guard descriptor >= 0 else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
        }
        var failed = fchmod(descriptor, fileMode) != 0
        let data = Array(bytes)
        var offset = 0
        while !failed && offset < data.count {
            let written = data[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { failed = true } else { offset += written }
        }
        close(descriptor)
        guard !failed, rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }
}
