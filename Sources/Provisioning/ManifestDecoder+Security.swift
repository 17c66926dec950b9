import Crypto
import Foundation
import JSONReader
import NDEF
import NFCTags
import TokenKeys

/// Decoding of the `keys`, `signature` and `protect` sections.
extension ManifestDecoder {
    /// The characters a key id may use (it appears in `{{mac:KEYID}}`).
    static let keyIDCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")

    func decodeSecurity(_ root: JSONNode) throws(JobInputError) -> ManifestSecurity {
        var security = ManifestSecurity()
        if let node = root["keys"] { security.keys = try decodeKeys(node) }
        if let node = root["signature"] {
            (security.signature, security.trustedKeys) = try decodeSignature(node)
        }
        if let node = root["protect"] { security.protection = try decodeProtection(node, keys: security.keys) }
        return security
    }

    private func decodeKeys(_ node: JSONNode) throws(JobInputError) -> [String: KeySource] {
        guard let members = node.members else {
            throw fail(node, "keys", "must be an object of key ids, found \(node.kindName)")
        }
        return try keySources(members)
    }

    private func keySources(_ members: [JSONNode.Member]) throws(JobInputError) -> [String: KeySource] {
        var keys: [String: KeySource] = [:]
        for member in members {
            let place = "keys.\(member.key)"
            guard (1...32).contains(member.key.count), member.key.allSatisfy({ Self.keyIDCharacters.contains($0) })
            else {
                throw fail(member.value, place, "'\(member.key)' is not a key id (1 to 32 of A-Z a-z 0-9 _ -)")
            }
            let fields = try checkKeys(member.value, place, allowed: ["env", "file", "pkcs11", "encoding", "pin"])
            var encoding: KeyEncoding?
            if let node = member.value["encoding"] {
                encoding = try choice(node, "\(place).encoding", KeyEncoding.self)
            }
            let locations = fields.filter { $0.key != "encoding" && $0.key != "pin" }
            guard locations.count == 1, let field = locations.first else {
                throw fail(
                    member.value, place,
                    "needs exactly one of \"env\" (variable name), \"file\" (path) or \"pkcs11\" (a PKCS #11 URI)")
            }
            if field.key != "pkcs11", let pin = member.value["pin"] {
                throw fail(pin, "\(place).pin", "is for a key in a token (\"pkcs11\"); a \(field.key) key has no PIN")
            }
            switch field.key {
            case "env":
                let name = try string(field.value, "\(place).env")
                guard !name.isEmpty else { throw fail(field.value, "\(place).env", "must not be empty") }
                guard encoding != .raw else {
                    throw fail(
                        member.value, "\(place).encoding", "raw is for key files; an environment variable holds text")
                }
                keys[member.key] = .environment(name, encoding: encoding)
            case "pkcs11":
                keys[member.key] = try tokenKey(member.value, field.value, place, encoding: encoding)
            default:
                keys[member.key] = .file(try path(field.value, "\(place).file"), encoding: encoding)
            }
        }
        return keys
    }

    /// A `"pkcs11"` key entry: the URI checked now (so a typo names its line), its PIN source from `"pin"`.
    private func tokenKey(_ entry: JSONNode, _ node: JSONNode, _ place: String, encoding: KeyEncoding?)
        throws(JobInputError) -> KeySource
    {
        let text = try string(node, "\(place).pkcs11")
        do { _ = try PKCS11URI(text) } catch { throw fail(node, "\(place).pkcs11", error.message) }
        if encoding != nil {
            throw fail(entry, "\(place).encoding", "a key in a token has no encoding: the token holds its bytes")
        }
        guard let pinNode = entry["pin"] else { return .token(text) }
        let fields = try checkKeys(pinNode, "\(place).pin", allowed: ["file", "env"])
        guard fields.count == 1, let field = fields.first else {
            throw fail(pinNode, "\(place).pin", "needs exactly one of \"file\" (path) or \"env\" (variable name)")
        }
        if field.key == "env" {
            let name = try string(field.value, "\(place).pin.env")
            guard !name.isEmpty else { throw fail(field.value, "\(place).pin.env", "must not be empty") }
            return .token(text, pin: .environment(name))
        }
        return .token(text, pin: .file(try path(field.value, "\(place).pin.file")))
    }

    private func decodeSignature(
        _ node: JSONNode
    ) throws(JobInputError) -> (ManifestSecurity.SignaturePolicy, [[UInt8]]) {
        if node.string != nil { return (try choice(node, "signature", ManifestSecurity.SignaturePolicy.self), []) }
        _ = try checkKeys(node, "signature", allowed: ["mode", "trust"])
        let mode = try choice(
            try required(node, "mode", in: "signature"), "signature.mode",
            ManifestSecurity.SignaturePolicy.self)
        var trusted: [[UInt8]] = []
        if let trust = node["trust"] {
            guard let elements = trust.elements else {
                throw fail(trust, "signature.trust", "must be an array of public keys in hex, found \(trust.kindName)")
            }
            for (index, element) in elements.enumerated() {
                let text = try string(element, "signature.trust[\(index)]")
                guard let bytes = Hex.bytes(text), OriginalityCurve(publicKeyBytes: bytes.count) != nil,
                    bytes[0] == 0x04
                else {
                    throw fail(
                        element, "signature.trust[\(index)]",
                        "must be an uncompressed public key starting with 04: "
                            + TagTarget.signatureKeyForms)
                }
                trusted.append(bytes)
            }
        }
        return (mode, trusted)
    }

    private func decodeProtection(
        _ node: JSONNode, keys: [String: KeySource]
    ) throws(JobInputError) -> ManifestSecurity.Protection {
        _ = try checkKeys(node, "protect", allowed: ["key", "auth0", "prot", "authlim", "cfglck"])
        let keyNode = try required(node, "key", in: "protect")
        let key = try string(keyNode, "protect.key")
        guard keys[key] != nil else {
            let known = keys.keys.sorted().joined(separator: ", ")
            throw fail(keyNode, "protect.key", "'\(key)' is not in keys (known: \(known.isEmpty ? "none" : known))")
        }
        let auth0Node = try required(node, "auth0", in: "protect")
        let auth0: ManifestSecurity.ProtectionStart
        switch auth0Node.kind {
        case .string(let text, _) where text == "ndef": auth0 = .ndef
        case .string(let text, _) where text == "end": auth0 = .end
        case .number: auth0 = .page(try integer(auth0Node, "protect.auth0", in: 4...255))
        default:
            throw fail(auth0Node, "protect.auth0", "must be a page number (4…255), \"ndef\" or \"end\"")
        }
        let access =
            try node["prot"].map { n throws(JobInputError) in
                try choice(n, "protect.prot", ManifestSecurity.ProtectedAccess.self)
            } ?? .write
        let limit =
            try node["authlim"].map { n throws(JobInputError) in try integer(n, "protect.authlim", in: 0...7) } ?? 0
        var configLock = false
        if let n = node["cfglck"] {
            guard case .bool(let value) = n.kind else {
                throw fail(n, "protect.cfglck", "must be true or false, found \(n.kindName)")
            }
            configLock = value
        }
        return ManifestSecurity.Protection(
            key: key, auth0: auth0, access: access, authLimit: limit, configLock: configLock)
    }
}
