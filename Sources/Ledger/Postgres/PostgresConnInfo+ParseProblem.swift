import Foundation

extension PostgresConnInfo {
    /// libpq's parse error for `text`, rephrased without any of the text's values: libpq quotes the offending
    /// part (`invalid percent-encoded token: "hun%ZZter2"`), which may be a password.
    ///
    /// A quoted setting name stays when libpq's complaint is about the name (`invalid connection option
    /// "sslmod"`); a malformed percent-encoding in a URI is located by the part of the URI it is in.
    static func parseProblem(_ message: String, in text: String) -> String {
        let aboutName = ["invalid connection option", "invalid URI query parameter", "extra key/value separator"]
            .contains { message.hasPrefix($0) }
        let parts = message.trimmingCharacters(in: .whitespacesAndNewlines).split(
            separator: "\"", omittingEmptySubsequences: false)
        var described = ""
        var hidden = false
        for (index, part) in parts.enumerated() {
            if index % 2 == 0 {
                described += part
            } else if part.count == 1 && !part.allSatisfy({ $0.isLetter || $0.isNumber }) {
                described += "\"\(part)\""
            } else if aboutName && isSettingName(part) {
                described += "\"\(part)\""
            } else {
                described += "…"
                hidden = true
            }
        }
        if described.hasSuffix(": …") { described.removeLast(3) }
        if message.contains("percent-encoded"), let part = malformedPercentPart(of: text) {
            described += " in \(part) (a % must be followed by two hex digits, and %00 is not allowed)"
        }
        return hidden ? described + "; the text is not shown, it may hold a secret" : described
    }

    /// Whether `name` has the shape of a libpq setting (`sslmode`), not of a value.
    private static func isSettingName(_ name: Substring) -> Bool {
        name.count <= 40 && name.allSatisfy { ("a"..."z").contains($0) || $0 == "_" }
    }

    /// Which part of a `postgresql://` URI holds a malformed percent-encoding, named without its value.
    private static func malformedPercentPart(of text: String) -> String? {
        guard let schemeEnd = text.range(of: "://") else { return nil }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let queryStart = rest.firstIndex(of: "?")
        let path = rest[authorityEnd..<(queryStart ?? rest.endIndex)]
        if let at = authority.lastIndex(of: "@"), isMalformed(authority[..<at]) {
            return "the user name or password (before @)"
        }
        let host = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        if isMalformed(host) { return "the host" }
        if isMalformed(path) { return "the database name" }
        guard let queryStart else { return nil }
        for parameter in rest[rest.index(after: queryStart)...].split(separator: "&") {
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard isMalformed(parameter) else { continue }
            return isSettingName(pair[0]) ? "the value of \(pair[0])" : "a query parameter"
        }
        return nil
    }

    /// Whether `part` has a `%` not followed by two hex digits, or `%00`.
    private static func isMalformed(_ part: Substring) -> Bool {
        var index = part.startIndex
        while let percent = part[index...].firstIndex(of: "%") {
            let digits = part[part.index(after: percent)...].prefix(2)
            if digits.count < 2 || !digits.allSatisfy(\.isHexDigit) || digits == "00" { return true }
            index = digits.endIndex
        }
        return false
    }
}
