import NFCTags
import Testing

/// File settings with SDM both ways against AN12196's settings, and the chip's `91 9E` rules (`type4-ntag424.md`
/// §2.7, §3).
@Suite struct NTAG424FileSettingsTests {
    static let hex = NTAG424SecureMessagingTests.hex
    typealias Settings = NTAG424FileSettings

    /// AN12196 Table 19: SDM on, plain; Read E, Write/RW/Change 0; UID + counter; MetaRead 2, FileRead 1, CtrRet 1.
    static let table19 = Settings(
        read: 0xE, write: 0, readWrite: 0, change: 0,
        sdm: .init(
            metaRead: 2, fileRead: 1, counterRetrieval: 1, piccDataOffset: 0x20, macInputOffset: 0x43, macOffset: 0x43))

    /// AN12196 Table 8 (vector B): everything free, UID + counter + ENC file data, keys 0.
    static let table8 = Settings(
        read: 0xE, write: 0xE, readWrite: 0xE, change: 0xE,
        sdm: .init(
            metaRead: 0, fileRead: 0, counterRetrieval: 0xE, piccDataOffset: 0x1F, macInputOffset: 0x44,
            macOffset: 0x6A, encOffset: 0x44, encLength: 0x20))

    @Test(arguments: [
        (table19, "4000E0C1F121200000430000430000"),
        (table8, "40EEEED1FE001F00004400004400002000006A0000"),
        (Settings(read: 0xE, write: 0xE, readWrite: 0xE, change: 0), "00E0EE"),
    ])
    func encodesAndDecodesTheWireForm(settings: Settings, wire: String) {
        #expect(settings.bytes == Self.hex(wire))
        #expect(Settings(bytes: Self.hex(wire)) == settings)
        #expect(settings.sdmRefusal(fileSize: 256) == nil)
    }

    @Test func plainMirrorsCarryTheirOffsetsAndAnUnmirroredCounterIsFFFFFF() {
        let plain = Settings(
            read: 0xE, write: 0, readWrite: 0, change: 0,
            sdm: .init(
                metaRead: 0xE, fileRead: 2, uidOffset: 0x20, counterOffset: 0x2F, macInputOffset: 0x20, macOffset: 0x40)
        )
        #expect(plain.bytes == Self.hex("4000E0C1FFE2200000" + "2F0000" + "200000" + "400000"))
        #expect(Settings(bytes: plain.bytes) == plain)
        var counted = plain
        counted.sdm?.counterOffset = nil
        #expect(Array(counted.bytes[9..<12]) == [0xFF, 0xFF, 0xFF])
        #expect(counted.mirrorWindows.map(\.name) == ["UID mirror", "SDMMAC"])
    }

    @Test func getFileSettingsAnswersOfTheFactoryFilesDecode() throws {
        let file2 = try #require(Settings.parse(getFileSettings: Self.hex("0000E0EE000100")))
        #expect(file2.fileSize == 256 && file2.settings == Settings(read: 0xE, write: 0xE, readWrite: 0xE, change: 0))
        let file3 = try #require(Settings.parse(getFileSettings: Self.hex("00033023800000")))
        #expect(file3.fileSize == 128 && file3.settings.communicationMode == 3 && file3.settings.read == 2)
        #expect(Settings.parse(getFileSettings: Self.hex("0040E0EE000100C1")) == nil, "SDM block cut short")
        #expect(Settings(bytes: Self.hex("00E0EE00")) == nil, "a byte left over")
    }

    @Test func theChipsParameterRulesRefuseBadLayouts() {
        func refusal(_ change: (inout Settings.SDM) -> Void, counter: Int = 0) -> String? {
            var settings = Self.table19
            change(&settings.sdm!)
            return settings.sdmRefusal(fileSize: 256, counter: counter)
        }
        #expect(
            refusal {
                $0.mirrorsUID = false
                $0.mirrorsCounter = false
            }?.contains("neither UID") == true)
        #expect(refusal { $0.metaRead = 0xF }?.contains("UID mirror needs") == true)
        #expect(refusal { $0.mirrorsCounter = false }?.contains("SDMCtrRet") == true)
        #expect(refusal { $0.macOffset = 0x30 }?.contains("overlaps") == true, "MAC inside PICCData")
        #expect(refusal { $0.macInputOffset = 0x44 }?.contains("after SDMMACOffset") == true)
        #expect(refusal { $0.macOffset = 0xF8 }?.contains("runs past") == true)
        #expect(refusal { $0.counterLimit = 5 }.map { _ in true } == nil)
        #expect(refusal({ $0.counterLimit = 5 }, counter: 5)?.contains("not above") == true)
        #expect(
            refusal {
                $0.encOffset = 0x43
                $0.encLength = 0x10
            }?.contains("multiple of 32") == true)
        #expect(
            refusal {
                $0.encOffset = 0x50
                $0.encLength = 0x20
            }?.contains("overlaps") == true)
        var table8 = Self.table8
        table8.sdm?.macInputOffset = 0x45
        #expect(table8.sdmRefusal(fileSize: 256)?.contains("does not cover") == true)
    }
}
