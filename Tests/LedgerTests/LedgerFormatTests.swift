import Foundation
import TestSupport
import Testing

@testable import Ledger

/// The `fields_json` column: written by `LedgerFormat.json`, read back by `LedgerFormat.fields` (JSONScanner).
@Suite struct LedgerFormatTests {
    @Test func readsWhatTheLedgerWrites() throws {
        let fields = [
            "serial": "S0001", "url": "https://example.com/p/1?x=1&y=2", "name": "Zoë \"quoted\" back\\slash",
            "lines": "a\nb\tc\r", "empty": "", "日本": "語", "control": "\u{1}\u{1F}",
        ]
        let json = try LedgerFormat.json(fields)
        #expect(try LedgerFormat.fields(json) == fields)
    }

    /// The stored text is unchanged (sorted keys, unescaped slashes): existing ledgers compare and hash it.
    @Test func writesTheSameBytes() throws {
        #expect(try LedgerFormat.json([:]) == "{}")
        #expect(try LedgerFormat.json(["b": "x/y", "a": "1"]) == #"{"a":"1","b":"x/y"}"#)
        #expect(try LedgerFormat.json(["k": "é\"\\\n\t"]) == #"{"k":"é\"\\\n\t"}"#)
    }

    /// Any JSON spelling of an object of strings reads back: whitespace, every escape, surrogate pairs.
    @Test func readsEveryEscape() throws {
        #expect(try LedgerFormat.fields(#"{}"#) == [:])
        #expect(try LedgerFormat.fields(#" { "a" : "1" , "b":"x\/y\b\f" } "#) == ["a": "1", "b": "x/y\u{8}\u{C}"])
        #expect(try LedgerFormat.fields(#"{"a":"caf\u00e9 \ud83d\ude00"}"#) == ["a": "café 😀"])
    }

    /// Anything but a strict JSON object of strings is invalid data, and the message says what is wrong.
    @Test func rejectsOtherShapes() throws {
        let cases = [
            #"{"a":1}"#: "field 'a' is a number, not a string", #"["a"]"#: "fields are an array",
            #"{"a":"1""#: "unclosed object", #"{"a":"1"} x"#: "unexpected text", #"{"a":"x\q"}"#: "invalid escape",
            "{\"a\":\"\u{1}\"}": "control character", #"{"a":"1",}"#: "expected a key",
            #"{"a":"1","a":"2"}"#:
                "duplicate key",
        ]
        for (text, message) in cases {
            let error = #expect(throws: LedgerError.self, "\(text)") { try LedgerFormat.fields(text) }
            #expect(error?.code == .invalidData)
            #expect(error?.description.contains(message) == true, "\(text): \(String(describing: error))")
        }
    }

    /// The same answer as JSONDecoder over a seeded corpus of field sets.
    @Test func agreesWithJSONDecoder() throws {
        var generator = TestSeed.generator()
        let alphabet = Array("aZ09 -_/.:?&=\"\\\n\t\u{1}é€😀")
        for _ in 0..<2_000 {
            var fields: [String: String] = [:]
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                let key = String(
                    (0..<Int.random(in: 1...8, using: &generator)).map { _ in alphabet.randomElement(using: &generator)!
                    })
                fields[key] = String(
                    (0..<Int.random(in: 0...30, using: &generator)).map { _ in
                        alphabet.randomElement(using: &generator)!
                    })
            }
            let json = try LedgerFormat.json(fields)
            let decoded = try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
            #expect(try LedgerFormat.fields(json) == decoded, "\(json), seed \(TestSeed.value)")
        }
    }
}
