import Foundation
import NDEF
import NFCTags
import Provisioning
import TokenKeys

/// `provision keys`: master keys in a PKCS #11 token (list, generate, import) and AN10922 diversification, so a
/// line's masters can live where no copied disk or dumped process gives them away (docs/keys.md).
struct KeysCommand: Command {
    static let name = "keys"
    static let summary =
        "key tools: list, generate and import master keys in a PKCS #11 token (keys list|generate|import), "
        + "AN10922 diversification (keys diversify)"
    static var help: String { KeysHelp.text }

    /// A token named on the command line and where its PIN comes from.
    struct TokenTarget: Sendable, Hashable {
        /// `--token URI`.
        var uri: PKCS11URI
        /// `--pin-file FILE` / `--pin-env VAR` (`nil`: the URI's `pin-source`).
        var pin: PinSource?
    }

    /// What `keys` is asked to do.
    enum Action: Sendable, Hashable {
        /// `list --token URI`: the token's secret keys (the URI's `object`/`id` filter them).
        case list(TokenTarget)
        /// `generate --token URI --label L [--id HEX] [--hmac]`: a new key made inside the token.
        case generate(TokenTarget, label: String, id: [UInt8]?, hmac: Bool)
        /// `import --token URI --from @FILE|env:VAR --label L [--id HEX] [--hmac]`: a host key moved into the token.
        case importKey(TokenTarget, from: KeySource, label: String, id: [UInt8]?, hmac: Bool)
        /// `diversify --master SOURCE --input HEX [--allow-extractable-key]`: the AN10922 key of one input.
        case diversify(master: KeySource, input: [UInt8], allowExtractable: Bool)
    }

    /// The subcommand and its arguments.
    var action: Action
    /// `--json` (list and diversify).
    var json = false

    /// The options each subcommand takes; any other is refused naming the subcommand it belongs to.
    static let options: [String: Set<String>] = [
        "list": ["token", "pin-file", "pin-env", "json"],
        "generate": ["token", "pin-file", "pin-env", "label", "id", "hmac"],
        "import": ["token", "pin-file", "pin-env", "label", "id", "hmac", "from"],
        "diversify": ["master", "input", "allow-extractable-key", "json"],
    ]

    static func parse(_ arguments: [String]) throws(CLIError) -> KeysCommand {
        let args = try Arguments(
            arguments, flags: ["json", "hmac", "allow-extractable-key"],
            options: ["master", "input", "token", "label", "id", "from", "pin-file", "pin-env", "pin"])
        if args.value("pin") != nil {
            throw .usage(
                "--pin is not accepted: a PIN on the command line is visible to every user of this machine (ps, "
                    + "/proc); use --pin-file FILE (mode 0600), --pin-env VAR or the URI's pin-source=file:…",
                option: "pin")
        }
        let subcommands = "list, generate, import, diversify"
        guard let verb = args.positionals.first else {
            throw .usage("missing subcommand; usage: provision keys list|generate|import|diversify …")
        }
        guard let allowed = options[verb] else {
            throw .usage("unknown keys subcommand (argument 1, not echoed); the ones there are: \(subcommands)")
        }
        try args.requirePositionals(1...1, usage: "provision keys \(verb) … (see provision keys --help)")
        let given = args.flags.union(args.values.keys)
        if let stray = given.subtracting(allowed).sorted().first {
            let owners = options.filter { $0.value.contains(stray) }.keys.sorted().map { "keys \($0)" }
            throw .usage(
                "--\(stray) belongs to \(owners.joined(separator: " and ")), not keys \(verb)", option: stray)
        }
        let json = args.flag("json")
        switch verb {
        case "list":
            return KeysCommand(action: .list(try target(args)), json: json)
        case "generate":
            let (label, id) = try newKey(args)
            return KeysCommand(action: .generate(try target(args), label: label, id: id, hmac: args.flag("hmac")))
        case "import":
            let (label, id) = try newKey(args)
            guard let from = args.value("from") else { throw .usage("missing --from @FILE|env:VAR", option: "from") }
            guard !from.hasPrefix("pkcs11:") else {
                throw .usage("--from takes @FILE or env:VARIABLE: a key in a token stays there", option: "from")
            }
            let source = try KeyArgument.source(from, option: "from")
            return KeysCommand(
                action: .importKey(try target(args), from: source, label: label, id: id, hmac: args.flag("hmac")))
        default:
            return KeysCommand(action: try parseDiversify(args), json: json)
        }
    }

