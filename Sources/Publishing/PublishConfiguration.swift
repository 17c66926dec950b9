import MQTTService

/// Where and how to publish: the broker, connection options, and the line's limits.
public struct PublishConfiguration: Sendable {
    /// The broker and topic prefix: `mqtt[s]://HOST[:PORT]/TOPIC-PREFIX`.
    public var endpoint: MQTTEndpoint
    /// The broker's user name and password (`--publish-credentials @FILE|env:VAR`), if it wants them.
    public var credentials: MQTTCredentials?
    /// The TLS files of an `mqtts://` endpoint (`--publish-ca`, `--publish-cert`, `--publish-key`).
    public var tls: MQTTTLSOptions?
    /// `--publish-required N`: the line pauses once N events are unpublished.
    public var required: Int?
    /// `--publish-drain S`: how long the end of a run publishes what is left (default 10 s).
    public var drain: Duration
    /// How long the publisher lets nudged events gather before it reads and sends them (default 50 ms), so a line
    /// costs one read and one mark for many tags; `drain`, `waitForBacklog` and `stop` do not wait for it.
    public var coalescing: Duration

    /// A configuration; only the endpoint is required.
    public init(
        endpoint: MQTTEndpoint, credentials: MQTTCredentials? = nil, tls: MQTTTLSOptions? = nil,
        required: Int? = nil, drain: Duration = .seconds(10), coalescing: Duration = .milliseconds(50)
    ) {
        self.endpoint = endpoint
        self.credentials = credentials
        self.tls = tls
        self.required = required
        self.drain = drain
        self.coalescing = coalescing
    }
}

/// What the publisher tells its owner (the run command prints these as warnings / notes).
public enum PublishNotice: Sendable, Equatable {
    /// The broker went away (one notice an outage, with why); events stay in the outbox meanwhile.
    case brokerDown(String)
    /// The broker is back after an outage; the backlog is being sent.
    case brokerBack
}

/// Which of a job's events a publisher sends and counts.
public enum PublishScope: Sendable, Equatable {
    /// Every station's events (`provision publish`, or a station on a ledger file: its one writer's events).
    case job
    /// This station's events and those no station wrote: all a station's login may mark on a ledger server.
    case ownStation
}
