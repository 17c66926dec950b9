import NDEF
import NFCTags
import TestSupport
import Testing

/// The SDM block of ChangeFileSettings/GetFileSettings both ways (`docs/reference/type4.md` §2.7), and its
/// malformed forms.
@Suite struct Type4SDMSettingsTests {
    static func hex(_ text: String) throws -> [UInt8] { try #require(Hex.bytes(text)) }

    /// Settings from their fields (`Type4SDMSettings.fields`, TestSupport).
    static func sdm(
        _ options: (uid: Bool, counter: Bool, enc: Bool), meta: Type4FileSettings.Access,
        file: Type4FileSettings.Access, counterRight: Type4FileSettings.Access, offsets: [Int], limit: UInt32? = nil
    ) -> Type4SDMSettings {
        .fields(options, meta: meta, file: file, counterRight: counterRight, offsets: offsets, limit: limit)
    }

    static let vectors: [(String, Type4SDMSettings)] = [
        // AN12196 Table 19: UID and counter in PICCData under key 2, SDMMAC under key 1, CtrRet key 1.
        (
            "C1 F121 200000 430000 430000",
            sdm((true, true, false), meta: .key(2), file: .key(1), counterRight: .key(1), offsets: [0x20, 0x43, 0x43])
        ),
        // AN12196 Tables 6 and 8: encrypted file data, all keys 0, CtrRet free.
        (
            "D1 FE00 1F0000 440000 440000 200000 6A0000",
            sdm(
                (true, true, true), meta: .key(0), file: .key(0), counterRight: .free,
                offsets: [0x1F, 0x44, 0x44, 0x20, 0x6A])
        ),
        // Bolt card: K1 meta read, K2 file read, CtrRet F, empty MAC input.
        (
            "C1 FF12 2A0000 4F0000 4F0000",
            sdm((true, true, false), meta: .key(1), file: .key(2), counterRight: .never, offsets: [0x2A, 0x4F, 0x4F])
        ),
        // Plain UID and counter mirrors, SDMMAC under key 2.
        (
            "C1 FEE2 100000 1F0000 100000 260000",
            sdm(
                (true, true, false), meta: .free, file: .key(2), counterRight: .free, offsets: [0x10, 0x1F, 0x10, 0x26])
        ),
        // A read-counter limit of 1000.
        (
            "E1 FF12 200000 430000 430000 E80300",
            sdm(
                (true, true, false), meta: .key(1), file: .key(2), counterRight: .never, offsets: [0x20, 0x43, 0x43],
                limit: 1000)
        ),
        // Counter only, counted but not mirrored.
        (
            "41 FEEF FFFFFF",
            sdm((false, true, false), meta: .free, file: .never, counterRight: .free, offsets: [0xFF_FFFF])
        ),
    ]

    @Test(arguments: vectors)
    func decodesAndEncodesTheWireForm(wire: String, settings: Type4SDMSettings) throws {
        let bytes = try Self.hex(wire)
        let file = Type4FileSettings(communicationMode: .plain, accessRights: 0xE0EE, sdm: settings)
        #expect(settings.encoded == bytes)
        #expect(file.encoded == [0x40, 0xEE, 0xE0] + bytes)
        #expect(try Type4FileSettings(decoding: [0x40, 0xEE, 0xE0] + bytes, sdmCapable: true) == file)
        #expect(file.fileSettingsAnswer(fileSize: 256) == [0x00, 0x40, 0xEE, 0xE0, 0x00, 0x01, 0x00] + bytes)
    }

    @Test(arguments: vectors.map(\.0))
    func everyStrictPrefixIsALengthErrorAndATrailingByteToo(wire: String) throws {
        let whole = [0x40, 0xEE, 0xE0] + (try Self.hex(wire))
        for cut in 0..<whole.count {
            #expect(throws: Type4FileSettingsError.length) {
                try Type4FileSettings(decoding: Array(whole.prefix(cut)), sdmCapable: true)
            }
        }
        #expect(throws: Type4FileSettingsError.length) {
            try Type4FileSettings(decoding: whole + [0], sdmCapable: true)
        }
    }

    @Test(arguments: [
        ("40 EEE0 C3 FF12 200000 430000 430000", "SDMOptions RFU bits 3–1 set"),
        ("40 EEE0 C0 FF12 200000 430000 430000", "SDMOptions: only ASCII encoding is supported"),
        ("40 EEE0 C1 FF52 200000 430000 430000", "SDM access nibble 5 names no key"),
        ("C0 EEE0", "FileOption RFU bits set"),
        ("00 EE70", "access nibble 7 names no key"),
    ])
    func malformedSettingsAreParameterErrors(wire: String, reason: String) throws {
        #expect(throws: Type4FileSettingsError.parameter(reason)) {
            try Type4FileSettings(decoding: try Self.hex(wire), sdmCapable: true)
        }
    }

    @Test func sdmOnAFileThatCannotHaveItIsAPermissionError() throws {
        #expect(throws: Type4FileSettingsError.permission) {
            try Type4FileSettings(decoding: try Self.hex("40 EEE0 C1 FF12 200000 430000 430000"), sdmCapable: false)
        }
    }
}
