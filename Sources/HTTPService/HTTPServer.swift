internal import CMicroHTTPD
import Glibc
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd: epoll with a pool of worker threads, the service's limits enforced before
/// the handler runs, each handler in a task of its own while its connection waits suspended (so a few threads carry
/// any number of requests in flight), a clean stop (stop accepting, let open requests finish, answer the rest 503,
/// then stop) also on deinit (docs/reference/http.md §3, §6).
public final class HTTPServer: Sendable {
    /// Threads and limits.
    public struct Configuration: Sendable {
        /// Worker threads, each with its own epoll set on the shared listening socket.
        public var threads = 2
        /// The longest request target (path and query, as sent) before 414.
        public var maxTargetBytes = 2048
        /// The longest body before 413.
        public var maxBodyBytes = 4096
        /// The methods the handler sees; any other is answered 405 with `Allow`.
        public var methods: Set<String> = ["GET", "HEAD", "POST"]
        /// Per-client token buckets (peer address; every Unix-socket peer is one client, `unix`); `nil`: no limit.
        public var rateLimiter: RateLimiter? = RateLimiter(policy: .standard)
        /// Clients the rate limit does not apply to, and whose `X-Forwarded-For` names the client it applies to.
        public var trustedClients = TrustedClients.loopback
        /// Paths the rate limit never applies to (a service's `/healthz` and `/metrics`: probes must get through).
        public var unlimitedPaths: Set<String> = []
        /// Seconds a connection may stay idle, keep-alive included, before libmicrohttpd closes it; a client that
        /// trickles its request in counts as idle between bytes only, so a whole request gets this long at most per
        /// byte, and the connection limits bound how many such clients there can be.
        public var connectionTimeoutSeconds = 10
        /// Open connections at once, all clients together; a connection over it waits in the listen backlog.
        public var maxConnections = 1024
        /// Open connections at once from one TCP peer address; over it: closed unanswered. Unix-socket peers (a
        /// proxy) count only against `maxConnections`.
        public var maxConnectionsPerClient = 64
        /// Memory per connection for its request line, headers and buffers; a request whose headers do not fit is
        /// refused by libmicrohttpd (431 or 414) before the handler runs.
        public var connectionMemoryBytes = 32 * 1024
        /// How long a stop waits for open connections before it closes them; a request whose handler is still
        /// running then is answered 503 (its task cancelled).
        public var drainTimeout: Duration = .seconds(2)
        /// How long a handler may run after its request arrived: one still running then is answered 503 with
        /// `Retry-After: 1`, its connection resumed and its task cancelled (a late answer is dropped). Checked every
        /// quarter of this, at most a second apart, so the answer comes up to that much later.
        public var handlerTimeout: Duration = .seconds(10)

        public init() {}
    }

    /// Where the server listens; for `tcp:HOST:0`, the port it picked.
    public let address: HTTPListenAddress
    private let core: ServiceCore
    /// The daemon (`struct MHD_Daemon *`); `nil` once stopped.
    private let running: Mutex<OpaquePointer?>
    /// Answers handlers that run past `handlerTimeout` (`ServiceCore.startDeadlineSweep`); cancelled by a stop.
    private let deadlineSweep: Task<Void, Never>

    /// Starts listening on `address` and answering with `immediate` on the worker thread when it answers or defers,
    /// else with `handler` in a task of its own.
    public init(
        listen address: HTTPListenAddress, configuration: Configuration = Configuration(),
        immediate: HTTPImmediateHandler? = nil, handler: @escaping HTTPHandler
    ) throws(HTTPServerError) {
        let (fd, bound) = try ListenSocket.open(address)
        let core = ServiceCore(configuration: configuration, handler: handler, immediate: immediate)
        guard let daemon = Self.startDaemon(listenFD: fd, core: core) else {
            close(fd)
            if case .unix(let path) = address { unlink(path) }
            throw .daemonStart(bound.description)
        }
        self.address = bound
        self.core = core
        running = Mutex(daemon)
        deadlineSweep = core.startDeadlineSweep()
    }

    deinit { stop() }

