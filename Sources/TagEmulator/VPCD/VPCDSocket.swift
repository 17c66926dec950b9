import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Thin POSIX socket helpers for the virtual card (TCP to vpcd, a Unix control socket).
enum VPCDSocket {
    /// Connects to `host:port` over TCP and arms `TCP_NODELAY` and `TCP_QUICKACK`.
    ///
    /// - Returns: the descriptor, or `nil` when the connection is refused (vpcd not listening yet).
    static func connect(host: String, port: UInt16) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            close(fd)
            return nil
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            return nil
        }
        setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY)
        armQuickAck(fd)
        return fd
    }

    /// Sets `TCP_QUICKACK`; Linux leaves quick-ACK mode on its own, so call it after every read
    /// (`docs/reference/pcsc.md` §6: without it every APDU stalls about 40 ms).
    static func armQuickAck(_ fd: Int32) {
        setOption(fd, Int32(IPPROTO_TCP), TCP_QUICKACK)
    }

    private static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32) {
        var on: Int32 = 1
        _ = setsockopt(fd, level, name, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Reads what is available (at most 4096 bytes); empty means end of stream or error.
    static func readAvailable(_ fd: Int32) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            return count > 0 ? Array(buffer.prefix(count)) : []
        }
    }

    /// Writes all of `bytes` in one call where possible (no SIGPIPE); `false` on failure.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Creates a listening Unix stream socket at `path` (replacing a stale socket file).
    static func listenUnix(path: String) throws(VPCDControlError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw VPCDControlError("cannot create control socket: \(errnoText())") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else {
            close(fd)
            throw VPCDControlError("control socket path too long (\(pathBytes.count) bytes): \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in pathBytes.enumerated() { raw[index] = byte }
        }
        unlink(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            let text = errnoText()
            close(fd)
            throw VPCDControlError("cannot listen on control socket \(path): \(text)")
        }
        return fd
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
