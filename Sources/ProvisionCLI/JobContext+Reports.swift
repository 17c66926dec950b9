import Foundation

extension JobContext {
    /// Maps a failure to write the reports folder to an exit code: a full disk, an exceeded quota or an
    /// I/O error → 74; anything else (permissions, a read-only file system, a missing parent) → 73.
    static func reportsError(_ error: any Error, folder: URL) -> CLIError {
        let code: ExitCode = isOutOfSpaceOrIO(error as NSError) ? .ioError : .cannotCreate
        return CLIError(code, "cannot write reports to \(folder.path): \(error.localizedDescription)")
    }

    private static func isOutOfSpaceOrIO(_ error: NSError) -> Bool {
        if error.domain == NSCocoaErrorDomain, error.code == CocoaError.fileWriteOutOfSpace.rawValue { return true }
        if error.domain == NSPOSIXErrorDomain, [ENOSPC, EDQUOT, EIO].contains(Int32(error.code)) { return true }
        guard let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError else { return false }
        return isOutOfSpaceOrIO(underlying)
    }
}
