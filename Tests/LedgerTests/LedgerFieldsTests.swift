import Foundation
import TestSupport
import Testing

@testable import Ledger

@Suite struct LedgerFieldsTests {
    @Test func readsWhatTheLedgerWrites() throws {
        let fields = [
            "serial": "S0001", "url": "https://example.com/p/1?x=1&y=2", "name": "Zoë \"quoted\" back\\slash",
            "lines": "a\nb\tc\r", "empty": "", "日本": "語",
        ]
        let json = try LedgerFormat.json(fields)
        #expect(LedgerFields.decode(json) == fields)
        #expect(try LedgerFormat.fields(json) == fields)
    }

    /// Hex vectors of the column text, both ways.
    @Test func vectors() throws {
        #expect(LedgerFields.decode(#"{}"#) == [:])
        #expect(LedgerFields.decode(#" { "a" : "1" , "b":"x\/y\b\f" } "#) == ["a": "1", "b": "x/y\u{8}\u{C}"])
        #expect(try LedgerFormat.json(["a": "1", "b": "x/y"]) == #"{"a":"1","b":"x/y"}"#)
    }

    /// Shapes this reader leaves to JSONDecoder: it answers nil, and `LedgerFormat.fields` still gives
    /// the decoder's value or error.
    @Test func leavesOtherShapesToTheDecoder() throws {
        let unicode = #"{"a":"caf\u00e9 \ud83d\ude00"}"#
        #expect(LedgerFields.decode(unicode) == nil)
        #expect(try LedgerFormat.fields(unicode) == ["a": "café 😀"])
        let trailingComma = #"{"a":"1",}"#  // JSONDecoder takes it; this reader does not
        #expect(LedgerFields.decode(trailingComma) == nil)
        #expect(try LedgerFormat.fields(trailingComma) == ["a": "1"])
        for text in [#"{"a":1}"#, #"{"a":"1""#, #"["a"]"#, #"{"a":"1"} x"#, #"{"a":"x\q"}"#, "{\"a\":\"\u{1}\"}"] {
            #expect(LedgerFields.decode(text) == nil, "\(text)")
            #expect(throws: LedgerError.self, "\(text)") { try LedgerFormat.fields(text) }
        }
    }

    /// The same answer as JSONDecoder over a seeded corpus of field sets.
    @Test func agreesWithJSONDecoder() throws {
        var generator = SeededGenerator(seed: 0xF1E1D5)
        let alphabet = Array("aZ09 -_/.:?&=\"\\\n\té€😀")
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
            #expect(LedgerFields.decode(json) == decoded, "\(json)")
        }
    }
}
