import Foundation
import NFCTags
import TokenKeys

/// What a command accepts of a token key's custody, and where its warnings go.
public struct KeyCustody: Sendable {
    /// Accept a master that is not sensitive or is extractable (`--allow-extractable-key`).
    public var allowExtractable: Bool
    /// Hears the warnings for a master that may be copied or modified.
    public var warn: @Sendable (String) -> Void

    /// The policy: refuse unsafe masters unless `allowExtractable`; warnings to `warn`.
    public init(allowExtractable: Bool = false, warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.allowExtractable = allowExtractable
        self.warn = warn
    }
}

/// Loads a key named by a PKCS #11 URI: finds it in its token, checks its custody, and fingerprints it there.
enum TokenKeyLoader {
    /// The key `uri` names, held by its token (`TokenHeldKey`).
    ///
    /// - Throws: `KeyError` `.unsafe` (65) naming every failing attribute of a master that is not sensitive or is
    ///   extractable (unless `custody.allowExtractable`); the token's errors as `TokenAccess` maps them.
    static func load(
        id: String, uri text: String, pin: PinSource?, environment: [String: String], custody: KeyCustody
    ) throws(KeyError) -> SecretKey {
        let uri: PKCS11URI
        do { uri = try PKCS11URI(text) } catch { throw KeyError(id: id, token: error) }
        let entry = try TokenAccess.entry(uri: uri, pin: pin, environment: environment, id: id)
        let found: (TokenKey, TokenKeyAttributes, String)
        do {
            found = try entry.session.blocking { session throws(TokenError) in
                let key = try session.findKey(uri)
                return (key, try session.attributes(of: key), try session.fingerprint(of: key))
            }
        } catch {
            throw KeyError(id: id, token: error)
        }
        let (key, attributes, fingerprint) = found
        try check(attributes, id: id, custody: custody)
        return SecretKey(
            id: id,
            heldBy: TokenHeldKey(
                id: id, uri: uri, pin: pin, environment: environment, entry: entry, key: key,
                fingerprint: fingerprint))
    }

    /// Refuses a key the token could give away, and warns of one that could be copied or changed.
    static func check(_ key: TokenKeyAttributes, id: String, custody: KeyCustody) throws(KeyError) {
        let failing = [key.sensitive == true ? nil : "not sensitive", key.extractable == false ? nil : "extractable"]
            .compactMap { $0 }
        if !failing.isEmpty {
            let what = failing.joined(separator: ", ")
            guard custody.allowExtractable else {
                throw KeyError(
                    id: id, reason: .unsafe,
                    message: "token key \"\(key.label)\" is \(what): its value can leave the token. Generate or "
                        + "import the master with provision keys (sensitive, not extractable), or pass "
                        + "--allow-extractable-key for a trial")
            }
            custody.warn("key '\(id)': token key \"\(key.label)\" is \(what) (accepted: --allow-extractable-key)")
        }
        let loose = [key.copyable == true ? "copyable" : nil, key.modifiable == true ? "modifiable" : nil]
            .compactMap { $0 }
        if !loose.isEmpty {
            custody.warn(
                "key '\(id)': token key \"\(key.label)\" is \(loose.joined(separator: " and ")): a copy or a change "
                    + "of its attributes could relax its custody")
        }
    }
}
