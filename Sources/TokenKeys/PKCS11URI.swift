/// A PKCS #11 URI (RFC 7512), parsed and checked, naming a token, a key in it and the module to load.
///
/// Grammar (RFC 7512 §2.3): `pkcs11:` path `[?` query`]`; path attributes are `;`-separated, query attributes
/// `&`-separated, values percent-encoded. Every attribute may appear once. An attribute this parser does not
/// know (a typo, a vendor `x-` attribute) is refused rather than ignored: an ignored attribute would widen the
/// match to keys the operator did not name (docs/reference/pkcs11.md §5). `pin-value` is refused too: a PIN
/// never travels in argv or a URI that may be logged; `pin-source` names a file instead.
public struct PKCS11URI: Sendable, Hashable {
    /// `token`: the token label (`CK_TOKEN_INFO.label`).
    public var token: String?
    /// `manufacturer`: `CK_TOKEN_INFO.manufacturerID`.
    public var manufacturer: String?
    /// `serial`: `CK_TOKEN_INFO.serialNumber`.
    public var serial: String?
    /// `model`: `CK_TOKEN_INFO.model`.
    public var model: String?
    /// `library-manufacturer`: `CK_INFO.manufacturerID`.
    public var libraryManufacturer: String?
    /// `library-description`: `CK_INFO.libraryDescription`.
    public var libraryDescription: String?
    /// `library-version`: `CK_INFO.libraryVersion` as `major[.minor]`.
    public var libraryVersion: String?
    /// `slot-description`: `CK_SLOT_INFO.slotDescription`.
    public var slotDescription: String?
    /// `slot-manufacturer`: `CK_SLOT_INFO.manufacturerID`.
    public var slotManufacturer: String?
    /// `slot-id`: the decimal `CK_SLOT_ID`.
    public var slotID: UInt?
    /// `object`: the object's `CKA_LABEL`.
    public var object: String?
    /// `id`: the object's `CKA_ID`, as bytes (percent-encoded in the URI).
    public var id: [UInt8]?
    /// `type`: the object class.
    public var type: ObjectType?
    /// `module-name`: a module's name without path or suffix, for a module registry to resolve.
    public var moduleName: String?
    /// `module-path`: the PKCS #11 module (shared library) to load.
    public var modulePath: String?
    /// `pin-source`: where the user PIN is read from (`file:/path` or a plain path), resolved by the caller.
    public var pinSource: String?

    /// The object classes RFC 7512 §2.3 names for `type` (`secretkey` is p11-kit's older spelling).
    public enum ObjectType: String, Sendable, Hashable, CaseIterable {
        case cert, data, `private`, `public`
        case secretKey = "secret-key"
    }

