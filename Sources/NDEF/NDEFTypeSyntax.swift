/// Syntax checks for the TYPE field of media, external, well-known and absolute-URI records.
///
/// Offsets in the errors are relative to the first byte of the checked field.
enum NDEFTypeSyntax {
    /// RFC 2045 §5.1 `tspecials`, which may not appear in a token.
    private static let specials = Set("()<>@,;:\\\"/[]?=".utf8)

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && !specials.contains(byte)
    }

    /// Checks a media type: `type "/" subtype`, both RFC 2045 tokens (RFC 2046 §1, RFC 6838 §4.2).
    static func checkMediaType(_ bytes: [UInt8]) throws(NDEFError) {
        guard let slash = bytes.firstIndex(of: UInt8(ascii: "/")) else {
            throw NDEFError(.invalidMediaType, at: 0, "a media type needs the form type/subtype")
        }
        guard slash > 0 else { throw NDEFError(.invalidMediaType, at: 0, "the media type's type is empty") }
        guard slash + 1 < bytes.count else {
            throw NDEFError(.invalidMediaType, at: slash, "the media type's subtype is empty")
        }
        for (index, byte) in bytes.enumerated() where index != slash && !isTokenByte(byte) {
            throw NDEFError(
                .invalidMediaType, at: index,
                "byte \(Hex.string([byte])) is not allowed in a media type (RFC 2045 token)")
        }
    }

    /// Checks an NFC Forum external type `domain ":" type` (NFC Forum RTD 1.0 §3.2): a lower-case
    /// domain of letters, digits, `.` and `-`, and a non-empty type of printable ASCII.
    static func checkExternalType(_ bytes: [UInt8]) throws(NDEFError) {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else {
            throw NDEFError(.invalidExternalType, at: 0, "an external type needs the form domain:type")
        }
        guard colon > 0 else { throw NDEFError(.invalidExternalType, at: 0, "the external type's domain is empty") }
        guard colon + 1 < bytes.count else {
            throw NDEFError(.invalidExternalType, at: colon, "the external type's type is empty")
        }
        for (index, byte) in bytes[..<colon].enumerated() {
            let ok =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
            guard ok else {
                throw NDEFError(
                    .invalidExternalType, at: index,
                    "the external domain may hold only lower-case letters, digits, '.' and '-'")
            }
        }
        for index in (colon + 1)..<bytes.count where bytes[index] <= 0x20 || bytes[index] >= 0x7F {
            throw NDEFError(.invalidExternalType, at: index, "the external type name is not printable ASCII")
        }
    }

    /// Checks a well-known type name: printable ASCII without spaces (NFC Forum RTD 1.0 §3.2).
    static func checkWellKnownType(_ bytes: [UInt8]) throws(NDEFError) {
        if let bad = bytes.firstIndex(where: { $0 <= 0x20 || $0 >= 0x7F }) {
            throw NDEFError(.invalidWellKnownType, at: bad, "a well-known type name must be printable ASCII")
        }
    }

    /// Checks an absolute URI type: printable ASCII without spaces (RFC 3986 characters).
    static func checkAbsoluteURI(_ bytes: [UInt8]) throws(NDEFError) {
        if let bad = bytes.firstIndex(where: { $0 <= 0x20 || $0 >= 0x7F }) {
            throw NDEFError(.invalidAbsoluteURI, at: bad, "an absolute URI type must be printable ASCII")
        }
    }
}
