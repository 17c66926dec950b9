import Foundation

/// The `disk` check of `provision doctor`: free space and writability of the current folder and of
/// the reports folder (where the ledger and the reports go).
enum DoctorDisk {
    /// One folder looked at.
    struct Folder: Sendable, Hashable {
        /// What it is for (`current folder`, `reports folder`).
        var role: String
        /// The folder as given.
        var path: String
        /// The folder actually examined: `path`, or its nearest existing parent when it does not exist
        /// yet (it will be created there).
        var examined: String
        /// Bytes available to this user, `nil` when `statvfs` failed or did not answer in time.
        var freeBytes: UInt64?
        /// Whether this user may create files in `examined`.
        var writable: Bool
    }

    /// Below this much free space a folder is a warning (1 GiB).
    static let warnBelowBytes: UInt64 = 1 << 30
    /// Below this much free space a folder fails (100 MiB: a ledger and its reports may not fit).
    static let failBelowBytes: UInt64 = 100 << 20

    /// The status of one folder: fail when not writable or below `failBelowBytes`, warn below
    /// `warnBelowBytes` or when the free space is unknown, ok otherwise.
    static func status(freeBytes: UInt64?, writable: Bool) -> DoctorStatus {
        guard writable else { return .fail }
        guard let freeBytes else { return .warn }
        if freeBytes < failBelowBytes { return .fail }
        return freeBytes < warnBelowBytes ? .warn : .ok
    }

    /// `disk` over the folders examined.
    static func diskCheck(_ folders: [Folder]) -> DoctorCheck {
        let status = DoctorStatus.worst(folders.map { self.status(freeBytes: $0.freeBytes, writable: $0.writable) })
        var parts = folders.map { folder in
            var text = "\(folder.role) \(folder.path)"
            if folder.examined != folder.path { text += " (not there yet; created in \(folder.examined))" }
            text += ": " + (folder.freeBytes.map { size($0) + " free" } ?? "free space unknown")
            text += folder.writable ? ", writable" : ", NOT writable"
            return text
        }
        switch status {
        case .ok: break
        case .warn:
            parts.append("free some space: below \(size(warnBelowBytes)) a long job's ledger and reports may not fit")
        case .fail:
            parts.append(
                "a run needs a writable folder with at least \(size(failBelowBytes)) free: free space, fix the "
                    + "permissions, or run from another folder")
        }
        return DoctorCheck(name: "disk", status: status, detail: parts.joined(separator: "; "))
    }

    /// Looks at `path` (resolved against `base`): its nearest existing folder, free space and writability.
    static func examine(role: String, path: String, base: URL) -> Folder {
        var url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : base.appendingPathComponent(path)
        url.standardize()
        var isDirectory: ObjCBool = false
        while !(FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue),
            url.pathComponents.count > 1
        {
            url.deleteLastPathComponent()
        }
        var info = statvfs()
        let free = statvfs(url.path, &info) == 0 ? UInt64(info.f_bavail) * UInt64(info.f_frsize) : nil
        let examined = url.path
        let given = path.hasPrefix("/") ? path : base.appendingPathComponent(path).standardized.path
        return Folder(
            role: role, path: given, examined: examined, freeBytes: free,
            writable: access(examined, W_OK | X_OK) == 0)
    }

    /// A size for people: `12.34 GiB` from 1 GiB on, else whole MiB (`100 MiB`).
    static func size(_ bytes: UInt64) -> String {
        guard bytes >= 1 << 30 else { return "\(bytes >> 20) MiB" }
        return String(format: "%.2f GiB", Double(bytes) / Double(1 << 30))
    }
}
