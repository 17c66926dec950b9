/// Bytes as hex digits, the one encoder behind `NDEF.Hex` (logs, CLI) and the ledger's UID and digest
/// columns.
public enum HexEncoding {
    private static let upper = Array("0123456789ABCDEF".utf8)
    private static let lower = Array("0123456789abcdef".utf8)

    /// `bytes` as hex, upper case unless `lowercase`, with `separator` between bytes.
    public static func encode<C: Collection>(_ bytes: C, lowercase: Bool = false, separator: String = "") -> String
    where C.Element == UInt8 {
        let digits = lowercase ? lower : upper
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * (2 + separator.utf8.count))
        var first = true
        for byte in bytes {
            if !first { out += separator.utf8 }
            first = false
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
