import Foundation
import MQTTService
import Provisioning
import Publishing

/// The `--publish…` options (`run --publish`), and how they and a manifest's `"publish"` object become one
/// publishing configuration: a flag overrides the manifest's field of the same meaning, field by field.
///
/// Everything a broker connection needs is checked here, before the run writes anything: the URL, the credentials
/// (read now, never from argv), the TLS files. Errors name the flag or the manifest's `publish.FIELD` and its line.
struct PublishOptions: Sendable, Hashable {
    /// `--publish mqtt[s]://HOST[:PORT]/PREFIX`.
    var url: String?
    /// `--publish-credentials @FILE|env:VAR`.
    var credentials: String?
    /// `--publish-ca FILE`.
    var ca: String?
    /// `--publish-cert FILE`.
    var cert: String?
    /// `--publish-key FILE`.
    var key: String?
    /// `--publish-required N`.
    var required: Int?
    /// `--publish-drain S` (0 or more seconds).
    var drain: Double?

    /// The options' names, for `Arguments`.
    static let options = [
        "publish", "publish-credentials", "publish-ca", "publish-cert", "publish-key", "publish-required",
        "publish-drain",
    ]

    /// How long the end of a run waits for the outbox to drain unless told (`--publish-drain`).
    static let defaultDrainSeconds = 10.0

    /// The usage lines of the options.
    static let help = """
          --publish mqtt://HOST[:PORT]/PREFIX
                           publish the job's outbox (docs/events.md) to an MQTT broker at QoS 1 while the line
                           runs; mqtts:// for TLS (default ports 1883 and 8883). Overrides the manifest's
                           "publish".to. A broker that refuses the credentials stops the run before any tag
                           (exit 77); a broker that is down only warns: the line runs, the outbox grows
          --publish-credentials @FILE|env:VAR
                           a user:password line from an owner-only file or an environment variable; never a
                           password on the command line
          --publish-ca FILE  mqtts://: the CA the broker's certificate chains to (default: the system's CAs)
          --publish-cert FILE, --publish-key FILE
                           mqtts://: a client certificate and its owner-only key, given together
          --publish-required N
                           pause the line before the next tag while N or more events are unpublished (the
                           broker is away); it resumes once the backlog is below N (default: never pause)
          --publish-drain SECONDS
                           at the end of the run, wait up to this long for the outbox to drain (default 10;
                           0: do not wait). Events left stay in the outbox for the next run or
                           'provision publish'; the exit code is unchanged

        """

    init(
        url: String? = nil, credentials: String? = nil, ca: String? = nil, cert: String? = nil, key: String? = nil,
        required: Int? = nil, drain: Double? = nil
    ) {
        self.url = url
        self.credentials = credentials
        self.ca = ca
        self.cert = cert
        self.key = key
        self.required = required
        self.drain = drain
    }

    /// Reads the options; numbers are checked here (exit 64), the rest by `configuration`.
    init(_ args: Arguments) throws(CLIError) {
        url = args.value("publish")
        credentials = args.value("publish-credentials")
        ca = args.value("publish-ca")
        cert = args.value("publish-cert")
        key = args.value("publish-key")
        required = try args.integer("publish-required", in: 1...1_000_000)
        if let text = args.value("publish-drain") {
            guard let seconds = Double(text), seconds.isFinite, (0...3600).contains(seconds) else {
                throw .usage(
                    "option '--publish-drain' needs seconds from 0 to 3600, got '\(text)'", option: "publish-drain")
            }
            drain = seconds
        }
    }

    /// Whether any `--publish…` option was given.
    var isEmpty: Bool { self == PublishOptions() }
}

extension PublishOptions {
    /// Where a setting came from, for its error: a flag, or a field of the manifest's `"publish"`.
    private enum Origin {
        case flag(String)
        case field(String, Manifest)

        func error(_ exit: ExitCode, _ message: String) -> CLIError {
            switch self {
            case .flag(let name): return CLIError(exit, "--\(name): \(message)", field: "--\(name)")
            case .field(let name, let manifest):
                let located = manifest.publishError(name, message)
                return CLIError(
                    exit, located.description, file: located.file, line: located.position?.line,
                    field: "publish.\(name)")
            }
        }
    }