    /// Parses `text`; throws `TokenError` (`.badURI`, exit 64) naming the attribute at fault.
    public init(_ text: String) throws(TokenError) {
        guard text.hasPrefix("pkcs11:") else {
            throw TokenError(.badURI, "a PKCS #11 URI starts with \"pkcs11:\"")
        }
        let body = text.dropFirst("pkcs11:".count)
        let parts = body.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var seen: Set<String> = []
        for pair in parts[0].split(separator: ";", omittingEmptySubsequences: true) {
            let (name, value) = try Self.attribute(pair, seen: &seen)
            try setPath(name, value)
        }
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&", omittingEmptySubsequences: true) {
                let (name, value) = try Self.attribute(pair, seen: &seen)
                try setQuery(name, value)
            }
        }
        if moduleName != nil, modulePath != nil {
            throw TokenError(.badURI, "PKCS #11 URI gives both module-name and module-path: give one")
        }
    }

    private mutating func setPath(_ name: String, _ value: [UInt8]) throws(TokenError) {
        switch name {
        case "token": token = try Self.text(name, value)
        case "manufacturer": manufacturer = try Self.text(name, value)
        case "serial": serial = try Self.text(name, value)
        case "model": model = try Self.text(name, value)
        case "library-manufacturer": libraryManufacturer = try Self.text(name, value)
        case "library-description": libraryDescription = try Self.text(name, value)
        case "library-version":
            let version = try Self.text(name, value)
            let pieces = version.split(separator: ".", omittingEmptySubsequences: false)
            guard (1...2).contains(pieces.count), pieces.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
                pieces.allSatisfy({ UInt8($0) != nil })
            else { throw TokenError(.badURI, "PKCS #11 URI attribute library-version must be major[.minor]") }
            libraryVersion = version
        case "slot-description": slotDescription = try Self.text(name, value)
        case "slot-manufacturer": slotManufacturer = try Self.text(name, value)
        case "slot-id":
            guard let number = UInt(try Self.text(name, value)) else {
                throw TokenError(.badURI, "PKCS #11 URI attribute slot-id must be a decimal number")
            }
            slotID = number
        case "object": object = try Self.text(name, value)
        case "id": id = value
        case "type":
            let word = try Self.text(name, value)
            guard let kind = ObjectType(rawValue: word == "secretkey" ? "secret-key" : word) else {
                let known = ObjectType.allCases.map(\.rawValue).joined(separator: ", ")
                throw TokenError(.badURI, "PKCS #11 URI attribute type=\(word) is not one of \(known)")
            }
            type = kind
        default:
            throw TokenError(
                .badURI, "PKCS #11 URI path attribute \(name) is not supported (a typo would widen the match)")
        }
    }

    private mutating func setQuery(_ name: String, _ value: [UInt8]) throws(TokenError) {
        switch name {
        case "module-name": moduleName = try Self.text(name, value)
        case "module-path": modulePath = try Self.text(name, value)
        case "pin-source": pinSource = try Self.text(name, value)
        case "pin-value":
            throw TokenError(
                .badURI, "PKCS #11 URI attribute pin-value is refused: a PIN never goes in a URI; use pin-source=file:…"
            )
        default:
            throw TokenError(.badURI, "PKCS #11 URI query attribute \(name) is not supported")
        }
    }

    /// Splits `name=value`, checks the name is new and decodes the value's percent-encoding.
    private static func attribute(
        _ pair: Substring, seen: inout Set<String>
    ) throws(TokenError) -> (String, [UInt8]) {
        guard let equals = pair.firstIndex(of: "=") else {
            throw TokenError(.badURI, "PKCS #11 URI attribute \"\(pair.prefix(40))\" has no \"=\"")
        }
        let name = String(pair[..<equals])
        guard !name.isEmpty else { throw TokenError(.badURI, "PKCS #11 URI has an attribute without a name") }
        guard seen.insert(name).inserted else {
            throw TokenError(.badURI, "PKCS #11 URI attribute \(name) appears more than once")
        }
        guard let bytes = percentDecoded(pair[pair.index(after: equals)...]) else {
            throw TokenError(.badURI, "PKCS #11 URI attribute \(name) has a bad percent-encoding (%XX expected)")
        }
        return (name, bytes)
    }

    /// The bytes of `value` with every `%XX` decoded; `nil` when a `%` is not followed by two hex digits.
    static func percentDecoded(_ value: Substring) -> [UInt8]? {
        var out: [UInt8] = []
        var iterator = Array(value.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            out.append(high << 4 | low)
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A decoded value as UTF-8 text (RFC 7512 §2.3: textual attributes are UTF-8).
    private static func text(_ name: String, _ value: [UInt8]) throws(TokenError) -> String {
        guard let text = String(validating: value, as: UTF8.self) else {
            throw TokenError(.badURI, "PKCS #11 URI attribute \(name) is not UTF-8 text")
        }
        return text
    }

    /// The module path to load: the URI's `module-path`, else `environment["PROVISION_PKCS11_MODULE"]`.
    ///
    /// There is no default: p11-kit's proxy module would also load every registered module (docs/keys.md).
    /// - Throws: `.moduleUnavailable` (69) when neither gives one, or the URI gives only `module-name`.
    public func resolvedModulePath(environment: [String: String]) throws(TokenError) -> String {
        if let modulePath, !modulePath.isEmpty { return modulePath }
        if let moduleName {
            throw TokenError(
                .moduleUnavailable,
                "PKCS #11 URI names module-name=\(moduleName); give module-path=… (the module is loaded by path only)")
        }
        if let path = environment["PROVISION_PKCS11_MODULE"], !path.isEmpty { return path }
        throw TokenError(
            .moduleUnavailable,
            "no PKCS #11 module: add module-path=… to the URI or set PROVISION_PKCS11_MODULE (there is no default)")
    }
}
