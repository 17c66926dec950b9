import Crypto
import NDEF
import NFCTags
import Testing

/// Session keys, MACs, IVs and padding against AN12196's vectors (`docs/reference/type4.md` §2.4–§2.7).
@Suite struct NTAG424SecureMessagingTests {
    static func hex(_ text: String) -> [UInt8] { Hex.bytes(text) ?? [] }

    @Test func sessionKeysOfTheAN12196FirstAuthentication() throws {
        let keys = try NTAG424SecureMessaging.sessionKeys(
            key: AES128Zero.key, rndA: Self.hex("13C5DB8A5930439FC3DEF9A4C675360F"),
            rndB: Self.hex("B9E2FC789B64BF237CCCAA20EC7E6E48"))
        #expect(keys.encryption == Self.hex("1309C877509E5A215007FF0ED19CA564"))
        #expect(keys.mac == Self.hex("4C6626F5E72EA694202139295C7A7FC7"))
    }

    @Test func getFileSettingsInMACModeBothWays() throws {
        let session = NTAG424SecureMessaging(
            encryptionKey: AES128Zero.key, macKey: Self.hex("8248134A386E86EB7FAF54A52E536CB6"),
            transactionIdentifier: Self.hex("7A21085E"))
        #expect(try session.commandMAC(command: 0xF5, header: [0x02], data: []) == Self.hex("6597A457C8CD442C"))
        let data = Self.hex("0040EEEE000100D1FE001F00004400004400002000006A0000")
        #expect(try session.responseMAC(data: data) == Self.hex("2A474282E7A47986"))
    }

    @Test func writeDataInFullModeTheIVAndTheMAC() throws {
        let session = NTAG424SecureMessaging(
            encryptionKey: Self.hex("1309C877509E5A215007FF0ED19CA564"),
            macKey: Self.hex("4C6626F5E72EA694202139295C7A7FC7"), transactionIdentifier: Self.hex("9D00C4DF"))
        #expect(try session.commandIV() == Self.hex("D2CB7277A17841A06654A48188C1F8F5"))
        // The response to it: MACt over 00 ‖ CmdCtr+1 ‖ TI with no data.
        #expect(try session.responseMAC(data: []) == Self.hex("FC222E5F7A542452"))
    }

    @Test func changeFileSettingsInFullModeEncryptsAndMACsTheAN12196Way() throws {
        var session = NTAG424SecureMessaging(
            encryptionKey: Self.hex("1309C877509E5A215007FF0ED19CA564"),
            macKey: Self.hex("4C6626F5E72EA694202139295C7A7FC7"), transactionIdentifier: Self.hex("9D00C4DF"))
        session.advance()
        #expect(session.commandCounter == 1)
        #expect(try session.commandIV() == Self.hex("3E27082AB2ACC1EF55C57547934E9962"))
        let settings = Self.hex("40 00E0 C1 F121 200000 430000 430000")
        let cryptogram = try session.encryptCommandData(settings)
        #expect(cryptogram == Self.hex("61B6D97903566E84C3AE5274467E89EA"))
        #expect(try session.commandMAC(command: 0x5F, header: [0x02], data: cryptogram) == Self.hex("D799B7C1A0EF7A04"))
        #expect(try session.responseMAC(data: []) == Self.hex("57BFF87B1241E93D"))
        // And back: the tag's view decrypts its own padding away.
        let plain = try AES128Zero.decrypt(key: session.encryptionKey, iv: try session.commandIV(), cryptogram)
        #expect(NTAG424SecureMessaging.unpadded(plain) == settings)
    }

    @Test(arguments: [0, 1, 15, 16, 17, 31, 32])
    func paddingIsMethod2AndRoundTrips(count: Int) {
        let data = [UInt8](repeating: 0xAB, count: count)
        let padded = NTAG424SecureMessaging.padded(data)
        #expect(padded.count % 16 == 0 && padded.count > count && padded[count] == 0x80)
        #expect(NTAG424SecureMessaging.unpadded(padded) == data)
    }

    @Test func malformedPaddingIsRefused() {
        #expect(NTAG424SecureMessaging.unpadded([UInt8](repeating: 0, count: 16)) == nil)
        #expect(NTAG424SecureMessaging.unpadded([0x80] + [UInt8](repeating: 0, count: 31)) == nil)
        #expect(NTAG424SecureMessaging.unpadded([UInt8](repeating: 0x11, count: 16)) == nil)
    }

    @Test func macTruncationTakesTheOddBytes() {
        #expect(
            NTAG424SecureMessaging.truncated(Self.hex("B565AC978FA46D5784C845CD1444102C"))
                == Self.hex("6597A457C8CD442C"))
    }
}

/// The all-zero factory key and a CBC decryption for checking cryptograms from the tag's side.
enum AES128Zero {
    static let key = [UInt8](repeating: 0, count: 16)
    static func decrypt(key: [UInt8], iv: [UInt8], _ data: [UInt8]) throws -> [UInt8] {
        try AES128.decryptCBC(key: key, iv: iv, data)
    }
}
