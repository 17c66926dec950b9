import Crypto
import NDEF
import NFCTags
import Provisioning
import Reports

/// `provision keys diversify`: the AN10922 key of one diversification input, for interoperability checks.
struct KeysCommand: Command {
    static let name = "keys"
    static let summary = "key tools: AN10922 diversification of a master key (keys diversify)"
    static var help: String {
        """
        Usage: provision keys diversify --master @FILE|env:VAR --input HEX [--json]

        Prints the AES-128 key NXP AN10922 derives from the master key for the diversification input
        M (1–31 bytes of hex; \(inputs), see
        docs/authentication.md): CMAC over 01 ‖ M padded to 32 bytes, as AN10922 fixes it, which differs
        from a plain CMAC when M is short. For checks against another system and for support.

        The master key comes from an owner-only file or an environment variable, never from the command
        line; the printed key is the one secret this command shows, so keep its output away from logs.

        Options:
          --master SOURCE  the 16-byte master key: @FILE (mode 0600) or env:VARIABLE
          --input HEX      the diversification input M, 1–31 bytes
          --json           print {"version": 2, "key", "input", "master_fingerprint"}

        Exit codes: 0 printed, 64 usage, 65 a master key that is not 16 bytes or a bad input, 66 missing
        key, 77 a key file readable by group or others.

        Example: provision keys diversify --master env:MASTER --input 04782E21801D803042F54E585020416275

        """
    }

    /// What M is for each keyed scheme's chips (`KeyedScheme.diversificationInput`).
    static var inputs: String {
        TagFamilies.standard.keyedSchemes.map(\.diversificationInput).joined(separator: "; ")
    }

    /// `--master`.
    var master: KeySource
    /// `--input`: M.
    var input: [UInt8]
    /// `--json`.
    var json = false

    /// The `--json` result document (docs/json.md, version 2).
    struct Document: Encodable, Sendable {
        var version = JSONDocument.version
        var key: String
        var input: String
        var masterFingerprint: String
    }

    static func parse(_ arguments: [String]) throws(CLIError) -> KeysCommand {
        let args = try Arguments(arguments, flags: ["json"], options: ["master", "input"])
        try args.requirePositionals(1...1, usage: "provision keys diversify --master SOURCE --input HEX")
        guard args.positionals[0] == "diversify" else {
            throw .usage("unknown keys subcommand (argument 1, not echoed); the one there is: diversify")
        }
        guard let master = args.value("master") else { throw .usage("missing --master SOURCE", option: "master") }
        guard let text = args.value("input") else { throw .usage("missing --input HEX", option: "input") }
        guard let input = Hex.bytes(text), (1...31).contains(input.count) else {
            throw .usage("--input must be 1 to 31 bytes of hex, got '\(text)'", option: "input")
        }
        return KeysCommand(
            master: try KeyArgument.source(master, option: "master"), input: input, json: args.flag("json"))
    }

    func run(context: CommandContext) async throws -> ExitCode {
        let key: SecretKey
        do {
            key = try KeyLoader.load(id: "master", from: master, environment: context.environment)
        } catch {
            throw JobContext.cliError(error)
        }
        // The shipped families' schemes all diversify with AN10922; the first one says how.
        guard let scheme = TagFamilies.standard.keyedSchemes.first else {
            throw CLIError.data("no tag family offers keyed personalisation")
        }
        let derived: SecretKey
        do {
            derived = try scheme.diversify(master: key, input: input)
        } catch is AES128Error {
            throw CLIError.data("the master key must be an AES-128 key of 16 bytes")
        } catch {
            throw ErrorTable.cliError(error, message: "cannot diversify with \(key): \(error)")
        }
        guard let shown = derived.hexForDisplay else { throw CLIError(.software, "the derived key is not on the host") }
        if json {
            try context.output.document(
                Document(key: shown, input: Hex.compact(input), masterFingerprint: key.fingerprint))
        } else {
            context.output.line(shown)
        }
        return .success
    }
}
