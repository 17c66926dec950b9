import Foundation
import JSONReader

extension Manifest {
    /// The manifest's `"publish"` object: where `run --publish` sends the job's outbox when no `--publish` flag is
    /// given (docs/events.md, "run --publish"). Plain values: the CLI parses the URL and reads the files, so this
    /// module knows nothing of MQTT.
    public struct PublishSettings: Sendable, Hashable {
        /// `to`: the broker URL, `mqtt[s]://HOST[:PORT]/PREFIX` (checked by the CLI, which names this field).
        public var to: String
        /// `credentials`: `@/absolute/path` (a relative file resolved against the manifest's folder) or `env:VAR`;
        /// never a literal password (refused when decoding).
        public var credentials: String?
        /// `ca`: the PEM file of the CA the broker's certificate chains to.
        public var ca: URL?
        /// `cert`: a PEM client certificate (given with `key`).
        public var cert: URL?
        /// `key`: the client certificate's owner-only PEM key (given with `cert`).
        public var key: URL?
        /// `required`: the line pauses while this many events are unpublished.
        public var required: Int?
        /// `drain`: seconds the end of a run waits for the outbox to drain.
        public var drain: Double?
        /// Where each field is written (`to`, `ca` …), for errors the CLI finds in them.
        public var positions: [String: TextPosition]

        /// Settings from values (tests and tools; no validation beyond the types).
        public init(
            to: String, credentials: String? = nil, ca: URL? = nil, cert: URL? = nil, key: URL? = nil,
            required: Int? = nil, drain: Double? = nil, positions: [String: TextPosition] = [:]
        ) {
            self.to = to
            self.credentials = credentials
            self.ca = ca
            self.cert = cert
            self.key = key
            self.required = required
            self.drain = drain
            self.positions = positions
        }

        /// The keys a `"publish"` object may hold.
        public static let keys = ["to", "credentials", "ca", "cert", "key", "required", "drain"]
    }

    /// An error about the `publish` field `field` of this manifest, at the position it is written (exit 65).
    public func publishError(_ field: String, _ message: String) -> JobInputError {
        JobInputError(
            .manifestInvalid, file: file, position: publish?.positions[field], "publish.\(field): \(message)")
    }
}

extension ManifestDecoder {
    /// `publish`: an object with `to` (required), `credentials` (`@FILE` or `env:VAR`), `ca`, `cert` and `key`
    /// (paths; `cert` and `key` together), `required` (1–1,000,000 events) and `drain` (0–3600 seconds).
    func decodePublish(_ node: JSONNode) throws(JobInputError) -> Manifest.PublishSettings {
        let members = try checkKeys(node, "publish", allowed: Manifest.PublishSettings.keys)
        var positions: [String: TextPosition] = [:]
        for member in members { positions[member.key] = member.value.position }
        let toNode = try required(node, "to", in: "publish")
        let to = try string(toNode, "publish.to")
        guard !to.isEmpty else { throw fail(toNode, "publish.to", "must not be empty") }
        var settings = Manifest.PublishSettings(to: to, positions: positions)
        if let value = node["credentials"] { settings.credentials = try credentialsSource(value) }
        settings.ca = try node["ca"].map { node throws(JobInputError) in try path(node, "publish.ca") }
        settings.cert = try node["cert"].map { node throws(JobInputError) in try path(node, "publish.cert") }
        settings.key = try node["key"].map { node throws(JobInputError) in try path(node, "publish.key") }
        if let cert = node["cert"], node["key"] == nil {
            throw fail(cert, "publish.cert", "needs publish.key (a TLS client certificate and its key go together)")
        }
        if let key = node["key"], node["cert"] == nil {
            throw fail(key, "publish.key", "needs publish.cert (a TLS client certificate and its key go together)")
        }
        if let value = node["required"] {
            settings.required = try integer(value, "publish.required", in: 1...1_000_000)
        }
        if let value = node["drain"] {
            guard case .number(let text) = value.kind, let seconds = Double(text), (0...3600).contains(seconds) else {
                throw fail(value, "publish.drain", "must be a number of seconds in 0...3600, found \(Self.show(value))")
            }
            settings.drain = seconds
        }
        return settings
    }

    /// `publish.credentials`: `@FILE` (resolved against the manifest's folder) or `env:VAR`. Anything else is
    /// refused without repeating it: it may be the password itself.
    private func credentialsSource(_ node: JSONNode) throws(JobInputError) -> String {
        let text = try string(node, "publish.credentials")
        if text.hasPrefix("env:"), text.count > 4 { return text }
        if text.hasPrefix("@"), text.count > 1 {
            let file = String(text.dropFirst())
            let url = file.hasPrefix("/") ? URL(fileURLWithPath: file) : folder.appendingPathComponent(file)
            return "@" + url.standardizedFileURL.path
        }
        throw fail(
            node, "publish.credentials",
            "must be @FILE or env:VAR (a file or variable holding one user:password line); a literal value is "
                + "refused, since a password in a job manifest is readable by everyone who can read the job")
    }
}
