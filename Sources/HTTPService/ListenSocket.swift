internal import CMicroHTTPD
import Glibc

/// Makes the listening socket libmicrohttpd is handed (`MHD_OPTION_LISTEN_SOCKET`): bound, listening,
/// non-blocking (the worker threads share it), close-on-exec.
enum ListenSocket {
    /// Opens `address`; returns the descriptor and the address actually bound (port 0 resolved).
    static func open(_ address: HTTPListenAddress) throws(HTTPServerError) -> (fd: Int32, bound: HTTPListenAddress) {
        switch address {
        case .tcp(let host, let port): try openTCP(host: host, port: port, address: address)
        case .unix(let path): (try openUnix(path: path, address: address), address)
        }
    }

    private static func openTCP(
        host: String, port: UInt16, address: HTTPListenAddress
    ) throws(HTTPServerError) -> (fd: Int32, bound: HTTPListenAddress) {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let info = list?.pointee else {
            throw .socket(address.description, "getaddrinfo", status)
        }
        defer { freeaddrinfo(list) }
        let fd = socket(info.ai_family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .socket(address.description, "socket", errno) }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, info.ai_addr, info.ai_addrlen) == 0 else { throw failure(fd, address, "bind") }
        guard listen(fd, SOMAXCONN) == 0 else { throw failure(fd, address, "listen") }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw failure(fd, address, "getsockname") }
        return (fd, .tcp(host: host, port: port == 0 ? boundPort(storage) : port))
    }

    private static func openUnix(path: String, address: HTTPListenAddress) throws(HTTPServerError) -> Int32 {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else {
            throw .badAddress(address.description, "a Unix socket path is at most 107 bytes")
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        // A stale socket file from an earlier run is replaced; any other file at the path is left alone (bind fails).
        var info = stat()
        if lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK { unlink(path) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .socket(address.description, "socket", errno) }
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw failure(fd, address, "bind") }
        // 0660 before listen: no client can connect before the mode is right.
        guard chmod(path, 0o660) == 0 else { throw failure(fd, address, "chmod") }
        guard listen(fd, SOMAXCONN) == 0 else { throw failure(fd, address, "listen") }
        return fd
    }

    private static func failure(_ fd: Int32, _ address: HTTPListenAddress, _ call: String) -> HTTPServerError {
        let code = errno
        close(fd)
        return .socket(address.description, call, code)
    }

    private static func boundPort(_ storage: sockaddr_storage) -> UInt16 {
        var copy = storage
        return withUnsafePointer(to: &copy) { pointer in
            if Int32(storage.ss_family) == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin6_port)
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                UInt16(bigEndian: $0.pointee.sin_port)
            }
        }
    }

    /// The text form of a peer address (`127.0.0.1`, `::1`), `unix` for a Unix-socket peer, `unknown` otherwise.
    static func peerName(_ address: UnsafePointer<sockaddr>?) -> String {
        guard let address else { return "unknown" }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            var raw = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            guard inet_ntop(AF_INET, &raw, &buffer, socklen_t(buffer.count)) != nil else { return "unknown" }
        case AF_INET6:
            var raw = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            guard inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count)) != nil else { return "unknown" }
        case AF_UNIX: return "unix"
        default: return "unknown"
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
