import Crypto
import NDEF
import Synchronization
import Testing

@testable import NFCTags

/// SUN as the NTAG 424 DNA's `DynamicMessageScheme` (`docs/reference/type4.md` §3): its tokens, the template rules,
/// the layout it computes from message offsets, the tap layout from template strings, tap verification and the
/// read-back check through the neutral seam.
@Suite struct SUNSchemeTests {
    static let scheme = SUNScheme()
    static let zeroKeys: TagKeys = { _ in
        (0..<5).map { SecretKey(id: "k\($0)", bytes: [UInt8](repeating: 0, count: 16)) }
    }

    @Test(arguments: [
        ("sun.picc", 32, SUNToken.picc), ("sun.mac", 16, .mac), ("sun.uid", 14, .uid), ("sun.counter", 6, .counter),
    ])
    func aTokenIsTheSchemesDeclaredPlaceholderBothWays(name: String, length: Int, token: SUNToken) {
        let declared = DynamicToken(name: name, length: length)
        #expect(token.token == declared && SUNToken(declared) == token)
        #expect(Self.scheme.tokens.contains(declared) && declared.written == "{{\(name)}}")
    }

    @Test(arguments: [
        DynamicToken(name: "sun.mac", length: 15), DynamicToken(name: "sun.foo", length: 16),
        DynamicToken(name: "other.mac", length: 16),
    ])
    func anotherSchemesOrAMisSizedTokenIsNotSUN(token: DynamicToken) {
        #expect(SUNToken(token) == nil)
    }

    @Test(arguments: [
        ([SUNToken.picc], 0, "needs {{sun.mac}}"),
        ([.mac], 0, "for its session key"),
        ([.picc, .uid, .mac], 1, "cannot be in one template with {{sun.picc}}"),
    ])
    func theSchemesRulesNameTheTokenTheyRefuse(tokens: [SUNToken], index: Int, message: String) throws {
        let problem = try #require(Self.scheme.problem(with: tokens.map(\.token)))
        #expect(problem.token == index && problem.description.contains(message), "\(problem)")
    }

    @Test(arguments: [[SUNToken.picc, .mac], [.uid, .counter, .mac], [.uid]])
    func acceptedTokenSetsHaveNoProblem(tokens: [SUNToken]) {
        #expect(Self.scheme.problem(with: tokens.map(\.token)) == nil)
    }

    @Test func theLayoutPutsTheWindowsAfterNLENWithTheJobsRights() throws {
        let options = DynamicMessageOptions(rights: .key, macCoversMessage: false)
        let messageOffsets = [SUNToken.uid.token: 10, SUNToken.mac.token: 30]
        let layout = try #require(Self.scheme.layout(messageOffsets: messageOffsets, options: options) as? SUNLayout)
        #expect(layout.offsets == [.uid: 12, .mac: 32] && layout.refusal() == nil)
        let settings = layout.fileSettings
        #expect(settings.write == .key(3) && settings.change == .key(0) && settings.sdm?.macInputOffset == 32)
        #expect(layout.settingsAnswer == settings.fileSettingsAnswer(fileSize: 256))
        // The MAC before the PICC data: the chip refuses SDMMACInputOffset > SDMMACOffset (91 9E).
        let backwards = Self.scheme.layout(
            messageOffsets: [SUNToken.mac.token: 10, SUNToken.picc.token: 40],
            options: DynamicMessageOptions(rights: .never, macCoversMessage: true))
        #expect(backwards.refusal()?.contains("SDMMACInputOffset") == true)
    }

    @Test(arguments: [true, false])
    func theTapLayoutIsTheQueryNamesBeforePICCAndMAC(covers: Bool) throws {
        let strings: [[DynamicTemplatePart]] = [
            [.literal("https://e.io/"), .other, .literal("?p="), .token(SUNToken.picc.token, index: 0)]
                + [.literal("&m="), .token(SUNToken.mac.token, index: 1)]
        ]
        let options = DynamicMessageOptions(rights: .never, macCoversMessage: covers)
        let layout = try Self.scheme.tapLayout(strings: strings, options: options)
        #expect(layout as? SUNURLLayout == SUNURLLayout(picc: "p", mac: "m", macInput: covers ? .picc : .empty))
        #expect(layout.masked("https://e.io/x?p=AB&m=CD#f") == "https://e.io/x?p=00&m=00#f")
    }

