/// Where a server listens: `tcp:HOST:PORT` (port 0 picks a free one) or `unix:PATH`.
public enum HTTPListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// A TCP address; `host` is a numeric IPv4 or IPv6 address or a name (IPv6 written `[::1]` in the text form).
    case tcp(host: String, port: UInt16)
    /// A Unix stream socket at `path`, created with mode 0660 (an existing socket file there is replaced).
    case unix(path: String)

    /// Parses `tcp:HOST:PORT` or `unix:PATH`; the error names what is wrong.
    public init(parsing text: String) throws(HTTPServerError) {
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst(5))
            guard !path.isEmpty else { throw .badAddress(text, "unix: needs a socket path") }
            guard path.utf8.count < 108 else { throw .badAddress(text, "a Unix socket path is at most 107 bytes") }
            self = .unix(path: path)
            return
        }
        guard text.hasPrefix("tcp:") else { throw .badAddress(text, "expected tcp:HOST:PORT or unix:PATH") }
        let rest = text.dropFirst(4)
        guard let colon = rest.lastIndex(of: ":") else { throw .badAddress(text, "tcp: needs HOST:PORT") }
        var host = String(rest[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw .badAddress(text, "tcp: needs a host") }
        guard let port = UInt16(rest[rest.index(after: colon)...]) else {
            throw .badAddress(text, "the port must be a number from 0 to 65535")
        }
        self = .tcp(host: host, port: port)
    }

    public var description: String {
        switch self {
        case .tcp(let host, let port): host.contains(":") ? "tcp:[\(host)]:\(port)" : "tcp:\(host):\(port)"
        case .unix(let path): "unix:\(path)"
        }
    }
}

/// Why a server could not start, or an address could not be read.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The listen address text is malformed: the text and what is wrong with it.
    case badAddress(String, String)
    /// The listening socket could not be made: the address, the failing call and its errno.
    case socket(String, String, Int32)
    /// libmicrohttpd refused to start with these options.
    case daemonStart(String)

    public var description: String {
        switch self {
        case .badAddress(let text, let why): "listen address '\(text)': \(why)"
        case .socket(let address, let call, let code): "cannot listen on \(address): \(call) failed (errno \(code))"
        case .daemonStart(let address): "cannot start the HTTP service on \(address)"
        }
    }
}
