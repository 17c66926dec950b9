/// A BER-TLV data object as used by the PC/SC part 3 transparent session (1- or 2-byte tags,
/// lengths `nn`, `81 nn` or `82 nn nn`).
public struct BERDataObject: Sendable, Hashable {
    /// The tag (`5F46` for two-byte tags).
    public var tag: UInt16
    /// The value bytes.
    public var value: [UInt8]

    /// Creates an object.
    public init(tag: UInt16, value: [UInt8]) {
        self.tag = tag
        self.value = value
    }

    /// Parses a sequence of data objects; `nil` when it is truncated or malformed.
    public static func parseAll(_ bytes: [UInt8]) -> [BERDataObject]? {
        var objects: [BERDataObject] = []
        var index = 0
        while index < bytes.count {
            var tag = UInt16(bytes[index])
            index += 1
            if tag & 0x1F == 0x1F {
                guard index < bytes.count else { return nil }
                tag = tag << 8 | UInt16(bytes[index])
                index += 1
            }
            guard index < bytes.count else { return nil }
            var length = Int(bytes[index])
            index += 1
            if length == 0x81 || length == 0x82 {
                let count = length - 0x80
                guard index + count <= bytes.count else { return nil }
                length = bytes[index..<index + count].reduce(0) { $0 << 8 | Int($1) }
                index += count
            } else if length > 0x7F {
                return nil
            }
            guard index + length <= bytes.count else { return nil }
            objects.append(BERDataObject(tag: tag, value: Array(bytes[index..<index + length])))
            index += length
        }
        return objects
    }

    /// Encodes one object with a one-byte tag.
    public static func encode(tag: UInt8, value: [UInt8]) -> [UInt8] {
        let length: [UInt8] =
            switch value.count {
            case ..<0x80: [UInt8(value.count)]
            case ..<0x100: [0x81, UInt8(value.count)]
            default: [0x82, UInt8(value.count >> 8), UInt8(value.count & 0xFF)]
            }
        return [tag] + length + value
    }
}
