import Support

/// Upper-case hex formatting and tolerant hex parsing shared by logs, the CLI and tests.
public enum Hex {
    /// Formats bytes as upper-case hex, e.g. `A2 05 34` with the default separator.
    public static func string<C: Collection>(_ bytes: C, separator: String = " ") -> String
    where C.Element == UInt8 {
        HexEncoding.encode(bytes, separator: separator)
    }

    /// Formats bytes as compact upper-case hex (no separator), e.g. a UID `04A1B2C3D4E5F6`.
    public static func compact<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        string(bytes, separator: "")
    }

    /// Parses hex, tolerating white space, `0x` prefixes, `:` and `,` separators.
    ///
    /// - Returns: the bytes, or `nil` when a character is not hex or the digit count is odd.
    public static func bytes(_ text: some StringProtocol) -> [UInt8]? {
        var out: [UInt8] = []
        var high: UInt8?
        var previousWasZero = false
        var needDigit = false
        for scalar in text.unicodeScalars {
            let value: UInt8
            switch scalar {
            case "0"..."9": value = UInt8(scalar.value - 48)
            case "a"..."f": value = UInt8(scalar.value - 87)
            case "A"..."F": value = UInt8(scalar.value - 55)
            case "x", "X":
                // Only a "0x" prefix: the 0 was taken as a high nibble; undo it.
                guard previousWasZero, high == 0 else { return nil }
                high = nil
                previousWasZero = false
                needDigit = true
                continue
            case " ", "\n", "\r", "\t", ":", ",":
                guard high == nil, !needDigit else { return nil }
                previousWasZero = false
                continue
            default: return nil
            }
            needDigit = false
            if let h = high {
                out.append(h << 4 | value)
                high = nil
                previousWasZero = false
            } else {
                high = value
                previousWasZero = value == 0
            }
        }
        return high == nil && !needDigit ? out : nil
    }
}

extension Hex {
    /// Two upper-case hex digits for one byte.
    public static func byte(_ value: UInt8) -> String { compact([value]) }
}
