internal import CMicroHTTPD
import Synchronization

/// What the C callbacks and the handlers' tasks share for the life of one server: configuration, handler, limiter,
/// the draining flag and the requests whose handler is running.
final class ServiceCore: Sendable {
    let configuration: HTTPServer.Configuration
    let handler: HTTPHandler
    let immediate: HTTPImmediateHandler?
    /// Set when a stop begins: every later answer carries `Connection: close`, so keep-alive clients let go.
    let draining = Atomic<Bool>(false)
    /// The suspended requests and their answers (`PendingAnswers`).
    let pending = Mutex(PendingAnswers())
    /// Handlers' answers whose connection `finish` is resuming outside the lock: a stop waits for none before it
    /// stops the daemon.
    let resumesInFlight = Atomic<Int>(0)

    init(configuration: HTTPServer.Configuration, handler: @escaping HTTPHandler, immediate: HTTPImmediateHandler?) {
        self.configuration = configuration
        self.handler = handler
        self.immediate = immediate
    }
}

/// One request's state, libmicrohttpd's `*con_cls`: made by the URI log callback (the one place that sees the raw
/// request target), released by the request-completed callback (docs/reference/http.md §2). Only the connection's
/// worker thread touches it.
final class RequestState {
    /// Bytes of the request target as sent: path and query, before decoding.
    let targetLength: Int
    /// The header-phase checks ran.
    var admitted = false
    /// A response was queued (a refusal at the header phase): later calls only discard.
    var answered = false
    /// The body so far, never more than the limit.
    var body: [UInt8] = []
    /// Body bytes received, kept or not.
    var received = 0
    /// The body went over the limit: the answer is 413.
    var bodyTooLarge = false
    /// The handler runs with the connection suspended: its key in `ServiceCore.pending`.
    var pendingID: Int?
    /// The request's headers and peer address, read from libmicrohttpd once (`ServiceCore.headers`, `peer`): the
    /// rate check and the handler's request both need them.
    var headers: [(name: [UInt8], value: [UInt8]?)]?
    var peer: String?

    init(targetLength: Int) { self.targetLength = targetLength }
}

@available(*, unavailable)
extension RequestState: Sendable {}

/// Collects key/value pairs from `MHD_get_connection_values_n` (lengths included, so an embedded NUL shows).
final class PairCollector {
    var pairs: [(name: [UInt8], value: [UInt8]?)] = []
}

@available(*, unavailable)
extension PairCollector: Sendable {}

/// A complete request, or the answer that refuses it.
enum Built {
    case request(HTTPRequest)
    case refused(HTTPResponse)
}

extension ServiceCore {
    /// The header-phase checks, in order: rate (429, not for `unlimitedPaths` nor trusted clients), target length
    /// (414), method (405), declared body size (413).
    func refusal(_ state: RequestState, method: String, path: String, connection: OpaquePointer) -> HTTPResponse? {
        if let limiter = configuration.rateLimiter, !configuration.unlimitedPaths.contains(path),
            let client = configuration.trustedClients.limitedClient(
                peer: peer(state, connection),
                forwardedFor: headers(state, connection).filter {
                    text($0.name)?.lowercased() == "x-forwarded-for"
                }
                .map { String(decoding: $0.value ?? [], as: UTF8.self) }),
            let wait = limiter.take(client)
        {
            return .text(429, "too many requests", headers: [.init("Retry-After", String(wait))])
        }
        if state.targetLength > configuration.maxTargetBytes {
            return .text(414, "request target longer than \(configuration.maxTargetBytes) bytes")
        }
        guard configuration.methods.contains(method) else {
            let allowed = configuration.methods.sorted().joined(separator: ", ")
            return .text(405, "method \(method) not allowed", headers: [.init("Allow", allowed)])
        }
        if let declared = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length") {
            guard let size = Int(String(cString: declared)) else { return .text(400, "bad Content-Length") }
            if size > configuration.maxBodyBytes { return bodyTooLarge }
        }
        return nil
    }

    var bodyTooLarge: HTTPResponse { .text(413, "request body longer than \(configuration.maxBodyBytes) bytes") }

    /// Builds the handler's request after the whole body arrived; a 400 answer when the query is not text.
    func request(_ state: RequestState, connection: OpaquePointer, path: String, method: String) -> Built {
        var query: [HTTPRequest.QueryItem] = []
        for pair in pairs(connection, .GET_ARGUMENT_KIND) {
            guard let name = text(pair.name), pair.value.map({ text($0) != nil }) ?? true else {
                return .refused(.text(400, "query parameters must be UTF-8 text without NUL"))
            }
            query.append(.init(name: name, value: pair.value.flatMap(text)))
        }
        let headers = headers(state, connection).map {
            (name: String(decoding: $0.name, as: UTF8.self), value: String(decoding: $0.value ?? [], as: UTF8.self))
        }
        return .request(
            HTTPRequest(
                method: method, path: path, query: query, headers: headers, body: state.body,
                clientAddress: peer(state, connection)))
    }

    /// The request's headers, read on first use and kept in `state`.
    private func headers(_ state: RequestState, _ connection: OpaquePointer) -> [(name: [UInt8], value: [UInt8]?)] {
        if let headers = state.headers { return headers }
        let headers = pairs(connection, .HEADER_KIND)
        state.headers = headers
        return headers
    }

    /// The client's address as the socket gives it, read on first use and kept in `state`.
    private func peer(_ state: RequestState, _ connection: OpaquePointer) -> String {
        if let peer = state.peer { return peer }
        let peer = ListenSocket.peerName(cmhd_client_address(connection))
        state.peer = peer
        return peer
    }

    private func text(_ bytes: [UInt8]) -> String? {
        bytes.contains(0) ? nil : String(validating: bytes, as: UTF8.self)
    }

    private func pairs(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> [(name: [UInt8], value: [UInt8]?)] {
        let collector = PairCollector()
        let iterator: MHD_KeyValueIteratorN = { @Sendable cls, _, key, keySize, value, valueSize in
            guard let cls else { return .NO }
            let collector = Unmanaged<PairCollector>.fromOpaque(cls).takeUnretainedValue()
            let name = key.map { Array(UnsafeRawBufferPointer(start: $0, count: keySize)) } ?? []
            let value = value.map { Array(UnsafeRawBufferPointer(start: $0, count: valueSize)) }
            collector.pairs.append((name, value))
            return .YES
        }
        withExtendedLifetime(collector) {
            _ = MHD_get_connection_values_n(connection, kind, iterator, Unmanaged.passUnretained(collector).toOpaque())
        }
        return collector.pairs
    }

    /// Queues `response` on `connection` (the bytes are copied); `Connection: close` while draining.
    func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let created = response.body.withUnsafeBytes {
            MHD_create_response_from_buffer(
                $0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let made = created else { return .NO }
        defer { MHD_destroy_response(made) }
        // A header with CR or LF is refused by libmicrohttpd (MHD_NO) and so left out: no header injection.
        for header in response.headers { _ = MHD_add_response_header(made, header.name, header.value) }
        if draining.load(ordering: .relaxed) { _ = MHD_add_response_header(made, "Connection", "close") }
        return MHD_queue_response(connection, UInt32(response.status), made)
    }
}
