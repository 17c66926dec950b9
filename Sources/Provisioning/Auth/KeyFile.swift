import Foundation
import Support

/// Reads a key file once through `OwnerOnlyFile` (Support): owner-only, owned by this user or root, in a folder
/// that group and others cannot write, the file checked being the file read.
enum KeyFile {
    /// The largest key file read (a key is at most 64 bytes; the rest is slack for text forms).
    static let maximumBytes = 4096

    /// The bytes of the key file at `url`.
    ///
    /// - Throws: `KeyError` `.missing` (no such file), `.permissions` (mode, owner or folder),
    ///   `.unreadable` (not a regular file, read error, too large).
    static func read(_ url: URL, id: String, what: String = "key file") throws(KeyError) -> [UInt8] {
        do {
            return try OwnerOnlyFile.read(url, what: what, maximumBytes: maximumBytes)
        } catch {
            let reason: KeyError.Reason =
                switch error.reason {
                case .missing: .missing
                case .unreadable: .unreadable
                case .permissions: .permissions
                }
            throw KeyError(id: id, reason: reason, message: error.message)
        }
    }
}
