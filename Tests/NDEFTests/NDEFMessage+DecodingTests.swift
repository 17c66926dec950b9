import NDEF
import TestSupport
import Testing

/// One malformed input and the exact error it must produce.
struct ErrorVector: Sendable, CustomTestStringConvertible {
    let name: String
    let hex: String
    let code: NDEFError.Code
    let offset: Int
    init(_ name: String, _ hex: String, _ code: NDEFError.Code, at offset: Int) {
        self.name = name
        self.hex = hex
        self.code = code
        self.offset = offset
    }
    var testDescription: String { name }
}

@Suite struct NDEFMessageDecodingTests {
    static let errors: [ErrorVector] = [
        ErrorVector("empty buffer", "", .emptyBuffer, at: 0),
        ErrorVector("header byte only", "D1", .truncatedHeader, at: 0),
        ErrorVector("no payload length", "D1 01", .truncatedHeader, at: 0),
        ErrorVector("long length cut", "C1 01 00 00", .truncatedHeader, at: 0),
        ErrorVector("IL without ID length", "D9 01 01", .truncatedHeader, at: 0),
        ErrorVector("second header cut", "91 01 01 55 00 51", .truncatedHeader, at: 5),
        ErrorVector("no type", "D1 01 01", .truncatedType, at: 3),
        ErrorVector("ID cut", "D9 01 01 02 55 61", .truncatedID, at: 5),
        ErrorVector("payload cut", "D1 01 05 55 04 61", .truncatedPayload, at: 4),
        ErrorVector("huge long payload", "C5 00 FF FF FF FF 00", .truncatedPayload, at: 6),
        ErrorVector("no ME", "91 01 01 55 00", .missingME, at: 5),
        ErrorVector("no MB", "51 01 01 55 00", .missingMB, at: 0),
        ErrorVector("MB in the middle", "91 01 01 55 00 D1 01 01 55 00", .unexpectedMB, at: 5),
        ErrorVector("byte after ME", "D1 01 01 55 00 00", .bytesAfterME, at: 5),
        ErrorVector("record after ME", "D5 00 00 55 00 00", .bytesAfterME, at: 3),
        ErrorVector("reserved TNF", "D7 00 00", .reservedTNF, at: 0),
        ErrorVector("reserved TNF second", "95 00 00 57 00 00", .reservedTNF, at: 3),
        ErrorVector("empty with type", "D0 01 00 55", .emptyRecordNotEmpty, at: 0),
        ErrorVector("empty with payload", "D0 00 01 00", .emptyRecordNotEmpty, at: 0),
        ErrorVector("empty with ID", "D8 00 00 01 41", .emptyRecordNotEmpty, at: 0),
        ErrorVector("empty chunked", "B0 00 00 50 00 00", .emptyRecordNotEmpty, at: 0),
        ErrorVector("unchanged alone", "D6 00 00", .unchangedOutsideChunk, at: 0),
        ErrorVector("unchanged after record", "95 00 00 56 00 00", .unchangedOutsideChunk, at: 3),
        ErrorVector("chunk then new record", "B5 00 01 AA 55 00 01 BB", .chunkNotUnchanged, at: 4),
        ErrorVector("middle chunk with type", "B5 00 01 AA 56 01 01 54 BB", .chunkWithType, at: 4),
        ErrorVector("middle chunk with ID", "B5 00 01 AA 5E 00 01 01 49 BB", .chunkWithID, at: 4),
        ErrorVector("ME on open chunk", "F5 00 01 AA", .chunkEndsMessage, at: 0),
        ErrorVector("ME on open middle chunk", "B5 00 01 AA 76 00 01 BB", .chunkEndsMessage, at: 4),
        ErrorVector("well-known without type", "D1 00 00", .missingType, at: 3),
        ErrorVector("media without type", "D2 00 01 00", .missingType, at: 3),
        ErrorVector("unknown with type", "D5 01 00 41", .unknownWithType, at: 3),
        ErrorVector("URI code 24", "D1 01 01 55 24", .invalidURIPrefix, at: 4),
        ErrorVector("URI code FF", "D1 01 02 55 FF 61", .invalidURIPrefix, at: 4),
        ErrorVector("URI without code", "D1 01 00 55", .payloadTooShort, at: 4),
        ErrorVector("URI control char", "D1 01 03 55 04 61 0A", .invalidURI, at: 6),
        ErrorVector("URI bad UTF-8", "D1 01 02 55 04 FF", .invalidURI, at: 5),
        ErrorVector("Text reserved bit", "D1 01 03 54 42 65 6E", .invalidTextStatus, at: 4),
        ErrorVector("Text language length 0", "D1 01 02 54 00 61", .invalidLanguage, at: 4),
        ErrorVector("Text language overrun", "D1 01 02 54 05 65", .payloadTooShort, at: 4),
        ErrorVector("Text empty payload", "D1 01 00 54", .payloadTooShort, at: 4),
        ErrorVector("Text language with space", "D1 01 04 54 02 65 20 61", .invalidLanguage, at: 6),
        ErrorVector("Text bad UTF-8", "D1 01 04 54 02 65 6E FF", .invalidText, at: 7),
        ErrorVector("Text odd UTF-16", "D1 01 04 54 82 65 6E 00", .invalidText, at: 7),
        ErrorVector("Text lone surrogate", "D1 01 05 54 82 65 6E D8 00", .invalidText, at: 7),
        ErrorVector("media no slash", "D2 04 00 74 65 78 74", .invalidMediaType, at: 3),
        ErrorVector("media bad char", "D2 05 00 74 2F 28 78 78", .invalidMediaType, at: 5),
        ErrorVector("media empty subtype", "D2 02 00 74 2F", .invalidMediaType, at: 4),
        ErrorVector("media empty type", "D2 02 00 2F 74", .invalidMediaType, at: 3),
        ErrorVector("external upper-case domain", "D4 03 00 41 3A 62", .invalidExternalType, at: 3),
        ErrorVector("external no colon", "D4 01 00 61", .invalidExternalType, at: 3),
        ErrorVector("external empty type", "D4 02 00 61 3A", .invalidExternalType, at: 4),
        ErrorVector("well-known control char", "D1 01 00 01", .invalidWellKnownType, at: 3),
        ErrorVector("absolute URI with space", "D3 03 00 61 20 62", .invalidAbsoluteURI, at: 4),
        ErrorVector(
            "Smart Poster without URI", "D1 02 0C 53 70 D1 01 08 54 02 65 6E 48 65 6C 6C 6F", .smartPosterURICount,
            at: 5),
        ErrorVector(
            "Smart Poster with two URIs", "D1 02 0C 53 70 91 01 02 55 04 61 51 01 02 55 04 62", .smartPosterURICount,
            at: 14),
        ErrorVector("Smart Poster nested truncated", "D1 02 03 53 70 D1 01 05", .truncatedType, at: 8),
        ErrorVector("Smart Poster empty payload", "D1 02 00 53 70", .emptyBuffer, at: 5),
        ErrorVector("Smart Poster bad URI code", "D1 02 05 53 70 D1 01 01 55 30", .invalidURIPrefix, at: 9),
        ErrorVector(
            "Smart Poster action 05", "D1 02 0D 53 70 91 01 02 55 04 61 51 03 01 61 63 74 05",
            .invalidSmartPosterAction,
            at: 17),
        ErrorVector(
            "Smart Poster size 3 bytes", "D1 02 0D 53 70 91 01 02 55 04 61 51 01 03 73 00 00 01",
            .invalidSmartPosterSize,
            at: 15),
        ErrorVector(
            "Smart Poster bad type hint", "D1 02 0C 53 70 91 01 02 55 04 61 51 01 02 74 61 62", .invalidMediaType,
            at: 15),
        ErrorVector(
            "Smart Poster duplicate title language",
            "D1 02 14 53 70 91 01 02 55 04 61 11 01 03 54 02 65 6E 51 01 03 54 02 45 4E", .duplicateTitleLanguage,
            at: 22),
        ErrorVector(
            "Smart Poster two actions",
            "D1 02 14 53 70 91 01 02 55 04 61 11 03 01 61 63 74 00 51 03 01 61 63 74 01", .duplicateSmartPosterField,
            at: 24),
    ]

