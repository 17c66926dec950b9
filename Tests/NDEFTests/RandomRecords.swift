import NDEF
import TestSupport

/// Generates valid records of every kind.
enum RandomRecords {
    static let scalars: [Unicode.Scalar] = Array("abcXYZ019 /:.?=&-_~%éüß日本語Ж😀€".unicodeScalars)

    static func string(maxLength: Int, using random: inout SeededGenerator) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...maxLength, using: &random) {
            text.unicodeScalars.append(scalars[Int.random(in: 0..<scalars.count, using: &random)])
        }
        return text
    }

    static func bytes(maxLength: Int, using random: inout SeededGenerator) -> [UInt8] {
        (0..<Int.random(in: 0...maxLength, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    static func record(using random: inout SeededGenerator) -> NDEFPayload {
        let id = Bool.random(using: &random) ? [] : bytes(maxLength: 8, using: &random)
        let uriPrefix = URIPrefix.all[Int.random(in: 0..<URIPrefix.all.count, using: &random)]
        let language = ["en", "de", "ja", "en-US", "zh-Hant-TW"][Int.random(in: 0..<5, using: &random)]
        let encoding: NDEFText.Encoding = Bool.random(using: &random) ? .utf8 : .utf16
        let byteOrder = NDEFText.ByteOrder.allCases[Int.random(in: 0..<3, using: &random)]
        do {
            switch Int.random(in: 0..<9, using: &random) {
            case 0: return .uri(uriPrefix + string(maxLength: 40, using: &random), identifier: id)
            case 1:
                return try .text(
                    string(maxLength: 300, using: &random), languageCode: language, encoding: encoding,
                    byteOrder: byteOrder, identifier: id)
            case 2:
                let poster = NDEFSmartPoster(
                    uri: uriPrefix + string(maxLength: 20, using: &random),
                    titles: Bool.random(using: &random)
                        ? [
                            NDEFText(
                                string(maxLength: 20, using: &random), languageCode: language, encoding: encoding,
                                byteOrder: byteOrder)
                        ]
                        : [],
                    action: NDEFSmartPoster.Action(rawValue: UInt8.random(in: 0...3, using: &random)),
                    size: Bool.random(using: &random) ? UInt32.random(in: 0...UInt32.max, using: &random) : nil,
                    mediaType: Bool.random(using: &random) ? "image/png" : nil)
                return try .smartPoster(poster, identifier: id)
            case 3:
                return try .mime("application/x-test", payload: bytes(maxLength: 600, using: &random), identifier: id)
            case 4:
                return try .absoluteURI(
                    "urn:test:\(UInt16.random(in: 0...999, using: &random))",
                    payload: bytes(maxLength: 4, using: &random), identifier: id)
            case 5:
                return try .external(
                    "example.com:t\(UInt8.random(in: 0...9, using: &random))",
                    payload: bytes(maxLength: 300, using: &random), identifier: id)
            case 6:
                return try .wellKnown(
                    ["Hc", "Hr", "ac", "x"][Int.random(in: 0..<4, using: &random)],
                    payload: bytes(maxLength: 30, using: &random), identifier: id)
            case 7: return .unknown(payload: bytes(maxLength: 270, using: &random), identifier: id)
            default: return .empty
            }
        } catch {
            // The generator only builds valid values; an error here shows up as an unexpected record.
            return NDEFPayload(format: .reserved, type: [], payload: Array(error.description.utf8))
        }
    }
}
