/// The URI identifier codes of the NFC Forum URI Record Type Definition (§3.2.2, table 3).
///
/// A URI record's payload is one prefix code byte followed by the rest of the URI in UTF-8:
///
/// ```
/// 04 "example.com"   → https://example.com
/// ```
///
/// Codes `00`–`23` are defined; anything above is an error.
public enum URIPrefix {
    /// The 36 prefixes, indexed by their code (`00` is "no prefix").
    public static let all: [String] = [
        "", "http://www.", "https://www.", "http://", "https://", "tel:", "mailto:",
        "ftp://anonymous:anonymous@", "ftp://ftp.", "ftps://", "sftp://", "smb://", "nfs://", "ftp://",
        "dav://", "news:", "telnet://", "imap:", "rtsp://", "urn:", "pop:", "sip:", "sips:", "tftp:",
        "btspp://", "btl2cap://", "btgoep://", "tcpobex://", "irdaobex://", "file://", "urn:epc:id:",
        "urn:epc:tag:", "urn:epc:pat:", "urn:epc:raw:", "urn:epc:", "urn:nfc:",
    ]

    /// The code of the longest prefix that starts `uri` (case-sensitive), and the rest of it.
    public static func split(_ uri: String) -> (code: UInt8, rest: String) {
        var best = 0
        var bestLength = 0
        for (code, prefix) in all.enumerated() where prefix.utf8.count > bestLength && uri.hasPrefix(prefix) {
            best = code
            bestLength = prefix.utf8.count
        }
        let utf8 = Array(uri.utf8)
        return (UInt8(best), String(decoding: utf8[bestLength...], as: UTF8.self))
    }

    /// Encodes a URI record payload: prefix code, then the rest in UTF-8.
    public static func payload(for uri: String) -> [UInt8] {
        let (code, rest) = split(uri)
        return [code] + Array(rest.utf8)
    }

    /// Decodes a URI record payload back into the full URI.
    ///
    /// - Throws: `payloadTooShort` (no code byte), `invalidURIPrefix` (code above `23h`), `invalidURI`
    ///   (not UTF-8, or a control character); offsets relative to the payload's first byte.
    public static func uri(fromPayload payload: [UInt8]) throws(NDEFError) -> String {
        guard let code = payload.first else {
            throw NDEFError(.payloadTooShort, at: 0, "a URI payload needs its prefix code byte")
        }
        guard Int(code) < all.count else {
            throw NDEFError(.invalidURIPrefix, at: 0, "URI prefix code \(Hex.string([code])) is above 23")
        }
        let rest = payload.dropFirst()
        guard let text = String(validating: rest, as: UTF8.self) else {
            throw NDEFError(.invalidURI, at: 1, "the URI is not valid UTF-8")
        }
        if let bad = text.unicodeScalars.firstIndex(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            let offset = 1 + text.unicodeScalars[..<bad].reduce(0) { $0 + String($1).utf8.count }
            throw NDEFError(.invalidURI, at: offset, "the URI contains a control character")
        }
        return all[Int(code)] + text
    }
}