    @Test(arguments: errors)
    func malformedInputGivesExactCodeAndOffset(vector: ErrorVector) throws {
        let bytes = try #require(Hex.bytes(vector.hex))
        do {
            let message = try NDEFMessage(bytes: bytes)
            Issue.record("decoded \(message.records.count) records instead of failing")
        } catch {
            #expect(error.code == vector.code)
            #expect(error.offset == vector.offset)
            #expect(error.description.hasPrefix("\(vector.code) at byte \(vector.offset): "))
        }
    }

    @Test(arguments: Vectors.all + Self.decodeOnly)
    func everyStrictPrefixIsTruncatedNeverATrap(vector: MessageVector) throws {
        let bytes = try #require(Hex.bytes(vector.hex))
        for cut in 0..<bytes.count {
            do {
                _ = try NDEFMessage(bytes: Array(bytes.prefix(cut)))
                Issue.record("prefix of \(cut) bytes decoded")
            } catch {
                #expect(error.isTruncation, "prefix \(cut): \(error)")
            }
        }
    }

    /// Valid inputs the encoder never produces: chunks, long form for short payloads, a URI without its
    /// best prefix, a Smart Poster in another record order. (Every UTF-16 form is in `Vectors.text`.)
    static let decodeOnly: [MessageVector] = [
        MessageVector(
            "chunked Text", "B1 01 03 54 02 65 6E 36 00 02 48 69 56 00 01 21",
            [.text(NDEFText("Hi!", languageCode: "en"))]),
        MessageVector(
            "chunked unknown with ID then URI", "BD 00 01 01 49 AA 36 00 00 16 00 01 BB 51 01 02 55 04 61",
            [.unknown(payload: [0xAA, 0xBB]), .uri("https://a")], ids: [ascii("I"), []]),
        MessageVector(
            "chunked long first chunk", "A2 03 00 00 00 01 61 2F 62 01 56 00 02 02 03",
            [.mime(type: "a/b", payload: [0x01, 0x02, 0x03])]),
        MessageVector("long form for a short payload", "C1 01 00 00 00 02 55 04 61", [.uri("https://a")]),
        MessageVector("IL with zero-length ID", "D9 01 02 00 55 04 61", [.uri("https://a")]),
        MessageVector(
            "URI without best prefix", "D1 01 0B 55 00 68 74 74 70 3A 2F 2F 61 2E 62", [.uri("http://a.b")]),
        MessageVector(
            "Smart Poster with icon, title first",
            "D1 02 1C 53 70 91 01 05 54 02 65 6E 48 69 11 01 02 55 04 61 52 09 01 69 6D 61 67 65 2F 70 6E 67 00",
            [
                .smartPoster(
                    NDEFSmartPoster(
                        uri: "https://a", titles: [NDEFText("Hi", languageCode: "en")],
                        otherRecords: [NDEFPayload(format: .media, type: ascii("image/png"), payload: [0x00])]))
            ]),
    ]

