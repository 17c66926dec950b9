import Foundation
import NDEF
import TestSupport
import Testing

@Suite struct RecordJSONTests {
    private func decode(_ json: String) throws(RecordJSONError) -> NDEFMessage {
        try RecordJSON.decode(Data(json.utf8))
    }

    @Test func decodesEveryRecordKind() throws {
        let message = try decode(
            """
            {"records": [
              {"type": "uri", "uri": "https://example.com", "id": "a"},
              {"type": "text", "text": "Hi", "lang": "de"},
              {"type": "text", "text": "Hi", "encoding": "utf16", "idHex": "00FF"},
              {"type": "smartposter", "uri": "tel:1", "titles": [{"text": "Call", "lang": "en"}],
               "action": "save", "size": 7, "mediaType": "text/html"},
              {"type": "mime", "mediaType": "application/json", "text": "{}"},
              {"type": "mime", "mediaType": "a/b", "base64": "AQI="},
              {"type": "mime", "mediaType": "a/b", "hex": "01 02"},
              {"type": "absoluteURI", "uri": "urn:x:1"},
              {"type": "external", "name": "Example.com:auth", "text": "k"},
              {"type": "wellknown", "name": "Hc", "hex": "00"},
              {"type": "unknown", "hex": ""},
              {"type": "empty"}
            ]}
            """)
        let expected: [NDEFPayload] = [
            .uri("https://example.com", identifier: ascii("a")),
            try .text("Hi", languageCode: "de"),
            try .text("Hi", languageCode: "en", encoding: .utf16, identifier: [0x00, 0xFF]),
            try .smartPoster(
                NDEFSmartPoster(
                    uri: "tel:1", titles: [NDEFText("Call", languageCode: "en")], action: .save, size: 7,
                    mediaType: "text/html")),
            try .mime("application/json", payload: ascii("{}")),
            try .mime("a/b", payload: [1, 2]),
            try .mime("a/b", payload: [1, 2]),
            try .absoluteURI("urn:x:1"),
            try .external("example.com:auth", payload: ascii("k")),
            try .wellKnown("Hc", payload: [0]),
            .unknown(payload: []),
            .empty,
        ]
        #expect(message.records == expected)
    }

    @Test func parsesJSONEscapesNumbersAndLiterals() throws {
        let message = try decode(
            #"\#u{FEFF}[{"type":"smartposter","uri":"https:\/\/a","size":4294967295,"#
                + #""titles":[{"text":"\u00e9\ud83d\ude00\"\\\b\f\n\r\t","lang":"fr"}]}]"#
        )
        let poster = NDEFSmartPoster(
            uri: "https://a", titles: [NDEFText("é😀\"\\\u{08}\u{0C}\n\r\t", languageCode: "fr")], size: UInt32.max)
        #expect(message.records == [try .smartPoster(poster)])
        #expect(try RecordJSON.decode(RecordJSON.encode(message)) == message)
        #expect(throws: RecordJSONError.self) { try decode(#"[{"type":"smartposter","uri":"a","size":1e3}]"#) }
        #expect(throws: RecordJSONError.self) { try decode(#"[{"type":"smartposter","uri":"a","size":true}]"#) }
        #expect(throws: RecordJSONError.self) { try decode(#"[{"type":"empty"}, null]"#) }
    }

    @Test func acceptsABareArray() throws {
        #expect(try decode(#"[{"type": "uri", "uri": "https://a"}]"#).records == [.uri("https://a")])
    }

    @Test func outputIsStablePrettyAndSorted() throws {
        let message = NDEFMessage(records: [
            .uri("https://example.com", identifier: ascii("id1")),
            try .text("Grüße \"q\"\n", languageCode: "de"),
            try .mime("application/json", payload: ascii("{}")),
            .empty,
        ])
        let expected = """
            {
              "records": [
                {
                  "id": "id1",
                  "type": "uri",
                  "uri": "https://example.com"
                },
                {
                  "encoding": "utf8",
                  "lang": "de",
                  "text": "Grüße \\"q\\"\\n",
                  "type": "text"
                },
                {
                  "hex": "7B7D",
                  "mediaType": "application/json",
                  "type": "mime"
                },
                {
                  "type": "empty"
                }
              ]
            }

            """
        #expect(String(decoding: RecordJSON.encode(message), as: UTF8.self) == expected)
    }