    /// `--token URI` with `--pin-file` / `--pin-env`: a URI that selects a token and a PIN from one source.
    private static func target(_ args: Arguments) throws(CLIError) -> TokenTarget {
        guard let text = args.value("token") else {
            throw .usage("missing --token URI (pkcs11:token=…?module-path=…&pin-source=file:…)", option: "token")
        }
        let uri: PKCS11URI
        do { uri = try PKCS11URI(text) } catch { throw .usage("--token: \(error.message)", option: "token") }
        var pin: PinSource?
        if let file = args.value("pin-file") { pin = .file(URL(fileURLWithPath: file)) }
        if let name = args.value("pin-env") {
            guard pin == nil else { throw .usage("give one of --pin-file and --pin-env", option: "pin-env") }
            pin = .environment(name)
        }
        if pin != nil, uri.pinSource != nil {
            throw .usage(
                "the --token URI has pin-source and a --pin-… option is given: give one of them", option: "token")
        }
        guard pin != nil || uri.pinSource != nil else {
            throw .usage(
                "no PIN for the token: add pin-source=file:… to the URI, or give --pin-file FILE or --pin-env VAR",
                option: "token")
        }
        return TokenTarget(uri: uri, pin: pin)
    }

    /// `--label L` and `--id HEX` of a key to create; the `--token` URI names no object then.
    private static func newKey(_ args: Arguments) throws(CLIError) -> (String, [UInt8]?) {
        guard let label = args.value("label"), !label.isEmpty else {
            throw .usage("missing --label LABEL (the new key's CKA_LABEL)", option: "label")
        }
        guard let text = args.value("id") else { return (label, nil) }
        guard let id = Hex.bytes(text), !id.isEmpty else {
            throw .usage("--id must be hex bytes (the key's CKA_ID), got '\(text)'", option: "id")
        }
        return (label, id)
    }

    func run(context: CommandContext) async throws -> ExitCode {
        switch action {
        case .list(let target): try await list(target, context: context)
        case .generate(let target, let label, let id, let hmac):
            try await generate(target, label: label, id: id, hmac: hmac, context: context)
        case .importKey(let target, let from, let label, let id, let hmac):
            try await importKey(target, from: from, label: label, id: id, hmac: hmac, context: context)
        case .diversify(let master, let input, let allowExtractable):
            try diversify(master: master, input: input, allowExtractable: allowExtractable, context: context)
        }
        return .success
    }

    /// The logged-in session on `target`'s token (one per token per process, `TokenAccess`).
    ///
    /// - Throws: `CLIError` with the key layer's exit code: 66 no token, 69 no module, 77 PIN refused or a PIN
    ///   file others can read, 64 a URI that selects several tokens.
    func session(_ target: TokenTarget, readWrite: Bool, context: CommandContext) throws(CLIError) -> TokenSession {
        do {
            return try TokenAccess.session(
                uri: target.uri, pin: target.pin, environment: context.environment, id: "token", readWrite: readWrite)
        } catch {
            throw ErrorTable.cliError(error, message: error.message)  // the token's error, not a key id's
        }
    }

    /// A token failure as the CLI reports it, with the exit code its code gives (`TokenError.Code.exitStatus`).
    static func cliError(_ error: TokenError) -> CLIError {
        CLIError(ExitCode(rawValue: error.exitStatus) ?? .software, error.message)
    }

    /// "AES-128" / "HMAC" and the like, as lists and messages name a key's type.
    static func typeName(_ type: TokenKey.KeyType) -> String {
        if type == .aes { return "AES" }
        return type.isHMAC ? "HMAC" : type.description
    }
}
