import NDEF

/// A filter applied to a placeholder's value, left to right: `{{sku | upper | pad:8}}`.
public enum TemplateFilter: Sendable, Hashable {
    /// Upper-case letters.
    case upper
    /// Lower-case letters.
    case lower
    /// Percent-encodes every UTF-8 byte outside the RFC 3986 unreserved set (`A-Z a-z 0-9 - . _ ~`).
    case urlencode
    /// Left-pads with `0` to at least N characters (1–64).
    case pad(Int)
    /// The value's UTF-8 bytes as upper-case hex, two digits per byte (`AB` → `4142`).
    case hex
    /// Replaces an empty or missing value with TEXT.
    case defaultValue(String)

    /// The filter names, for messages.
    public static let names = ["upper", "lower", "urlencode", "pad:N", "hex", "default:TEXT"]

    /// Parses one filter (`pad:8`); `nil` for an unknown name, a message for a bad argument.
    static func parse(_ text: String) -> Result<TemplateFilter, ParseProblem> {
        let name: Substring
        let argument: Substring?
        if let colon = text.firstIndex(of: ":") {
            name = text[..<colon]
            argument = text[text.index(after: colon)...]
        } else {
            name = Substring(text)
            argument = nil
        }
        switch (name, argument) {
        case ("upper", nil): return .success(.upper)
        case ("lower", nil): return .success(.lower)
        case ("urlencode", nil): return .success(.urlencode)
        case ("hex", nil): return .success(.hex)
        case ("pad", let argument?):
            guard let width = Int(argument), (1...64).contains(width) else {
                return .failure(ParseProblem("pad needs a width 1 to 64, found '\(argument)'"))
            }
            return .success(.pad(width))
        case ("default", let argument?): return .success(.defaultValue(String(argument)))
        case ("upper", _?), ("lower", _?), ("urlencode", _?), ("hex", _?):
            return .failure(ParseProblem("filter '\(name)' takes no argument"))
        case ("pad", nil), ("default", nil):
            return .failure(ParseProblem("filter '\(name)' needs an argument ('\(name):…')"))
        default:
            return .failure(ParseProblem("unknown filter '\(name)' (known: \(names.joined(separator: ", ")))"))
        }
    }

    /// A parse failure message.
    struct ParseProblem: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// Applies the filter.
    public func apply(_ value: String) -> String {
        switch self {
        case .upper: return value.uppercased()
        case .lower: return value.lowercased()
        case .urlencode:
            var out = ""
            for byte in value.utf8 {
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                    UInt8(ascii: "~"):
                    out.unicodeScalars.append(Unicode.Scalar(byte))
                default:
                    out += "%" + Hex.byte(byte)
                }
            }
            return out
        case .pad(let width):
            return String(repeating: "0", count: max(0, width - value.count)) + value
        case .hex: return Hex.compact(Array(value.utf8))
        case .defaultValue(let text): return value.isEmpty ? text : value
        }
    }
}
