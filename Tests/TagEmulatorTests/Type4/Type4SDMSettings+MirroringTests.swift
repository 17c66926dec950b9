import Crypto
import NDEF
import NFCTags
import TagEmulator
import TestSupport
import Testing

/// SUN mirrors as they leave the chip (`docs/reference/type4.md` §3.2–3.7): AN12196's and the Bolt card's vectors,
/// and the host's `SUNCrypto` verifying what the emulator wrote.
@Suite struct Type4SDMSettingsMirroringTests {
    static let zeroKey = [UInt8](repeating: 0, count: 16)

    /// The static NDEF file of AN12196 Table 6: NLEN, a URI record (`https://www.`) with placeholders.
    static func an12196File() -> [UInt8] {
        let text =
            "my424dna.com/?picc_data=" + String(repeating: "0", count: 32) + "&enc="
            + String(repeating: "x", count: 16) + String(repeating: "0", count: 16) + "&cmac="
            + String(repeating: "0", count: 16)
        return [0x00, 0x78, 0xD1, 0x01, 0x74, 0x55, 0x02] + Array(text.utf8)
    }

    /// AN12196 Table 6's settings: UID, counter and encrypted file data; every key 0.
    static let an12196Settings = Type4SDMSettings.fields(
        (true, true, true), meta: .key(0), file: .key(0), counterRight: .free, offsets: [0x1F, 0x44, 0x44, 0x20, 0x6A])

    /// AN12196 Table 6 byte for byte: UID `04958CAA5C5E80`, SDMReadCtr 8, random padding `A243C86DFC`.
    @Test func an12196Table6GoldenURL() throws {
        let out = try Self.an12196Settings.mirrored(
            Self.an12196File(), uid: try hex("04958CAA5C5E80"), counter: 8, padding: try hex("A243C86DFC")
        ) { _ in Self.zeroKey }
        let expected =
            "my424dna.com/?picc_data=FD91EC264309878BE6345CBE53BADF40"
            + "&enc=CEE9A53E3E463EF1F459635736738962&cmac=ECC1E7F6C6C73BF6"
        #expect(String(decoding: out[7...], as: UTF8.self) == expected)
        #expect(out.prefix(7) == Self.an12196File().prefix(7))
    }

    /// AN12196 Table 4: the encrypted file data and its SDMMAC do not depend on PICCData's padding.
    @Test func an12196Table4EncryptedFileData() throws {
        let out = try Self.an12196Settings.mirrored(
            Self.an12196File(), uid: try hex("04958CAA5C5E80"), counter: 1, padding: [1, 2, 3, 4, 5]
        ) { _ in Self.zeroKey }
        let text = String(decoding: out[7...], as: UTF8.self)
        #expect(text.hasSuffix("&enc=94592FDE69FA06E8E3B6CA686A22842B&cmac=C48B89C17A233B2C"))
        let picc = try #require(Hex.bytes(text.dropFirst(24).prefix(32)))
        let data = try #require(try SUNCrypto.decryptPICCData(metaReadKey: Self.zeroKey, picc))
        #expect(data == PICCData(tag: 0xC7, uid: try hex("04958CAA5C5E80"), counter: 1))
    }

    /// AN12196 Tables 3 and 5: PICCData and an SDMMAC over the empty input (SDMMACInputOffset = SDMMACOffset).
    @Test func an12196Tables3And5EmptyMACInput() throws {
        let settings = Type4SDMSettings.fields(
            (true, true, false), meta: .key(0), file: .key(0), counterRight: .never, offsets: [0, 32, 32])
        let out = try settings.mirrored(
            [UInt8](repeating: 0x30, count: 48), uid: try hex("04DE5F1EACC040"), counter: 0x3D,
            padding: try hex("DA5CF60941")
        ) { _ in Self.zeroKey }
        #expect(String(decoding: out, as: UTF8.self) == "EF963FF7828658A599F3041510671E88" + "94EED9EE65337086")
    }

    /// The Bolt card vectors (boltcard `docs/TEST_VECTORS.md`): K1 encrypts `p=`, K2 MACs `c=`.
    @Test func boltCardVector() throws {
        let keys = [1: try hex("0c3b25d92b38ae443229dd59ad34b85d"), 2: try hex("b45775776cb224c75bcde7ca3704e933")]
        let settings = Type4SDMSettings.fields(
            (true, true, false), meta: .key(1), file: .key(2), counterRight: .never, offsets: [0x2A, 0x4F, 0x4F])
        let url =
            "lnurlw://card.example/ln?p=" + String(repeating: "0", count: 32) + "&c="
            + String(repeating: "0", count: 16)
        var file = [UInt8](repeating: 0, count: 0x2A - 27) + Array(url.utf8)
        file += [UInt8](repeating: 0, count: 128 - file.count)
        let out = try settings.mirrored(
            file, uid: try hex("04996C6A926980"), counter: 3, padding: try hex("023FB5F34A")
        ) { keys[Int($0)] ?? [] }
        #expect(String(decoding: out[0x2A..<0x4A], as: UTF8.self) == "4E2E289D945A66BB13377A728884E867")
        #expect(String(decoding: out[0x4F..<0x5F], as: UTF8.self) == "E19CCB1FED8892CE")
        #expect(out[..<0x2A] == file[..<0x2A] && out[0x5F...] == file[0x5F...])
    }

    @Test func plainMirrorsAreUpperCaseHexCounterMostSignificantFirst() throws {
        let settings = Type4SDMSettings.fields(
            (true, true, false), meta: .free, file: .key(2), counterRight: .free, offsets: [0x10, 0x1F, 0x10, 0x26])
        let fileKey = try hex("00112233445566778899AABBCCDDEEFF")
        let uid = try hex("04A1B2C3D4E5F6")
        let out = try settings.mirrored(
            [UInt8](repeating: 0x2E, count: 64), uid: uid, counter: 0x0A1B2C, padding: []
        ) { $0 == 2 ? fileKey : Self.zeroKey }
        #expect(String(decoding: out[0x10..<0x1E], as: UTF8.self) == "04A1B2C3D4E5F6")
        #expect(String(decoding: out[0x1F..<0x25], as: UTF8.self) == "0A1B2C")
        #expect(out[0x1E] == 0x2E && out[0x25] == 0x2E)
        let macKey = try SUNCrypto.macKey(fileReadKey: fileKey, uid: uid, counter: 0x0A1B2C)
        let mac = try SUNCrypto.sdmMAC(macKey: macKey, input: Array(out[0x10..<0x26]))
        #expect(String(decoding: out[0x26..<0x36], as: UTF8.self) == Hex.compact(mac))
    }

    @Test func piccDataTagAndPaddingFollowWhatIsMirrored() {
        var settings = Type4SDMSettings()
        settings.mirrorsUID = true
        settings.mirrorsReadCounter = true
        #expect(settings.piccDataTag == 0xC7 && settings.piccDataPaddingLength == 5)
        settings.mirrorsReadCounter = false
        #expect(settings.piccDataTag == 0x87 && settings.piccDataPaddingLength == 8)
        settings.mirrorsUID = false
        settings.mirrorsReadCounter = true
        #expect(settings.piccDataTag == 0x40 && settings.piccDataPaddingLength == 12)
    }
}
