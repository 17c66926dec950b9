import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The emulator's control socket: a unix stream socket taking one command per line and answering
/// one line (`ok …` or `error …`).
///
/// Not `Sendable`: used only from the emulator's I/O thread.
final class ControlServer {
    let path: String
    private let listener: Int32
    private var clients: [Int32: [UInt8]] = [:]

    /// Binds and listens on `path` (an old socket file there is replaced).
    init(path: String) throws(PN532ControlError) {
        self.path = path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw PN532ControlError("socket failed") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            Glibc.close(fd)
            throw PN532ControlError("control socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        unlink(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(fd, 4) == 0 else {
            Glibc.close(fd)
            throw PN532ControlError("cannot listen on \(path): \(String(cString: strerror(errno)))")
        }
        _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        listener = fd
    }

    /// The descriptors to poll: the listener and every client.
    var pollDescriptors: [pollfd] {
        [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            + clients.keys.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    }

    /// Accepts new clients and answers complete lines from ready ones.
    func serve(ready: [Int32], handle: (String) -> String) {
        for fd in ready {
            if fd == listener {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { continue }
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                clients[client] = []
                continue
            }
            var buffer = [UInt8](repeating: 0, count: 1024)
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else {
                Glibc.close(fd)
                clients[fd] = nil
                continue
            }
            var pending = (clients[fd] ?? []) + buffer.prefix(count)
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                pending.removeSubrange(...newline)
                let answer = Array((handle(line) + "\n").utf8)
                _ = answer.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            }
            clients[fd] = pending
        }
    }

    /// Closes every descriptor and removes the socket file.
    func close() {
        for fd in clients.keys { Glibc.close(fd) }
        clients.removeAll()
        Glibc.close(listener)
        unlink(path)
    }
}
