import NDEF
import Provisioning
import Reports
import TokenKeys

/// `provision keys list`: what a token holds and how safely, with each key's fingerprint computed in the token, so
/// an operator can check a key against a job's ledger without its value ever leaving the token.
extension KeysCommand {
    /// The `keys list --json` document (docs/json.md, version 2; docs/schemas/keys-list.schema.json).
    struct ListDocument: Encodable, Sendable {
        var version = JSONDocument.version
        var token: Token
        var keys: [Key]

        /// The token listed (`CK_TOKEN_INFO`).
        struct Token: Encodable, Sendable {
            var label: String
            var manufacturer: String
            var model: String
            var serial: String
        }

        /// One secret key; a flag the token does not report is left out.
        struct Key: Encodable, Sendable {
            /// `CKA_LABEL`.
            var label: String
            /// `CKA_ID` in hex (empty when the key has none).
            var id: String
            /// `AES` or `HMAC` (another `CKK_*` by name).
            var type: String
            /// `CKA_VALUE_LEN` in bytes.
            var length: Int?
            var sensitive: Bool?
            var extractable: Bool?
            var copyable: Bool?
            var modifiable: Bool?
            var `private`: Bool?
            /// `CKA_ALWAYS_SENSITIVE` and `CKA_NEVER_EXTRACTABLE`: true only for a key generated in the token.
            var alwaysSensitive: Bool?
            var neverExtractable: Bool?
            /// `CKA_CHECK_VALUE` in hex, when the token gives one.
            var checkValue: String?
            /// The `v1:` fingerprint computed in the token (`KeyFingerprint`); absent when the key may not MAC.
            var fingerprint: String?
            /// Why there is no fingerprint (the token's refusal), when there is none.
            var fingerprintUnavailable: String?
        }
    }

    /// Lists the secret keys of `target`'s token (those its URI's `object`/`id` select).
    ///
    /// - Throws: `CLIError` 66 when the URI names an object the token does not hold, and as `session` does.
    func list(_ target: TokenTarget, context: CommandContext) async throws(CLIError) {
        let session = try session(target, readWrite: false, context: context)
        let keys: [ListDocument.Key]
        do {
            keys = try session.blocking { session throws(TokenError) in
                try session.secretKeys(label: target.uri.object, id: target.uri.id).map {
                    key throws(TokenError) in try Self.row(key, in: session)
                }
            }
        } catch {
            throw Self.cliError(error)
        }
        let info = session.token
        if keys.isEmpty, target.uri.object != nil || target.uri.id != nil {
            let name = [target.uri.object.map { "label \"\($0)\"" }, target.uri.id.map { "id " + Hex.compact($0) }]
                .compactMap { $0 }.joined(separator: " and ")
            throw CLIError(.noInput, "no secret key with \(name) in token \"\(info.label)\"")
        }
        let sorted = keys.sorted { ($0.label, $0.id) < ($1.label, $1.id) }
        if json {
            let token = ListDocument.Token(
                label: info.label, manufacturer: info.manufacturer, model: info.model, serial: info.serial)
            try context.output.document(ListDocument(token: token, keys: sorted))
            return
        }
        let count = sorted.count == 1 ? "1 secret key" : "\(sorted.count) secret keys"
        context.output.line(
            "token \"\(info.label)\" (\(info.manufacturer), \(info.model), serial \(info.serial)): \(count)")
        for key in sorted { context.output.line(Self.text(key)) }
    }

    /// One key's row, read from the token: attributes, check value and fingerprint.
    private static func row(_ key: TokenKey, in session: isolated TokenSession) throws(TokenError) -> ListDocument.Key {
        let attributes = try session.attributes(of: key)
        var fingerprint: String?
        var unavailable: String?
        do {
            fingerprint = try session.fingerprint(of: key)
        } catch  where error.code == .keyUnsuitable || error.code == .mechanismNotOffered {
            unavailable = error.message
        }
        return ListDocument.Key(
            label: key.label, id: Hex.compact(key.id), type: typeName(key.keyType), length: key.valueLength,
            sensitive: attributes.sensitive, extractable: attributes.extractable, copyable: attributes.copyable,
            modifiable: attributes.modifiable, private: attributes.isPrivate,
            alwaysSensitive: attributes.alwaysSensitive, neverExtractable: attributes.neverExtractable,
            checkValue: attributes.checkValue.map(Hex.compact), fingerprint: fingerprint,
            fingerprintUnavailable: unavailable)
    }

    /// `"master": AES, 16 bytes, id 01; sensitive, not extractable, …; check value 8A1B2C; fingerprint v1:…`.
    static func text(_ key: ListDocument.Key) -> String {
        func flag(_ value: Bool?, _ name: String) -> String {
            switch value {
            case true?: name
            case false?: "not " + name
            case nil: name + " unknown"
            }
        }
        let size = key.length.map { "\($0) bytes" } ?? "length unknown"
        let id = key.id.isEmpty ? "no id" : "id \(key.id)"
        let flags = [
            flag(key.sensitive, "sensitive"), flag(key.extractable, "extractable"), flag(key.copyable, "copyable"),
            flag(key.modifiable, "modifiable"), flag(key.private, "private"),
        ]
        let check = key.checkValue.map { "check value \($0)" } ?? "no check value"
        let print = key.fingerprint.map { "fingerprint \($0)" } ?? "no fingerprint (the key may not MAC)"
        return "\"\(key.label)\": \(key.type), \(size), \(id); \(flags.joined(separator: ", ")); \(check); \(print)"
    }
}
