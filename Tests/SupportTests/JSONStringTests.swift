import Foundation
import Support
import Testing

/// `JSONString`: what it writes parses back to the same text, with JSONEncoder's escapes for quotes, backslashes and
/// control characters, and slashes and non-ASCII left as they are.
@Suite struct JSONStringTests {
    static func literal(_ text: String) -> String {
        var out: [UInt8] = []
        JSONString.append(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func escapesQuotesBackslashesAndControlCharactersOnly() {
        #expect(Self.literal("a/b") == #""a/b""#)
        #expect(Self.literal("say \"hi\"\\") == #""say \"hi\"\\""#)
        #expect(Self.literal("l1\nl2\r\t") == #""l1\nl2\r\t""#)
        #expect(Self.literal("\u{01}\u{1F}") == #""\u0001\u001F""#)
        #expect(Self.literal("Grüße ✓") == "\"Grüße ✓\"")
    }

    @Test func parsesBackToTheSameText() throws {
        let texts = ["", "plain", "q\"b\\s/", "\u{00}\u{07}\u{08}\u{0C}\u{1B}x", "日本 🎉", "\u{7F}"]
        for text in texts {
            let parsed =
                try JSONSerialization.jsonObject(
                    with: Data(Self.literal(text).utf8), options: .fragmentsAllowed) as? String
            #expect(parsed == text)
        }
    }
}
