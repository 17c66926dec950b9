import Foundation
import Support

/// TLS settings of an `mqtts://` connection: the CA that signs the broker's certificate and, optionally, this
/// client's certificate and key.
public struct MQTTTLSOptions: Sendable, Hashable {
    /// PEM file of the CA (or CAs) the broker's certificate must chain to; `nil` trusts the system's CAs.
    public let caFile: String?
    /// PEM client certificate, with `keyFile`, when the broker asks for one.
    public let certificateFile: String?
    /// PEM private key of `certificateFile`; must be owner-only like a key file.
    public let keyFile: String?

    /// Checks the files: the CA and certificate readable, the key owner-only (`OwnerOnlyFile`), cert and key
    /// given together.
    ///
    /// - Throws: `MQTTError` `.invalidConfiguration` (a file missing, cert without key), `.credentialsUnsafe`
    ///   (a key file others can read or replace).
    public init(caFile: String?, certificateFile: String? = nil, keyFile: String? = nil) throws(MQTTError) {
        guard (certificateFile == nil) == (keyFile == nil) else {
            throw MQTTError(.invalidConfiguration, "a TLS client certificate and its key are given together")
        }
        for (what, path) in [("CA file", caFile), ("client certificate", certificateFile)] {
            if let path, !FileManager.default.isReadableFile(atPath: path) {
                throw MQTTError(.invalidConfiguration, "cannot read the TLS \(what) \(path)")
            }
        }
        if let keyFile {
            do {
                var bytes = try OwnerOnlyFile.read(
                    URL(fileURLWithPath: keyFile), what: "TLS client key", maximumBytes: 64 * 1024)
                SecretBytes.wipe(&bytes)
            } catch {
                let code: MQTTError.Code = error.reason == .permissions ? .credentialsUnsafe : .invalidConfiguration
                throw MQTTError(code, error.message)
            }
        }
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }
}

/// A message the broker publishes for this client when the connection ends without a DISCONNECT (MQTT "will").
public struct MQTTWill: Sendable, Hashable {
    /// The topic (no wildcard).
    public var topic: String
    /// The payload bytes.
    public var payload: [UInt8]
    /// Whether the broker keeps it as the topic's retained message.
    public var retain: Bool

    /// A will published at QoS 1.
    public init(topic: String, payload: [UInt8], retain: Bool = true) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
    }
}

/// How the client connects: identity, session, keepalive, will, credentials, TLS and the in-flight window.
public struct MQTTConnectOptions: Sendable, Hashable {
    /// The client identifier (a station's name); the broker closes an older connection with the same id.
    public var clientID: String
    /// Whether the broker discards this client's session (subscriptions, queued messages) at connect.
    public var cleanSession: Bool
    /// Seconds between keepalive pings; the broker drops the client after 1.5 times this without traffic.
    public var keepalive: Int
    /// The last will, if any.
    public var will: MQTTWill?
    /// User name and password, if the broker wants them.
    public var credentials: MQTTCredentials?
    /// TLS settings; required (non-nil) exactly for `mqtts://` endpoints.
    public var tls: MQTTTLSOptions?
    /// How many QoS 1 messages may await their PUBACK at once (libmosquitto queues the rest in order).
    public var window: Int
    /// How long `connect` waits for the broker's CONNACK before `.unreachable`.
    public var connectTimeout: Duration

    /// Options with the defaults: clean session, 30 s keepalive, a window of 100, a 10 s connect timeout.
    public init(
        clientID: String, cleanSession: Bool = true, keepalive: Int = 30, will: MQTTWill? = nil,
        credentials: MQTTCredentials? = nil, tls: MQTTTLSOptions? = nil, window: Int = 100,
        connectTimeout: Duration = .seconds(10)
    ) {
        self.clientID = clientID
        self.cleanSession = cleanSession
        self.keepalive = keepalive
        self.will = will
        self.credentials = credentials
        self.tls = tls
        self.window = window
        self.connectTimeout = connectTimeout
    }
}

/// An MQTT delivery guarantee.
public enum MQTTQoS: Int32, Sendable, Hashable {
    /// QoS 0: sent once, never acknowledged; "delivered" once written to the socket.
    case atMostOnce = 0
    /// QoS 1: stored by the broker and acknowledged with PUBACK; may arrive more than once.
    case atLeastOnce = 1
}

/// One message to publish.
public struct MQTTMessage: Sendable, Hashable {
    /// The topic (no wildcard).
    public var topic: String
    /// The payload bytes.
    public var payload: [UInt8]
    /// The delivery guarantee (QoS 1 by default).
    public var qos: MQTTQoS
    /// Whether the broker keeps it as the topic's retained message.
    public var retain: Bool

    /// A message.
    public init(topic: String, payload: [UInt8], qos: MQTTQoS = .atLeastOnce, retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }

    /// A message with a UTF-8 text payload.
    public init(topic: String, text: String, qos: MQTTQoS = .atLeastOnce, retain: Bool = false) {
        self.init(topic: topic, payload: Array(text.utf8), qos: qos, retain: retain)
    }
}
