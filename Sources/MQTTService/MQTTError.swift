internal import CMosquitto

/// Why an MQTT endpoint, credential or connection failed; messages never hold a password.
///
/// The codes a caller decides on: `.notAuthorized` (the broker refused the credentials: a configuration error,
/// exit 77), `.unreachable` (no broker answered: warn and keep the outbox growing), `.connectionLost` (a
/// connection that was up went down: resend what was not acknowledged after `reconnect()`).
public struct MQTTError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, switchable code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// The endpoint URL is malformed (the message names the part).
        public static let invalidEndpoint = Code("invalidEndpoint")
        /// TLS options, client id, will or message are unusable (missing file, wildcard in a topic …).
        public static let invalidConfiguration = Code("invalidConfiguration")
        /// The credentials source is missing (no such file, unset variable).
        public static let credentialsMissing = Code("credentialsMissing")
        /// The credentials file (or TLS key file) can be read or replaced by others.
        public static let credentialsUnsafe = Code("credentialsUnsafe")
        /// The credentials are not one `user:password` line.
        public static let credentialsMalformed = Code("credentialsMalformed")
        /// The broker refused the user name or password, or this client is not authorised.
        public static let notAuthorized = Code("notAuthorized")
        /// The broker refused the connection for another reason (protocol version, client id, unavailable).
        public static let refused = Code("refused")
        /// No broker answered at the endpoint (refused TCP connection, unknown host, no CONNACK in time).
        public static let unreachable = Code("unreachable")
        /// The TLS handshake failed (unknown CA, wrong host name, bad client certificate).
        public static let tls = Code("tls")
        /// The connection went down before the PUBACK: the message may or may not have reached the broker.
        public static let connectionLost = Code("connectionLost")
        /// The task waiting (for a CONNACK or a PUBACK) was cancelled; a message stays in flight.
        public static let cancelled = Code("cancelled")
        /// A publish while no connection is up (the message was not handed to libmosquitto).
        public static let notConnected = Code("notConnected")
        public var description: String { name }
    }

    /// What kind of failure.
    public let code: Code
    /// What happened and what to do.
    public let message: String
    /// The libmosquitto status underneath, if any.
    public let status: MosquittoStatus?

    /// An error with `code`, `message` and the libmosquitto `status` underneath.
    public init(_ code: Code, _ message: String, status: MosquittoStatus? = nil) {
        self.code = code
        self.message = message
        self.status = status
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    public var description: String { "\(code): \(message)" }
}

/// A libmosquitto result code (`int`, `MOSQ_ERR_*`), or a CONNACK reason code in `connectReason`.
public struct MosquittoStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The corresponding C constant is `MOSQ_ERR_SUCCESS`.
    public static let success = MosquittoStatus(rawValue: MOSQ_ERR_SUCCESS.rawValue)
    /// The corresponding C constant is `MOSQ_ERR_INVAL` (an argument libmosquitto refuses).
    public static let invalid = MosquittoStatus(rawValue: MOSQ_ERR_INVAL.rawValue)
    /// The corresponding C constant is `MOSQ_ERR_NO_CONN`.
    public static let noConnection = MosquittoStatus(rawValue: MOSQ_ERR_NO_CONN.rawValue)
    /// The corresponding C constant is `MOSQ_ERR_CONN_LOST`.
    public static let connectionLost = MosquittoStatus(rawValue: MOSQ_ERR_CONN_LOST.rawValue)
    /// The corresponding C constant is `MOSQ_ERR_TLS`.
    public static let tls = MosquittoStatus(rawValue: MOSQ_ERR_TLS.rawValue)
    /// The corresponding C constant is `MOSQ_ERR_TLS_HANDSHAKE`.
    public static let tlsHandshake = MosquittoStatus(rawValue: MOSQ_ERR_TLS_HANDSHAKE.rawValue)
    /// The corresponding C constant is `MOSQ_ERR_ERRNO` (see errno).
    public static let errno = MosquittoStatus(rawValue: MOSQ_ERR_ERRNO.rawValue)
    /// The corresponding C constant is `MOSQ_ERR_EAI` (host name lookup failed).
    public static let lookup = MosquittoStatus(rawValue: MOSQ_ERR_EAI.rawValue)
    /// The corresponding C constant is `MOSQ_ERR_KEEPALIVE`.
    public static let keepalive = MosquittoStatus(rawValue: MOSQ_ERR_KEEPALIVE.rawValue)

    /// libmosquitto's text for the code (`mosquitto_strerror`).
    public var description: String { String(cString: mosquitto_strerror(rawValue)) }
}
