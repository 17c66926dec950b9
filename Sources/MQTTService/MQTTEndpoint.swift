/// Where events go: a broker (`mqtt://HOST[:PORT]/TOPIC-PREFIX`, or `mqtts://` for TLS) and the topic prefix
/// every published topic starts with.
///
/// User information in the URL (`user:password@`) is refused, so a password never reaches argv: credentials come
/// from `MQTTCredentials`. Errors name the bad part and never repeat the text before an `@`.
public struct MQTTEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// The host name or address; an IPv6 literal without its brackets (`::1`).
    public let host: String
    /// The TCP port (1883 for `mqtt://`, 8883 for `mqtts://` unless given).
    public let port: Int
    /// Whether the connection uses TLS (`mqtts://`).
    public let usesTLS: Bool
    /// The topic prefix, without a leading or trailing `/`; topics are `PREFIX/…`.
    public let topicPrefix: String

    /// The default port of `mqtt://`.
    public static let defaultPort = 1883
    /// The default port of `mqtts://`.
    public static let defaultTLSPort = 8883

    /// Parses `mqtt://HOST[:PORT]/TOPIC-PREFIX` or `mqtts://…`; an IPv6 host is written in brackets (`[::1]`).
    ///
    /// - Throws: `MQTTError` `.invalidEndpoint` naming the scheme, host, port or prefix that is wrong.
    public init(parsing text: String) throws(MQTTError) {
        let form = "mqtt://HOST[:PORT]/TOPIC-PREFIX or mqtts://HOST[:PORT]/TOPIC-PREFIX"
        func bad(_ why: String) -> MQTTError { MQTTError(.invalidEndpoint, "\(why) (expected \(form))") }
        let rest: Substring
        if text.hasPrefix("mqtt://") {
            usesTLS = false
            rest = text.dropFirst("mqtt://".count)
        } else if text.hasPrefix("mqtts://") {
            usesTLS = true
            rest = text.dropFirst("mqtts://".count)
        } else {
            let scheme = text.firstIndex(of: ":").map { String(text[..<$0]) } ?? ""
            throw bad(scheme.isEmpty ? "the broker URL has no scheme" : "the scheme '\(scheme)' is not mqtt or mqtts")
        }
        guard let slash = rest.firstIndex(of: "/") else { throw bad("the broker URL has no /TOPIC-PREFIX") }
        let authority = rest[..<slash]
        if authority.contains("@") {
            throw bad("the broker URL carries user information before '@': give credentials as @FILE or env:VAR")
        }
        (host, port) = try Self.hostAndPort(authority, defaultPort: usesTLS ? Self.defaultTLSPort : Self.defaultPort)
        topicPrefix = try Self.prefix(rest[rest.index(after: slash)...])
    }

    /// `mqtt://HOST:PORT/PREFIX`, brackets around an IPv6 host.
    public var description: String {
        "\(usesTLS ? "mqtts" : "mqtt")://\(host.contains(":") ? "[\(host)]" : host):\(port)/\(topicPrefix)"
    }

    /// `PREFIX/` followed by `levels` joined with `/`.
    public func topic(_ levels: String...) -> String { ([topicPrefix] + levels).joined(separator: "/") }

    private static func hostAndPort(_ authority: Substring, defaultPort: Int) throws(MQTTError) -> (String, Int) {
        func bad(_ why: String) -> MQTTError { MQTTError(.invalidEndpoint, why) }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw bad("the IPv6 host '\(authority)' has no closing ']'")
            }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw bad("unexpected '\(after)' after the IPv6 host [\(host)]") }
                portText = after.dropFirst()
            }
            let allowed = host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." || $0 == "%" }
            guard host.contains(":"), allowed else { throw bad("'[\(host)]' is not an IPv6 address") }
        } else {
            if let colon = authority.firstIndex(of: ":") {
                host = authority[..<colon]
                portText = authority[authority.index(after: colon)...]
            } else {
                host = authority
            }
            let allowed = host.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" || $0 == "." }
            guard !host.isEmpty else { throw bad("the broker URL has no host") }
            guard allowed else { throw bad("the host '\(host)' is not a host name or address") }
        }
        guard let portText else { return (String(host), defaultPort) }
        guard let port = Int(portText), portText.allSatisfy(\.isNumber), (1...65535).contains(port) else {
            throw bad("the port '\(portText)' is not a number from 1 to 65535")
        }
        return (String(host), port)
    }

    private static func prefix(_ text: Substring) throws(MQTTError) -> String {
        func bad(_ why: String) -> MQTTError { MQTTError(.invalidEndpoint, "the topic prefix '\(text)' \(why)") }
        guard !text.isEmpty else {
            throw MQTTError(.invalidEndpoint, "the broker URL has an empty topic prefix after the host")
        }
        if text.contains("?") || text.contains("#") || text.contains("+") {
            throw bad("holds '?', '#' or '+' (no query, fragment or wildcard in a topic prefix)")
        }
        if text.hasSuffix("/") || text.contains("//") { throw bad("has an empty topic level") }
        if text.hasPrefix("$") { throw bad("starts with '$' (topics reserved for the broker)") }
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw bad("holds a control character")
        }
        return String(text)
    }
}