    @Test(arguments: Vectors.all + NDEFMessageDecodingTests.decodeOnly)
    func decodedVectorsSurviveJSON(vector: MessageVector) throws {
        let message = try NDEFMessage(bytes: try #require(Hex.bytes(vector.hex)))
        let json = RecordJSON.encode(message)
        #expect(try RecordJSON.decode(json) == message)
        #expect(RecordJSON.encode(try RecordJSON.decode(json)) == json)
    }

    @Test func nonCanonicalRecordsFallBackToRawHex() throws {
        // A URI without its best prefix code stays raw; UTF-16 text without a BOM is typed ("be").
        let message = try NDEFMessage(
            bytes: try #require(Hex.bytes("91 01 07 54 82 65 6E 00 48 00 69 51 01 09 55 00 68 74 74 70 3A 2F 2F 61")))
        let text = String(decoding: RecordJSON.encode(message), as: UTF8.self)
        #expect(text.contains(#""hex": "00687474703A2F2F61""#))
        #expect(!text.contains(#""type": "uri""#))
        #expect(text.contains(#""byteOrder": "be""#))
        #expect(!text.contains(#""hex": "82656E00480069""#))
        #expect(try RecordJSON.decode(Data(text.utf8)) == message)
    }

    /// The record JSON of one UTF-16 Text record "Hi" (en) in the given form.
    private static func utf16Document(_ byteOrder: String) -> String {
        """
        {
          "records": [
            {
              "byteOrder": "\(byteOrder)",
              "encoding": "utf16",
              "lang": "en",
              "text": "Hi",
              "type": "text"
            }
          ]
        }

        """
    }

    static let utf16Forms: [(hex: String, byteOrder: String)] = [
        ("D1 01 09 54 82 65 6E FE FF 00 48 00 69", "be-bom"),
        ("D1 01 09 54 82 65 6E FF FE 48 00 69 00", "le-bom"),
        ("D1 01 07 54 82 65 6E 00 48 00 69", "be"),
    ]

    @Test(arguments: utf16Forms)
    func utf16TextDecodesToJSONNamingItsByteOrder(hex: String, byteOrder: String) throws {
        let message = try NDEFMessage(bytes: try #require(Hex.bytes(hex)))
        #expect(String(decoding: RecordJSON.encode(message), as: UTF8.self) == Self.utf16Document(byteOrder))
    }

    @Test(arguments: utf16Forms)
    func utf16TextEncodesFromJSONToTheSameBytes(hex: String, byteOrder: String) throws {
        #expect(Hex.string(try decode(Self.utf16Document(byteOrder)).bytes) == hex)
    }

    @Test func absentByteOrderIsBigEndianWithBOM() throws {
        let message = try decode(#"[{"type": "text", "text": "Hi", "encoding": "utf16"}]"#)
        #expect(Hex.string(message.bytes) == "D1 01 09 54 82 65 6E FE FF 00 48 00 69")
    }

    @Test func smartPosterTitlesKeepTheirByteOrder() throws {
        let hex = "D1 02 13 53 70 91 01 02 55 04 61 51 01 09 54 82 65 6E FF FE 48 00 69 00"
        let message = try NDEFMessage(bytes: try #require(Hex.bytes(hex)))
        let json = String(decoding: RecordJSON.encode(message), as: UTF8.self)
        #expect(json.contains(#""byteOrder": "le-bom""#))
        #expect(json.contains(#""type": "smartposter""#))
        #expect(Hex.string(try decode(json).bytes) == hex)
    }

    @Test func binaryIDsAreWrittenAsHex() throws {
        let message = NDEFMessage(records: [.unknown(payload: [1], identifier: [0x00, 0x0A])])
        let text = String(decoding: RecordJSON.encode(message), as: UTF8.self)
        #expect(text.contains(#""idHex": "000A""#))
        #expect(try RecordJSON.decode(Data(text.utf8)) == message)
    }

    @Test func randomMessagesSurviveJSON() throws {
        var random = SeededGenerator(seed: 0x15_0000)
        for _ in 0..<300 {
            let message = NDEFMessage(
                records: (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    RandomRecords.record(using: &random)
                })
            #expect(try RecordJSON.decode(RecordJSON.encode(message)) == message)
        }
    }

    static let errors: [(json: String, path: String, reason: String)] = [
        ("nope", "", "not valid JSON at line 1, column 1: unexpected character 'n', expected a value"),
        (
            "{\n  \"records\": [,]}", "",
            "not valid JSON at line 2, column 15: unexpected character ',', expected a value"
        ),
        (#"[{"type":"uri","uri":"a","uri":"b"}]"#, "", "not valid JSON at line 1, column 26: duplicate key 'uri'"),
        (
            #"[{"type":"uri","uri":"a"}] x"#, "",
            "not valid JSON at line 1, column 28: unexpected text after the JSON value"
        ),
        (#"[{"type":"uri","uri":"\x"}]"#, "", "not valid JSON at line 1, column 23: invalid escape"),
        (#"[{"type":"uri","uri":"\ud800"}]"#, "", "not valid JSON at line 1, column 23: unpaired surrogate escape"),
        ("[{\"type\":\"uri\",\"uri\":\"a\tb\"}]", "", "not valid JSON at line 1, column 24: control character"),
        (#"[{"type":"uri","uri":"a"}"#, "", "not valid JSON at line 1, column 26: unclosed array"),
        (
            #"[{"type":"text","text":"x","lang":"en","encoding":01}]"#, "",
            "not valid JSON at line 1, column 51: leading zero in a number"
        ),
        ("42", "", "expected {\"records\": [...]} or an array, got a number"),
        ("{}", "records", "missing"),
        (#"{"records": {}}"#, "records", "expected an array, got an object"),
        (#"{"records": [], "x": 1}"#, "x", "unknown key"),
        (#"{"records": []}"#, "records", "a message needs at least one record"),
        (#"[1]"#, "records[0]", "expected an object, got a number"),
        (#"[{}]"#, "records[0].type", "missing"),
        (#"[{"type": 1}]"#, "records[0].type", "expected a string, got a number"),
        (#"[{"type": "url"}]"#, "records[0].type", "unknown record type 'url'"),
        (#"[{"type": "uri", "uri": "https://a"}, {"type": "uri", "url": "x"}]"#, "records[1].uri", "missing"),
        (#"[{"type": "uri", "uri": "a", "extra": true}]"#, "records[0].extra", "unknown key"),
        (#"[{"type": "uri", "uri": "a\nb"}]"#, "records[0].uri", "the URI contains a control character"),
        (#"[{"type": "uri", "uri": "a", "id": "x", "idHex": "01"}]"#, "records[0]", "give only one of id, idHex"),
        (#"[{"type": "uri", "uri": "a", "idHex": "0G"}]"#, "records[0].idHex", "not hex"),
        (#"[{"type": "text"}]"#, "records[0].text", "missing"),
        (#"[{"type": "text", "text": "x", "lang": ""}]"#, "records[0].lang", "the language code is empty"),
        (#"[{"type": "text", "text": "x", "encoding": "latin1"}]"#, "records[0].encoding", "expected utf8 or utf16"),
        (
            #"[{"type": "text", "text": "x", "encoding": "utf16", "byteOrder": "le"}]"#, "records[0].byteOrder",
            "expected be-bom, le-bom or be, got 'le'"
        ),
        (#"[{"type": "text", "text": "x", "byteOrder": "be"}]"#, "records[0].byteOrder", "only UTF-16 text"),
        (
            #"[{"type": "text", "text": "\ufeffx", "encoding": "utf16", "byteOrder": "be"}]"#, "records[0].text",
            "UTF-16 text without a BOM cannot start with U+FEFF"
        ),
        (
            #"[{"type": "smartposter", "uri": "a", "titles": [{"text": "t", "byteOrder": "be-bom"}]}]"#,
            "records[0].titles[0].byteOrder", "only UTF-16 text"
        ),
        (
            #"[{"type": "smartposter", "uri": "a", "#
                + #""titles": [{"text": "\ufffe", "encoding": "utf16", "byteOrder": "be"}]}]"#,
            "records[0].titles[0].text", "UTF-16 text without a BOM cannot start with U+FFFE"
        ),
        (#"[{"type": "smartposter"}]"#, "records[0].uri", "missing"),
        (
            #"[{"type": "smartposter", "uri": "a", "action": "run"}]"#, "records[0].action",
            "expected exec, save or edit"
        ),
        (#"[{"type": "smartposter", "uri": "a", "size": -1}]"#, "records[0].size", "expected a whole number"),
        (#"[{"type": "smartposter", "uri": "a", "size": 1.5}]"#, "records[0].size", "expected a whole number"),
        (
            #"[{"type": "smartposter", "uri": "a", "titles": [{"text": "t", "lang": "e n"}]}]"#,
            "records[0].titles[0].lang", "the language code has a byte"
        ),
        (#"[{"type": "smartposter", "uri": "a", "titles": [{"lang": "en"}]}]"#, "records[0].titles[0].text", "missing"),
        (#"[{"type": "smartposter", "uri": "a", "mediaType": "html"}]"#, "records[0].mediaType", "a media type needs"),
        (#"[{"type": "mime", "mediaType": "a/b"}]"#, "records[0].hex", "missing (give one of hex, text, base64)"),
        (#"[{"type": "mime", "mediaType": "a/b", "hex": "", "text": ""}]"#, "records[0]", "give only one of hex, text"),
        (#"[{"type": "mime", "mediaType": "ab", "hex": ""}]"#, "records[0].mediaType", "a media type needs"),
        (#"[{"type": "mime", "mediaType": "a/b", "base64": "!!"}]"#, "records[0].base64", "not base64"),
        (#"[{"type": "external", "name": "nocolon", "hex": ""}]"#, "records[0].name", "an external type needs"),
        (#"[{"type": "external", "name": "a:b"}]"#, "records[0].hex", "missing"),
        (#"[{"type": "wellknown", "name": "U", "hex": "30"}]"#, "records[0].hex", "URI prefix code 30 is above 23"),
        (#"[{"type": "wellknown", "name": "Hc", "text": "x"}]"#, "records[0].hex", "missing"),
        (#"[{"type": "absoluteURI", "uri": ""}]"#, "records[0].uri", "an absolute URI has 1–255 bytes"),
        (#"[{"type": "unknown", "hex": "ABC"}]"#, "records[0].hex", "not hex"),
        (#"[{"type": "empty", "id": "x"}]"#, "records[0].id", "unknown key"),
    ]

    @Test(arguments: errors)
    func badJSONNamesThePath(json: String, path: String, reason: String) {
        do {
            let message = try decode(json)
            Issue.record("decoded \(message.records.count) records")
        } catch {
            #expect(error.path == path)
            #expect(error.reason.hasPrefix(reason), "\(error.reason)")
            #expect(error.description == (path.isEmpty ? error.reason : "\(path): \(error.reason)"))
        }
    }
}
