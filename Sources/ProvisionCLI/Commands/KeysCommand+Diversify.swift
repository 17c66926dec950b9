import Crypto
import NDEF
import NFCTags
import Provisioning
import Reports

/// `provision keys diversify`: the AN10922 key of one diversification input, for interoperability checks; the master
/// may be a file, an environment variable or a token key (the derivation then runs in the token).
extension KeysCommand {
    /// The `keys diversify --json` document (docs/json.md, version 2; docs/schemas/keys.schema.json).
    struct Document: Encodable, Sendable {
        var version = JSONDocument.version
        var key: String
        var input: String
        var masterFingerprint: String
    }

    /// `diversify --master SOURCE --input HEX [--allow-extractable-key]`.
    static func parseDiversify(_ args: Arguments) throws(CLIError) -> Action {
        guard let master = args.value("master") else { throw .usage("missing --master SOURCE", option: "master") }
        guard let text = args.value("input") else { throw .usage("missing --input HEX", option: "input") }
        guard let input = Hex.bytes(text), (1...31).contains(input.count) else {
            throw .usage("--input must be 1 to 31 bytes of hex, got '\(text)'", option: "input")
        }
        return .diversify(
            master: try KeyArgument.source(master, option: "master"), input: input,
            allowExtractable: args.flag("allow-extractable-key"))
    }

    /// Prints the key AN10922 derives from `master` for `input` (the one secret this command shows).
    func diversify(
        master: KeySource, input: [UInt8], allowExtractable: Bool, context: CommandContext
    ) throws(CLIError) {
        let key: SecretKey
        do {
            key = try KeyLoader.load(
                id: "master", from: master, environment: context.environment, kind: .aes,
                custody: context.keyCustody(allowExtractable: allowExtractable))
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
    }
}