    /// The publishing configuration of a run: `flags` over the manifest's `"publish"` field by field; `nil` when
    /// neither names a broker. A pure function of its arguments and the files they name (read, never written).
    ///
    /// Relative paths in flags resolve against `currentDirectory` (the manifest's are resolved already).
    /// - Throws: `CLIError` naming the flag or `publish.FIELD` (with the manifest's line): 64 a bad flag, 65 a bad
    ///   manifest field or malformed credentials, 66 a credentials, CA or certificate file that cannot be read,
    ///   77 a credentials or key file others can read or replace.
    static func configuration(
        _ flags: PublishOptions, manifest: Manifest?, currentDirectory: URL,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CLIError) -> PublishConfiguration? {
        let settings = manifest?.publish
        func origin(_ flag: String, _ field: String, given: Bool) -> Origin {
            guard !given, let manifest else { return .flag(flag) }
            return .field(field, manifest)
        }
        guard let text = flags.url ?? settings?.to else {
            guard flags.isEmpty else {
                throw .usage(
                    "the --publish-… options need --publish URL or the manifest's \"publish\"", option: "publish")
            }
            return nil
        }
        let urlOrigin = origin("publish", "to", given: flags.url != nil)
        let endpoint: MQTTEndpoint
        do {
            endpoint = try MQTTEndpoint(parsing: text)
        } catch {
            throw urlOrigin.error(flags.url != nil ? .usage : .dataError, error.message)
        }
        var configuration = PublishConfiguration(endpoint: endpoint)
        if let source = flags.credentials ?? settings?.credentials {
            let from = origin("publish-credentials", "credentials", given: flags.credentials != nil)
            configuration.credentials = try credentials(
                source, origin: from, currentDirectory: currentDirectory, environment: environment)
        }
        configuration.tls = try tls(
            flags, settings, endpoint: endpoint, currentDirectory: currentDirectory, origin: origin)
        configuration.required = flags.required ?? settings?.required
        let drain = flags.drain ?? settings?.drain ?? defaultDrainSeconds
        configuration.drain = .milliseconds(Int((drain * 1000).rounded()))
        return configuration
    }

    /// The credentials of `source` (`@FILE`, a relative file against `currentDirectory`, or `env:VAR`).
    private static func credentials(
        _ source: String, origin: Origin, currentDirectory: URL, environment: [String: String]
    ) throws(CLIError) -> MQTTCredentials {
        var resolved = source
        if source.hasPrefix("@"), source.count > 1 {
            resolved = "@" + URL(fileURLWithPath: String(source.dropFirst()), relativeTo: currentDirectory).path
        }
        do {
            return try MQTTCredentials(source: resolved, environment: environment)
        } catch {
            let exit: ExitCode =
                switch error.code {
                case .credentialsMissing: .noInput
                case .credentialsUnsafe: .noPermission
                case .credentialsMalformed: .dataError
                default: if case .flag = origin { .usage } else { .dataError }
                }
            throw origin.error(exit, error.message)
        }
    }

    /// The TLS files of an `mqtts://` endpoint (flags over the manifest's `ca`, `cert`, `key`); `nil` for `mqtt://`,
    /// where any of them is refused (the manifest's are left out when a flag gave the `mqtt://` URL).
    private static func tls(
        _ flags: PublishOptions, _ settings: Manifest.PublishSettings?, endpoint: MQTTEndpoint, currentDirectory: URL,
        origin: (String, String, Bool) -> Origin
    ) throws(CLIError) -> MQTTTLSOptions? {
        struct File {
            let origin: Origin
            let fromFlag: Bool
            let path: String
        }
        // A `--publish mqtt://…` that overrides the manifest's broker leaves the manifest's TLS files out (a plain
        // test broker for a job whose plant broker speaks TLS); TLS flags on it are still refused.
        let manifestFiles = flags.url == nil || endpoint.usesTLS
        func file(_ flag: String?, _ field: URL?, _ name: String) -> File? {
            let path =
                flag.map { URL(fileURLWithPath: $0, relativeTo: currentDirectory).standardizedFileURL.path }
                ?? (manifestFiles ? field?.path : nil)
            return path.map {
                File(origin: origin("publish-\(name)", name, flag != nil), fromFlag: flag != nil, path: $0)
            }
        }
        let (ca, cert, key) = (
            file(flags.ca, settings?.ca, "ca"), file(flags.cert, settings?.cert, "cert"),
            file(flags.key, settings?.key, "key")
        )
        let given = [ca, cert, key].compactMap { $0 }
        guard endpoint.usesTLS else {
            guard let first = given.first else { return nil }
            throw first.origin.error(
                first.fromFlag ? .usage : .dataError, "TLS files are for an mqtts:// broker, and \(endpoint) is not")
        }
        if let lone = cert ?? key, (cert == nil) != (key == nil) {
            throw lone.origin.error(
                lone.fromFlag ? .usage : .dataError,
                "a TLS client certificate and its key are given together (--publish-cert and --publish-key, or the "
                    + "manifest's publish.cert and publish.key)")
        }
        do {
            return try MQTTTLSOptions(caFile: ca?.path, certificateFile: cert?.path, keyFile: key?.path)
        } catch {
            // The message names the file; the error names the flag or field that gave it.
            let culprit = given.first { error.message.contains($0.path) } ?? given.first
            let exit: ExitCode = error.code == .credentialsUnsafe ? .noPermission : .noInput
            throw (culprit?.origin ?? .flag("publish")).error(exit, error.message)
        }
    }
}

extension PublishOptions {
    /// The error of a broker that refused the publishing credentials at start: a configuration error (exit 77)
    /// naming the broker and where the credentials come from, never the password.
    static func credentialsRefused(by broker: String, _ error: MQTTError) -> CLIError {
        CLIError(
            .noPermission,
            "the broker \(broker) refused the publishing credentials (\(error.message)); check "
                + "--publish-credentials or the manifest's publish.credentials",
            errorClass: "brokerNotAuthorized", field: "--publish-credentials")
    }
}