    /// Stops: answers carry `Connection: close`, a Unix socket file is removed, no new connection is accepted, open
    /// ones (a running handler's included) get up to `drainTimeout` to finish; then requests whose handler still runs
    /// are answered 503, given a moment to be sent, and the daemon stops and the socket closes. Idempotent.
    public func stop() {
        guard let daemon = running.withLock({ daemon in daemon.take() }) else { return }
        deadlineSweep.cancel()
        core.draining.store(true, ordering: .relaxed)
        if case .unix(let path) = address { unlink(path) }
        // Needs MHD_USE_ITC in the epoll modes; the socket it returns is ours to close, after MHD_stop_daemon.
        let quiesced = MHD_quiesce_daemon(daemon)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: core.configuration.drainTimeout)
        // A suspended connection counts as open: a running handler keeps this wait going.
        while cmhd_current_connections(daemon) > 0 && clock.now < deadline { usleep(5_000) }
        // libmicrohttpd must not stop with a connection suspended (header): resume every one with a 503, and wait
        // (bounded) for the workers to send those answers; MHD_stop_daemon closes whatever is left.
        core.answerRemaining()
        // A handler's resume that began before the forced answers finishes first (a few microseconds; no later one
        // starts: every request has its answer).
        while core.resumesInFlight.load(ordering: .acquiring) > 0 { sched_yield() }
        let sent = clock.now.advanced(by: min(core.configuration.drainTimeout, .seconds(1)))
        while core.pendingCount > 0 && clock.now < sent { usleep(1_000) }
        MHD_stop_daemon(daemon)
        // A daemon that was not quiesced closes its listening socket itself.
        if quiesced >= 0 { close(quiesced) }
    }

    private static func startDaemon(listenFD: Int32, core: ServiceCore) -> OpaquePointer? {
        let configuration = core.configuration
        let cls = Unmanaged.passUnretained(core).toOpaque()
        let uriLog:
            @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?)
                -> UnsafeMutableRawPointer? = { @Sendable _, uri, _ in
                    let state = RequestState(targetLength: uri.map { strlen($0) } ?? 0)
                    return Unmanaged.passRetained(state).toOpaque()
                }
        let completed: MHD_RequestCompletedCallback = { @Sendable cls, _, context, _ in
            guard let context, let raw = context.pointee else { return }
            let state = Unmanaged<RequestState>.fromOpaque(raw)
            if let cls, let id = state.takeUnretainedValue().pendingID {
                Unmanaged<ServiceCore>.fromOpaque(cls).takeUnretainedValue().forget(id)
            }
            state.release()
            context.pointee = nil
        }
        let options = [
            MHD_OptionItem(option: .LISTEN_SOCKET, value: Int(listenFD), ptr_value: nil),
            MHD_OptionItem(option: .THREAD_POOL_SIZE, value: max(1, configuration.threads), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.connectionTimeoutSeconds, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: max(1, configuration.maxConnections), ptr_value: nil),
            MHD_OptionItem(
                option: .PER_IP_CONNECTION_LIMIT, value: max(1, configuration.maxConnectionsPerClient), ptr_value: nil),
            MHD_OptionItem(
                option: .CONNECTION_MEMORY_LIMIT, value: configuration.connectionMemoryBytes, ptr_value: nil),
            MHD_OptionItem(option: .URI_LOG_CALLBACK, value: functionValue(uriLog), ptr_value: nil),
            MHD_OptionItem(option: .NOTIFY_COMPLETED, value: functionValue(completed), ptr_value: cls),
            MHD_OptionItem(option: .END, value: 0, ptr_value: nil),
        ]
        let flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        return options.withUnsafeBufferPointer {
            cmhd_start(UInt32(flags), 0, accessHandler, cls, $0.baseAddress)
        }
    }

    /// A C function pointer as the integer `MHD_OptionItem.value` carries for options that take one.
    private static func functionValue<F>(_ function: F) -> Int {
        Int(bitPattern: unsafeBitCast(function, to: UnsafeRawPointer.self))
    }
}

/// libmicrohttpd's access handler: called with the headers, then per body chunk, then once more to start the handler
/// and suspend, and once more after the resume to queue its answer (docs/reference/http.md §2, §6).
/// `@Sendable`: it runs on MHD's worker threads and must not inherit any actor isolation.
private let accessHandler: MHD_AccessHandlerCallback = {
    @Sendable cls, connection, url, method, _, upload, uploadSize, context in
    guard let cls, let connection, let context, let raw = context.pointee else { return .NO }
    let core = Unmanaged<ServiceCore>.fromOpaque(cls).takeUnretainedValue()
    let state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
    let method = method.map { String(cString: $0) } ?? ""
    if state.answered {
        uploadSize?.pointee = 0
        return .YES
    }
    if let id = state.pendingID {
        state.answered = true
        return core.queue(core.answer(of: id), on: connection)
    }
    if !state.admitted {
        state.admitted = true
        let path = url.map { String(cString: $0) } ?? "/"
        guard let refusal = core.refusal(state, method: method, path: path, connection: connection) else {
            return .YES
        }
        state.answered = true
        return core.queue(refusal, on: connection)
    }
    if let uploadSize, uploadSize.pointee != 0 {
        let count = uploadSize.pointee
        uploadSize.pointee = 0
        // libmicrohttpd cannot answer in the middle of a body (MHD_queue_response refuses): a body without a
        // Content-Length that grows too large is read and dropped, answered 413 at its end, and its connection
        // closed unanswered once it passes 16 times the limit.
        state.received += count
        if state.received > core.configuration.maxBodyBytes { state.bodyTooLarge = true }
        if state.received > 16 * core.configuration.maxBodyBytes { return .NO }
        if !state.bodyTooLarge, let upload {
            state.body.append(contentsOf: UnsafeRawBufferPointer(start: upload, count: count))
        }
        return .YES
    }
    if state.bodyTooLarge { return core.queue(core.bodyTooLarge, on: connection) }
    let path = url.map { String(cString: $0) } ?? "/"
    switch core.request(state, connection: connection, path: path, method: method) {
    case .refused(let refusal): return core.queue(refusal, on: connection)
    case .request(let request):
        if let immediate = core.immediate {
            let deferral = HTTPDeferral(core: core, connection: connection)
            let response = immediate(request, deferral)
            if let id = deferral.id {
                state.pendingID = id
                return .YES
            }
            if let response {
                state.answered = true
                return core.queue(response, on: connection)
            }
        }
        guard let id = core.dispatch(request, on: connection) else {
            return core.queue(core.stoppingAnswer, on: connection)
        }
        state.pendingID = id
        return .YES
    }
}
