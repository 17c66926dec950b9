import Foundation
import NDEF
import NFCTags
import Support

/// How a key's text is written: said by a `hex:`/`base64:` prefix or the key entry's `encoding`.
public enum KeyEncoding: String, Sendable, Hashable, CaseIterable {
    /// Hex digits (pairs), e.g. `hex:00112233…`.
    case hex
    /// Standard or URL-safe base64, e.g. `base64:ABEiM0RV…`.
    case base64
    /// The file's bytes as they are (key files only).
    case raw
}

/// Where a key comes from, as written in a manifest's `keys` section or a `--key KEYID=…` option.
public struct KeySource: Sendable, Hashable {
    /// The place holding the key.
    public enum Location: Sendable, Hashable {
        /// An environment variable holding the key's text.
        case environment(String)
        /// A file holding the key's text, or raw bytes; owner-only, in a folder others cannot write.
        case file(URL)
        /// A key inside a PKCS #11 token, named by an RFC 7512 URI (`pkcs11:token=…;object=…`): its bytes never
        /// enter this process.
        case token(String)
    }

    /// Where the key is.
    public var location: Location
    /// The encoding the entry names (`encoding`), if any; a prefix on the value may say it instead.
    public var encoding: KeyEncoding?
    /// Where a token key's PIN comes from when its URI has no `pin-source` (the key entry's `"pin"`).
    public var pin: PinSource?

    /// A key in environment variable `name`.
    public static func environment(_ name: String, encoding: KeyEncoding? = nil) -> KeySource {
        KeySource(location: .environment(name), encoding: encoding)
    }

    /// A key in a PKCS #11 token, named by `uri`, with its PIN from `pin` unless the URI has a `pin-source`.
    public static func token(_ uri: String, pin: PinSource? = nil) -> KeySource {
        KeySource(location: .token(uri), encoding: nil, pin: pin)
    }

    /// A key in the file at `url`.
    public static func file(_ url: URL, encoding: KeyEncoding? = nil) -> KeySource {
        KeySource(location: .file(url), encoding: encoding)
    }
}

/// Why a key could not be loaded. Messages never contain key material.
public struct KeyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable reasons.
    public enum Reason: String, Sendable, Hashable {
        case missing, unreadable, permissions, malformed, tooShort
        /// A key URI or key entry written wrongly (64).
        case usage
        /// A token key whose custody is unsafe: sensitive off or extractable on (65).
        case unsafe
        /// The token, its module or a mechanism is unavailable (69).
        case tokenUnavailable
        /// The token failed in a way it should not (70).
        case tokenFailure
    }
    /// The key id.
    public var id: String
    /// Why.
    public var reason: Reason
    /// What to do, in words.
    public var message: String

    /// An error for key `id`.
    public init(id: String, reason: Reason, message: String) {
        self.id = id
        self.reason = reason
        self.message = message
    }

    public var description: String { "key '\(id)': \(message)" }
}

/// Loads keys from environment variables or owner-only files.
///
/// A key's encoding is never guessed: a mistyped hex key (a letter O for a zero, a digit dropped)
/// once decoded silently as base64 and a whole batch was programmed under an unintended key. Text
/// is hex or base64 only by a `hex:`/`base64:` prefix or the entry's `encoding`; unprefixed text is
/// accepted only as 32–128 hex digits. A key file that is not printable text is raw bytes.
public enum KeyLoader {
    /// The digits unprefixed hex may have (16 to 64 bytes).
    public static let plainHexDigits = 32...128

