import Foundation
import NDEF
import Testing

@Suite struct NDEFPayloadTests {
    @Test func coreNFCURIFactoryAndAccessorRoundTrip() throws {
        let url = try #require(URL(string: "https://example.com/p?u=1"))
        let record = try #require(NDEFPayload.wellKnownTypeURIPayload(url: url))
        #expect(record.typeNameFormat == .nfcWellKnown)
        #expect(record.type == ascii("U"))
        #expect(record.payload == [0x04] + ascii("example.com/p?u=1"))
        #expect(record.wellKnownTypeURIPayload() == url)
        #expect(NDEFPayload.wellKnownTypeURIPayload(string: "") == nil)
        #expect(NDEFPayload.wellKnownTypeURIPayload(string: "tel:+4930")?.payload == [0x05] + ascii("+4930"))
    }

    @Test func coreNFCTextFactoryAndAccessorRoundTrip() throws {
        let record = try #require(
            NDEFPayload.wellKnownTypeTextPayload(string: "Hallo", locale: Locale(identifier: "de_DE")))
        #expect(record.payload == [0x05] + ascii("de-DEHallo"))
        let (text, locale) = record.wellKnownTypeTextPayload()
        #expect(text == "Hallo")
        #expect(locale?.identifier.hasPrefix("de") == true)
    }

    @Test func accessorsReturnNilForOtherRecords() {
        #expect(NDEFPayload.unknown(payload: [1]).wellKnownTypeURIPayload() == nil)
        let (text, locale) = NDEFPayload.uri("https://a").wellKnownTypeTextPayload()
        #expect(text == nil && locale == nil)
    }

    @Test func externalFactoryLowerCasesOnlyTheDomain() throws {
        let record = try NDEFPayload.external("Example.COM:AuthToken", payload: [1])
        #expect(record.type == ascii("example.com:AuthToken"))
        #expect(record.typeNameFormat == .nfcExternal)
    }

    @Test(arguments: [
        ("text", NDEFError.Code.invalidMediaType, 0), ("text/", .invalidMediaType, 4), ("/plain", .invalidMediaType, 0),
        ("text/pl ain", .invalidMediaType, 7), ("text/plain;x", .invalidMediaType, 10),
    ])
    func mimeFactoryRejectsBadMediaTypes(mediaType: String, code: NDEFError.Code, offset: Int) {
        do {
            _ = try NDEFPayload.mime(mediaType, payload: [])
            Issue.record("accepted \(mediaType)")
        } catch {
            #expect(error.code == code)
            #expect(error.offset == offset)
        }
    }

    @Test(arguments: ["application/json", "text/vnd.example+xml", "image/svg+xml", "application/x-foo.bar"])
    func mimeFactoryAcceptsRFC2046Types(mediaType: String) throws {
        #expect(try NDEFPayload.mime(mediaType, payload: [1]).type == ascii(mediaType))
    }

    @Test(arguments: ["example.com", ":auth", "example.com:", "exa mple.com:a", "ex_ample.com:a", "a:b c"])
    func externalFactoryRejectsBadNames(name: String) {
        #expect(throws: NDEFError.self) { try NDEFPayload.external(name, payload: []) }
    }

    @Test func textFactoryRejectsBadLanguageCodes() throws {
        #expect(throws: NDEFError.self) { try NDEFPayload.text("x", languageCode: "") }
        #expect(throws: NDEFError.self) { try NDEFPayload.text("x", languageCode: String(repeating: "a", count: 64)) }
        #expect(throws: NDEFError.self) { try NDEFPayload.text("x", languageCode: "é") }
        #expect(try NDEFPayload.text("x", languageCode: String(repeating: "a", count: 63)).payload.first == 63)
    }

    @Test func otherFactoriesValidateNames() {
        #expect(throws: NDEFError.self) { try NDEFPayload.wellKnown("", payload: []) }
        #expect(throws: NDEFError.self) { try NDEFPayload.wellKnown("a b", payload: []) }
        #expect(throws: NDEFError.self) { try NDEFPayload.absoluteURI("", payload: []) }
        #expect(throws: NDEFError.self) { try NDEFPayload.absoluteURI("a b", payload: []) }
    }

    @Test func contentRejectsHandBuiltInvalidRecords() {
        let cases: [(NDEFPayload, NDEFError.Code)] = [
            (NDEFPayload(format: .unchanged, type: [], payload: []), .unchangedOutsideChunk),
            (NDEFPayload(format: .reserved, type: [], payload: []), .reservedTNF),
            (NDEFPayload(format: .empty, type: [], payload: [1]), .emptyRecordNotEmpty),
            (NDEFPayload(format: .media, type: [], payload: []), .missingType),
            (NDEFPayload(format: .unknown, type: [1], payload: []), .unknownWithType),
            (
                NDEFPayload(format: .unknown, type: [], identifier: Array(repeating: 1, count: 256), payload: []),
                .fieldTooLong
            ),
        ]
        for (record, code) in cases {
            #expect(throws: NDEFError.self) { try record.content() }
            do {
                _ = try record.content()
            } catch {
                #expect(error.code == code)
            }
        }
    }

    @Test func typeNameFormatsUseCoreNFCNamesAndNumbers() {
        #expect(NDEFTypeNameFormat.allCases.map(\.rawValue) == Array(0...7))
        #expect(
            NDEFTypeNameFormat.allCases.map(\.description) == [
                "empty", "nfcWellKnown", "media", "absoluteURI", "nfcExternal", "unknown", "unchanged", "reserved",
            ])
    }

    @Test func errorsCompareByCodeAndOffset() {
        let a = NDEFError(.truncatedPayload, at: 12, "one")
        #expect(a == NDEFError(.truncatedPayload, at: 12, "two"))
        #expect(a != NDEFError(.truncatedPayload, at: 13, "one"))
        #expect(a.description == "truncatedPayload at byte 12: one")
    }
}
