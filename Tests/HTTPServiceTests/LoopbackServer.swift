import HTTPService

/// A server on a free loopback port for the suspend tests: no rate limit, `threads` worker threads and
/// `perClient` connections a client unless `configure` says otherwise; returns it with its port.
func loopbackServer(
    threads: Int, perClient: Int, immediate: HTTPImmediateHandler? = nil, handler: @escaping HTTPHandler,
    _ configure: (inout HTTPServer.Configuration) -> Void
) throws -> (HTTPServer, Int) {
    var configuration = HTTPServer.Configuration()
    configuration.rateLimiter = nil
    configuration.threads = threads
    configuration.maxConnectionsPerClient = perClient
    configure(&configuration)
    let server = try HTTPServer(
        listen: .tcp(host: "127.0.0.1", port: 0), configuration: configuration, immediate: immediate, handler: handler)
    guard case .tcp(_, let port) = server.address else { throw HTTPServerError.daemonStart("no port") }
    return (server, Int(port))
}