    /// Loads key `id` from `source` as a key of `kind`; keys shorter than 16 bytes are refused, and a token key's
    /// custody is checked (`TokenKeyLoader`).
    ///
    /// The process is hardened first (`ProcessHardening`: no core file, not dumpable), so no key material enters a
    /// process that could write it out; a step that fails is a warning to `custody.warn`, not an error.
    public static func load(
        id: String, from source: KeySource, environment: [String: String], kind: SecretKey.Kind = .aes,
        custody: KeyCustody = KeyCustody()
    ) throws(KeyError) -> SecretKey {
        for failure in ProcessHardening.disableCoreDumps() {
            custody.warn("key '\(id)': core dumps could not be disabled (\(failure)); a crash could write it out")
        }
        let bytes: [UInt8]
        switch source.location {
        case .token(let uri):
            return try TokenKeyLoader.load(
                id: id, uri: uri, pin: source.pin, environment: environment, custody: custody)
        case .environment(let name):
            guard let value = environment[name], !value.isEmpty else {
                throw KeyError(id: id, reason: .missing, message: "environment variable \(name) is not set")
            }
            guard source.encoding != .raw else {
                throw KeyError(
                    id: id, reason: .malformed,
                    message: "encoding raw is for key files; environment variable \(name) holds text")
            }
            bytes = try decode(value, encoding: source.encoding, id: id, origin: "environment variable \(name)")
        case .file(let url):
            var data = try KeyFile.read(url, id: id)
            if source.encoding == .raw || (source.encoding == nil && !isPrintableText(data)) {
                bytes = data
            } else {
                defer { SecretBytes.wipe(&data) }
                bytes = try decode(
                    String(decoding: data, as: UTF8.self), encoding: source.encoding, id: id,
                    origin: "key file \(url.path)")
            }
        }
        guard bytes.count >= 16 else {
            throw KeyError(id: id, reason: .tooShort, message: "key is shorter than 16 bytes")
        }
        return SecretKey(id: id, bytes: bytes, kind: kind)
    }

    /// The bytes of key text by its prefix or `encoding`; unprefixed text must be 32–128 hex digits.
    ///
    /// - Throws: `KeyError.malformed` saying what is wrong, never echoing the text.
    static func decode(
        _ text: String, encoding declared: KeyEncoding?, id: String, origin: String
    ) throws(KeyError) -> [UInt8] {
        var value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        var encoding = declared
        func malformed(_ why: String) -> KeyError { KeyError(id: id, reason: .malformed, message: "\(origin): \(why)") }
        if let candidate = [KeyEncoding.hex, .base64].first(where: { value.hasPrefix("\($0.rawValue):") }) {
            if let declared, declared != candidate {
                throw KeyError(
                    id: id, reason: .malformed,
                    message: "\(origin) starts with \(candidate.rawValue): but the key's encoding is \(declared)")
            }
            encoding = candidate
            value = String(value.dropFirst(candidate.rawValue.count + 1))
            if let second = KeyEncoding.allCases.first(where: { value.lowercased().hasPrefix("\($0.rawValue):") }) {
                throw malformed(
                    "two encoding prefixes (\(candidate.rawValue): then \(second.rawValue):); "
                        + "a key takes one, so which encoding it is cannot be told")
            }
        }
        switch encoding {
        case .hex:
            guard let bytes = strictHex(value) else {
                throw malformed("not hex (\(hexProblem(value)))")
            }
            return bytes
        case .base64:
            var base64 = value.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            guard var data = Data(base64Encoded: base64), !data.isEmpty else { throw malformed("not base64") }
            defer { data.resetBytes(in: 0..<data.count) }
            return Array(data)
        case .raw:
            throw malformed("encoding raw is for key files")
        case nil:
            guard let bytes = strictHex(value), plainHexDigits.contains(value.count) else {
                throw malformed(
                    "without a hex: or base64: prefix (or an \"encoding\" in the key entry) a key must be "
                        + "\(plainHexDigits.lowerBound)–\(plainHexDigits.upperBound) hex digits; "
                        + hexProblem(value))
            }
            return bytes
        }
    }

    /// Hex digits only, an even number of them.
    private static func strictHex(_ text: String) -> [UInt8]? {
        guard !text.isEmpty, text.count % 2 == 0, text.allSatisfy(isASCIIHex) else { return nil }
        return Hex.bytes(text)
    }

    /// Why `text` is not plain hex, by position and count only (never the characters themselves).
    private static func hexProblem(_ text: String) -> String {
        if let index = text.firstIndex(where: { !isASCIIHex($0) }) {
            return "character \(text.distance(from: text.startIndex, to: index) + 1) is not a hex digit"
        }
        if text.count % 2 != 0 { return "\(text.count) hex digits, an odd number" }
        return "\(text.count) hex digits"
    }

    private static func isASCIIHex(_ character: Character) -> Bool {
        character.isASCII && character.isHexDigit
    }

    /// Whether file content is text (printable ASCII and line ends), so the text rules apply to it.
    private static func isPrintableText(_ bytes: [UInt8]) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy { (0x20...0x7E).contains($0) || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    }
}