    @Test(arguments: decodeOnly)
    func decodesInputTheEncoderNeverWrites(vector: MessageVector) throws {
        let bytes = try #require(Hex.bytes(vector.hex))
        let message = try NDEFMessage(bytes: bytes)
        #expect(try message.records.map { try $0.content() } == vector.contents)
        #expect(message.records.map(\.identifier) == vector.identifiers)
        #expect(try NDEFMessage(bytes: message.bytes) == message)
    }

    @Test func deeplyNestedSmartPostersAreRejected() throws {
        var payload = NDEFMessage(records: [.uri("https://a")]).bytes
        for _ in 0..<6 {
            payload =
                NDEFMessage(records: [NDEFPayload(format: .nfcWellKnown, type: ascii("Sp"), payload: payload)]).bytes
        }
        #expect(throws: NDEFError.self) { try NDEFMessage(bytes: payload) }
        do {
            _ = try NDEFMessage(bytes: payload)
        } catch {
            #expect(error.code == .nestingTooDeep)
        }
    }

    @Test func randomBytesNeverTrap() {
        var random = SeededGenerator(seed: 42)
        var decoded = 0
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...24, using: &random)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            if let first = bytes.first { bytes[0] = first | 0x80 }
            if (try? NDEFMessage(bytes: bytes)) != nil { decoded += 1 }
        }
        #expect(decoded < 5_000)
    }

    @Test func mutatedValidMessagesNeverTrap() throws {
        var random = SeededGenerator(seed: 7)
        for vector in Vectors.all {
            let bytes = try #require(Hex.bytes(vector.hex))
            for _ in 0..<20 {
                var copy = bytes
                copy[Int.random(in: 0..<copy.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                if let message = try? NDEFMessage(bytes: copy) {
                    #expect(try NDEFMessage(bytes: message.bytes) == message)
                }
            }
        }
    }
}
