import NDEF
import NFCTags
import Testing

/// SUN in AES mode: PICCData, the SDM session keys, SDMMAC and SDMENCFileData against AN12196 Tables 2–6
/// and the Bolt card vectors (`docs/reference/type4.md` §3.3–§3.7).
@Suite struct SUNCryptoTests {
    static let hex = NTAG424SecureMessagingTests.hex

    @Test func piccDataOfTheAN12196Example() throws {
        let data = try #require(
            try SUNCrypto.decryptPICCData(metaReadKey: AES128Zero.key, Self.hex("EF963FF7828658A599F3041510671E88")))
        #expect(data == PICCData(tag: 0xC7, uid: Self.hex("04DE5F1EACC040"), counter: 61))
    }

    @Test func sdmSessionKeysOfTable2() throws {
        let key = Self.hex("5ACE7E50AB65D5D51FD5BF5A16B8205B")
        let uid = Self.hex("04C767F2066180")
        #expect(
            try SUNCrypto.encryptionKey(fileReadKey: key, uid: uid, counter: 1)
                == Self.hex("66DA61797E23DECA5D8ECA13BBADF7A9"))
        #expect(
            try SUNCrypto.macKey(fileReadKey: key, uid: uid, counter: 1) == Self.hex("3A3E8110E05311F7A3FCF0D969BF2B48")
        )
    }

    @Test func sdmMACOverAnEmptyInput() throws {
        let macKey = try SUNCrypto.macKey(fileReadKey: AES128Zero.key, uid: Self.hex("04DE5F1EACC040"), counter: 0x3D)
        #expect(macKey == Self.hex("3FB5F6E3A807A03D5E3570ACE393776F"))
        #expect(try SUNCrypto.sdmMAC(macKey: macKey, input: []) == Self.hex("94EED9EE65337086"))
    }

    @Test func sdmMACOverTheEncryptedFileDataAndItsParameterName() throws {
        let macKey = try SUNCrypto.macKey(fileReadKey: AES128Zero.key, uid: Self.hex("04958CAA5C5E80"), counter: 8)
        #expect(macKey == Self.hex("3ED0920E5E6A0320D823D5987FEAFBB1"))
        let input = Array("CEE9A53E3E463EF1F459635736738962&cmac=".utf8)
        #expect(try SUNCrypto.sdmMAC(macKey: macKey, input: input) == Self.hex("ECC1E7F6C6C73BF6"))
    }

    @Test func encryptedFileDataDecryptsToItsPlaceholder() throws {
        let key = try SUNCrypto.encryptionKey(fileReadKey: AES128Zero.key, uid: Self.hex("04958CAA5C5E80"), counter: 1)
        #expect(key == Self.hex("8097D73344D53F963B09E23E03B62336"))
        let plain = try SUNCrypto.decryptFileData(
            encryptionKey: key, counter: 1, Self.hex("94592FDE69FA06E8E3B6CA686A22842B"))
        #expect(plain == [UInt8](repeating: 0x78, count: 16))
    }

    @Test(arguments: [
        ("4E2E289D945A66BB13377A728884E867", 3, "E19CCB1FED8892CE"),
        ("00F48C4F8E386DED06BCDC78FA92E2FE", 5, "66B4826EA4C155B4"),
        ("0DBF3C59B59B0638D60B5842A997D4D1", 7, "CC61660C020B4D96"),
    ])
    func boltCardTapsVerify(p: String, counter: UInt32, c: String) throws {
        let k1 = Self.hex("0c3b25d92b38ae443229dd59ad34b85d")
        let k2 = Self.hex("b45775776cb224c75bcde7ca3704e933")
        let data = try #require(try SUNCrypto.decryptPICCData(metaReadKey: k1, Self.hex(p)))
        #expect(data.tag == 0xC7 && data.uid == Self.hex("04996C6A926980") && data.counter == counter)
        let macKey = try SUNCrypto.macKey(fileReadKey: k2, uid: data.uid, counter: data.counter)
        if counter == 3 { #expect(macKey == Self.hex("F25C4B5CE6AB3FF405F287AFAC4E4D1A")) }
        #expect(try SUNCrypto.sdmMAC(macKey: macKey, input: []) == Self.hex(c))
    }

    @Test func aCryptogramUnderTheWrongKeyIsNotPICCData() throws {
        let wrong = [UInt8](repeating: 0x11, count: 16)
        let decoded = try SUNCrypto.decryptPICCData(metaReadKey: wrong, Self.hex("EF963FF7828658A599F3041510671E88"))
        #expect(decoded == nil || decoded?.tag != 0xC7)
    }
}
