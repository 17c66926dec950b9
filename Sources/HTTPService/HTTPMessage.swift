/// One request as the handler sees it: already checked against the service's limits, its query decoded.
public struct HTTPRequest: Sendable {
    /// One query parameter, percent- and `+`-decoded; `value` is `nil` for a bare name (`?flag`).
    public struct QueryItem: Sendable, Hashable {
        public var name: String
        public var value: String?

        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    /// The method, as sent (`GET`, `POST`, …).
    public var method: String
    /// The path, percent-decoded, without the query.
    public var path: String
    /// The query parameters in the order sent; a name may repeat.
    public var query: [QueryItem]
    /// The request headers in the order sent, names as sent.
    public var headers: [(name: String, value: String)]
    /// The body (at most the service's body limit).
    public var body: [UInt8]
    /// The peer's address (`127.0.0.1`, `::1`), or `unix` for a Unix-socket peer.
    public var clientAddress: String

    public init(
        method: String, path: String, query: [QueryItem] = [], headers: [(name: String, value: String)] = [],
        body: [UInt8] = [], clientAddress: String = "unix"
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.clientAddress = clientAddress
    }

    /// The first header of that name, compared without regard to case.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }

    /// Every value of a query parameter, in the order sent.
    public func queryValues(_ name: String) -> [String?] {
        query.filter { $0.name == name }.map(\.value)
    }
}

/// One answer: status, headers and body bytes (copied into the C library when queued).
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [Header]
    public var body: [UInt8]

    /// One response header.
    public struct Header: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(status: Int, headers: [Header] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A plain-text answer (`text/plain; charset=utf-8`), the text followed by a newline.
    public static func text(_ status: Int, _ text: String, headers: [Header] = []) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [Header("Content-Type", "text/plain; charset=utf-8")] + headers,
            body: Array((text + "\n").utf8))
    }

    /// A JSON answer (`application/json`) from already encoded bytes.
    public static func json(_ status: Int, _ body: [UInt8], headers: [Header] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [Header("Content-Type", "application/json")] + headers, body: body)
    }
}

/// Answers one request; runs in a task of its own while the connection waits suspended, so the server's worker threads
/// never wait for it (docs/reference/http.md §6). It may await anything, but must not block its thread.
public typealias HTTPHandler = @Sendable (HTTPRequest) async -> HTTPResponse

/// Answers a request on the worker thread that read it, before any task starts: its answer, or `nil` after it
/// suspended the connection (`HTTPDeferral.suspend()`) to answer later from any thread, or `nil` without that to hand
/// the request to the `HTTPHandler`. For work that never blocks the thread (a queued ledger call with a callback):
/// no task, no executor hand-off (docs/reference/http.md §6).
public typealias HTTPImmediateHandler = @Sendable (HTTPRequest, HTTPDeferral) -> HTTPResponse?
