import NDEF
import NFCTags
import Provisioning

/// `verify-url`'s SUN mode with explicit keys (the SUN scheme's own keys and URL layout): no job, no ledger.
extension VerifyURLCommand {
    /// The keys and URL layout of the explicit-key mode.
    struct SUNKeys: Sendable, Hashable {
        /// `--meta-key`: SDMMetaReadKey.
        var metaKey: KeySource
        /// `--file-key`: SDMFileReadKey.
        var fileKey: KeySource
        /// `--picc`, `--mac`, `--mac-input`.
        var layout: SUNURLLayout

        /// The mode's options, `nil` when none is given (the job mode).
        ///
        /// - Throws: `CLIError` 64 when the mode is half given or mixed with the job mode's options.
        static func parse(_ args: Arguments) throws(CLIError) -> SUNKeys? {
            let own = ["meta-key", "file-key", "picc", "mac", "mac-input"]
            guard own.contains(where: { args.value($0) != nil }) else { return nil }
            for other in ["manifest", "key", "counter-window"] where args.value(other) != nil {
                throw .usage("--\(other) is for a job; the SUN explicit-key mode (--meta-key) has none", option: other)
            }
            if args.flag("operator") { throw .usage("--operator is for a job's ledger", option: "operator") }
            guard let meta = args.value("meta-key"), let file = args.value("file-key") else {
                throw .usage("SUN verification needs both --meta-key and --file-key", option: "meta-key")
            }
            var layout = SUNURLLayout()
            if let name = args.value("picc") { layout.picc = name }
            if let name = args.value("mac") { layout.mac = name }
            if let mode = args.value("mac-input") {
                guard let input = SUNMACInput(rawValue: mode) else {
                    throw .usage("--mac-input is picc or empty, not '\(mode)'", option: "mac-input")
                }
                layout.macInput = input
            }
            guard !layout.picc.isEmpty, !layout.mac.isEmpty, layout.picc != layout.mac else {
                throw .usage("--picc and --mac must be two different non-empty names", option: "picc")
            }
            return SUNKeys(
                metaKey: try KeyArgument.source(meta, option: "meta-key"),
                fileKey: try KeyArgument.source(file, option: "file-key"), layout: layout)
        }
    }

    /// Loads both keys (16 bytes each) and checks the URL's SUN.
    func runSUN(context: CommandContext) throws -> ExitCode {
        guard let sun else { return .failure }
        guard url.utf8.count <= TapURL.maximumLength else {
            throw CLIError.data("the URL has \(url.utf8.count) bytes; verify-url takes at most \(TapURL.maximumLength)")
        }
        let custody = context.keyCustody(allowExtractable: allowExtractableKey)
        let meta = try Self.key("meta-key", sun.metaKey, context: context, custody: custody)
        let file = try Self.key("file-key", sun.fileKey, context: context, custody: custody)
        if meta.custodian != nil || file.custodian != nil {
            throw CLIError.data(
                "--meta-key and --file-key are per-job and per-tag keys, which this mode uses on the host; keep the "
                    + "master in the token and verify with --manifest (the keys derive from it inside the token)")
        }
        guard let result = SUNVerifier.verify(url: url, layout: sun.layout, metaReadKey: meta, fileReadKey: file)
        else { throw CLIError.data("--meta-key and --file-key must be AES-128 keys of 16 bytes") }
        return try verdict(
            result.isValid ? "valid" : "invalid", result.detail, uid: result.uid.map(Hex.compact),
            counter: result.counter, context: context)
    }

    /// A key from `source` (its bytes stay inside `SecretKey`).
    private static func key(_ option: String, _ source: KeySource, context: CommandContext, custody: KeyCustody)
        throws(CLIError) -> SecretKey
    {
        do {
            return try KeyLoader.load(id: option, from: source, environment: context.environment, custody: custody)
        } catch {
            throw JobContext.cliError(error)
        }
    }
}
