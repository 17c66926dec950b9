import Crypto
import NFCTags
import Provisioning
import TokenKeys

/// `provision keys generate` and `keys import`: a master key made inside a token, or moved there from a file or the
/// environment, as a private, sensitive, non-extractable, non-copyable, non-modifiable object with only the uses it
/// needs; an existing label is never overwritten.
extension KeysCommand {
    /// Generates an AES-128 master (or, with `hmac`, a 32-byte HMAC-SHA256 key) inside the token and prints its
    /// label and fingerprint; the host never sees its value.
    ///
    /// - Throws: `CLIError` 73 for an existing label, 69 when the token cannot generate such a key, and as `session`.
    func generate(
        _ target: TokenTarget, label: String, id: [UInt8]?, hmac: Bool, context: CommandContext
    ) async throws(CLIError) {
        let session = try session(target, readWrite: true, context: context)
        let fingerprint: String
        do {
            fingerprint = try session.blocking { session throws(TokenError) in
                let key =
                    hmac
                    ? try session.generateHMAC(label: label, id: id) : try session.generateAES(label: label, id: id)
                return try session.fingerprint(of: key)
            }
        } catch {
            throw Self.cliError(error)
        }
        let what = hmac ? "HMAC-SHA256 key (32 bytes)" : "AES-128 key"
        context.output.line(
            "generated \(what) \"\(label)\" in token \"\(session.token.label)\" (private, sensitive, not extractable, "
                + "not copyable, not modifiable): fingerprint \(fingerprint)")
    }

    /// Moves the key at `source` into the token under `label` and prints its fingerprint, computed in the token and
    /// checked against the same key's fingerprint on the host; the key's bytes are never printed.
    ///
    /// - Throws: `CLIError` 73 for an existing label (nothing written), 65 for an AES key that is not 16 bytes or a
    ///   token fingerprint that differs, and the key loader's codes (66 missing, 77 a key file others can read).
    func importKey(
        _ target: TokenTarget, from source: KeySource, label: String, id: [UInt8]?, hmac: Bool,
        context: CommandContext
    ) async throws(CLIError) {
        let key: SecretKey
        do {
            key = try KeyLoader.load(
                id: label, from: source, environment: context.environment, kind: hmac ? .hmac : .aes)
        } catch {
            throw JobContext.cliError(error)
        }
        guard hmac || key.bytes.count == 16 else {
            throw CLIError.data(
                "key '\(label)': an AES master must be 16 bytes (AES-128), this one is \(key.bytes.count); an HMAC "
                    + "brand key takes --hmac")
        }
        let expected = key.fingerprint
        let session = try session(target, readWrite: true, context: context)
        let fingerprint: String
        do {
            fingerprint = try session.blocking { session throws(TokenError) in
                let made =
                    hmac
                    ? try session.importHMAC(label: label, bytes: key.bytes, id: id)
                    : try session.importAES(label: label, bytes: key.bytes, id: id)
                return try session.fingerprint(of: made)
            }
        } catch {
            throw Self.cliError(error)
        }
        guard fingerprint == expected else {
            throw CLIError.data(
                "key '\(label)' was imported into token \"\(session.token.label)\", but the token's fingerprint "
                    + "\(fingerprint) differs from the key's \(expected): do not use it; check the token")
        }
        let what = hmac ? "HMAC-SHA256 key" : "AES-128 key"
        context.output.line(
            "imported \(what) \"\(label)\" into token \"\(session.token.label)\" (private, sensitive, not "
                + "extractable, not copyable, not modifiable): fingerprint \(fingerprint)")
    }
}
