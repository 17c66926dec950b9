import Foundation

/// A dotted version number found in a tool's output (`1.8.0`, `1.9.9-2`, `pcsc-lite version 1.9.9.`).
struct SoftwareVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The numeric parts, most significant first (`[1, 9, 9]`).
    var components: [Int]

    /// The version from its parts.
    init(_ components: [Int]) { self.components = components }

    /// The first run of digits and dots in `text`, after a Debian epoch (`2:`) if the text starts with
    /// one; `nil` when `text` holds no digit.
    ///
    /// ```
    /// 1.9.9-2                    → 1.9.9   (Debian revision ignored)
    /// 2:1.8.0-2+b1               → 1.8.0   (epoch and revision ignored)
    /// pcsc-lite version 1.9.9.   → 1.9.9   (trailing dot ignored)
    /// libnfc-1.8.0-rc1           → 1.8.0
    /// ```
    init?(parsing text: String) {
        var rest = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        if let colon = rest.firstIndex(of: ":"), !rest[..<colon].isEmpty, rest[..<colon].allSatisfy(\.isASCIIDigit) {
            rest = rest[rest.index(after: colon)...]
        }
        guard let start = rest.firstIndex(where: \.isASCIIDigit) else { return nil }
        var parts: [Int] = []
        var digits = ""
        for character in rest[start...] {
            if character.isASCIIDigit {
                digits.append(character)
            } else if character == ".", !digits.isEmpty {
                parts.append(Int(digits) ?? 0)
                digits = ""
            } else {
                break
            }
        }
        if !digits.isEmpty { parts.append(Int(digits) ?? 0) }
        guard !parts.isEmpty else { return nil }
        components = parts
    }

    /// Compares part by part, missing parts counting as 0 (`1.9` == `1.9.0`).
    static func < (lhs: Self, rhs: Self) -> Bool {
        for index in 0..<max(lhs.components.count, rhs.components.count) {
            let left = index < lhs.components.count ? lhs.components[index] : 0
            let right = index < rhs.components.count ? rhs.components[index] : 0
            if left != right { return left < right }
        }
        return false
    }

    static func == (lhs: Self, rhs: Self) -> Bool { !(lhs < rhs) && !(rhs < lhs) }

    func hash(into hasher: inout Hasher) {
        var trimmed = components
        while trimmed.last == 0 { trimmed.removeLast() }
        hasher.combine(trimmed)
    }

    var description: String { components.map(String.init).joined(separator: ".") }
}

extension Character {
    /// `0`…`9` only (not other Unicode digits).
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