    @Test func aTokenOutsideAQueryParameterIsRefusedAtItsIndex() {
        let strings: [[DynamicTemplatePart]] = [
            [.literal("https://e.io/"), .token(SUNToken.picc.token, index: 0), .literal("?m=")]
                + [.token(SUNToken.mac.token, index: 1)]
        ]
        let options = DynamicMessageOptions(rights: .never, macCoversMessage: true)
        let problem = #expect(throws: DynamicMessageProblem.self) {
            try Self.scheme.tapLayout(strings: strings, options: options)
        }
        #expect(problem?.token == 0 && problem?.description.contains("must be the value of a query parameter") == true)
    }

    @Test(
        arguments: [
            ("https://e.io/?p=", "p"), ("https://e.io/t?x=1&cmac=", "cmac"), ("?picc_data=", "picc_data"),
            ("https://e.io/p=", nil), ("https://e.io/?=", nil), ("https://e.io/?p", nil), ("https://e.io/?a=b=", nil),
        ] as [(String, String?)])
    func aTokensParameterNameIsTheQueryNameBeforeIt(literal: String, name: String?) {
        #expect(SUNScheme.parameterName(endingWith: literal) == name)
    }

    /// NXP's AN12196 URL (keys zero, MAC over nothing) through the seam: UID `04DE5F1EACC040`, counter 61.
    @Test func aTapIsVerifiedWithTheTagsKeysByNumber() {
        let url = "https://ntag.nxp.com/424?e=EF963FF7828658A599F3041510671E88&c=94EED9EE65337086"
        let layout = SUNURLLayout(picc: "e", mac: "c", macInput: .empty)
        let asked = Mutex<[Int]>([])
        let result = Self.scheme.verifyTap(url, layout: layout) { uid, number in
            asked.withLock { $0.append(number) }
            return try Self.zeroKeys(uid)[number]
        }
        #expect(result.isValid && result.uid == Hex.bytes("04DE5F1EACC040") && result.counter == 61, "\(result)")
        #expect(asked.withLock { $0 } == [1, 2], "K1 for the PICC data, then the tag's K2 for the MAC: no other key")
        let refused: TagKey = { _, _ in throw AES128Error.keyLength(15) }
        #expect(!Self.scheme.verifyTap(url, layout: layout, key: refused).isValid)
        #expect(throws: AES128Error.self) { try Self.scheme.checkKeys(refused) }
    }

    /// A plain UID mirror read back: bytes outside the window must be what the job wrote, the window this tag's UID.
    @Test func theReadBackComparesTheBytesAndTheMirroredUID() throws {
        let uid: [UInt8] = [0x04, 0xDE, 0x5F, 0x1E, 0xAC, 0xC0, 0x40]
        let layout = Self.scheme.layout(
            messageOffsets: [SUNToken.uid.token: 0],
            options: DynamicMessageOptions(rights: .free, macCoversMessage: true))
        let written = Array(String(repeating: "0", count: 14).utf8) + Array("/x".utf8)
        let keys = try Self.zeroKeys(uid)
        let read = Array("04DE5F1EACC040/x".utf8)
        #expect(try layout.checkReadBack(read, written: written, uid: uid, keys: keys, counter: nil) == nil)
        #expect(throws: DynamicMessageProblem.self) {
            try layout.checkReadBack(
                Array("04DE5F1EACC040/y".utf8), written: written, uid: uid, keys: keys, counter: nil)
        }
        #expect(throws: DynamicMessageProblem.self) {
            try layout.checkReadBack(
                read, written: written, uid: [0x04] + [UInt8](repeating: 1, count: 6), keys: keys, counter: nil)
        }
    }
}
