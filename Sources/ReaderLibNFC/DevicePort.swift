import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The serial port under a UART connstring (`pn532_uart:/dev/ttyUSB0`), as it was when the reader opened it:
/// tells whether a failing device is gone (the port removed, or its path now names another device),
/// so the line pauses and opens it again rather than failing tags (`TransportError.readerGone`).
struct DevicePort {
    /// The path in the connstring (a symlink is followed each time).
    let path: String
    /// The device number (`st_rdev`) the path named at open.
    let device: dev_t

    /// The port of `connstring` if its driver talks to a path (`driver:/path[:speed]`), as it is now.
    init?(connstring: String) {
        let parts = connstring.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[1].hasPrefix("/"), let device = Self.device(at: String(parts[1])) else {
            return nil
        }
        path = String(parts[1])
        self.device = device
    }

    /// Whether the port went away: the path names no device (a USB serial adapter unplugged, a pty whose
    /// emulator closed its side: the kernel removes the node) or another one (the path re-pointed). Only looked
    /// up, never opened: even a brief open and close of a tty disturbs the holder's link (`DeviceLock`).
    var isGone: Bool {
        Self.device(at: path) != device
    }

    private static func device(at path: String) -> dev_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_rdev
    }
}
