import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// TCP ports for test servers (the PostgreSQL TLS server, nginx's TLS site).
public enum TCPPort {
    /// A TCP port on 127.0.0.1 nothing listens on now (the kernel's pick for port 0).
    public static func free() throws(HarnessError) -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw HarnessError("socket failed: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else { throw HarnessError("cannot pick a free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
