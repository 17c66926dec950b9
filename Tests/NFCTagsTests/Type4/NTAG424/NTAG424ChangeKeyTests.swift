import NDEF
import NFCTags
import Testing

/// ChangeKey's data field against AN12196 Tables 26 and 27 (`docs/reference/type4.md` §2.8).
@Suite struct NTAG424ChangeKeyTests {
    static let hex = NTAG424SecureMessagingTests.hex
    static func session(counter: UInt16) -> NTAG424SecureMessaging {
        NTAG424SecureMessaging(
            encryptionKey: hex("4CF3CB41A22583A61E89B158D252FC53"), macKey: hex("5529860B2FC5FB6154B7F28361D30BF9"),
            transactionIdentifier: hex("7614281A"), commandCounter: counter)
    }

    @Test func jamCRCOfTheNewKeyIsZlibsCRCInvertedLittleEndian() {
        #expect(NTAG424ChangeKey.jamCRC32(Self.hex("F3847D627727ED3BC9C4CC050489B966")) == Self.hex("789DFADC"))
        #expect(NTAG424ChangeKey.jamCRC32(Array("123456789".utf8)) == Self.hex("D9C60B34"), "~CBF43926, LE")
    }

    @Test func changingKey2WithTheMasterSession() throws {
        let session = Self.session(counter: 2)
        #expect(try session.commandIV() == Self.hex("307EDE1814707F30CFE603DD6CA62353"))
        let data = try NTAG424ChangeKey.commandData(
            session: session, keyNumber: 2, newKey: Self.hex("F3847D627727ED3BC9C4CC050489B966"),
            oldKey: AES128Zero.key, version: 1)
        #expect(
            data
                == Self.hex(
                    "02 2CF362B7BF4311FF3BE1DAA295E8C68DE09050560D19B9E16C2393AE9CD1FAC7 5D0CE20BCD1D06E6"))
        #expect(try session.responseMAC(data: []) == Self.hex("203BB55D1089D587"))
    }

    @Test func changingKey0ItselfSendsTheKeyWithoutXORorCRC() throws {
        let data = try NTAG424ChangeKey.commandData(
            session: Self.session(counter: 3), keyNumber: 0, newKey: Self.hex("5004BF991F408672B1EF00F08F9E8647"),
            oldKey: [], version: 1)
        #expect(
            data
                == Self.hex(
                    "00 C0EB4DEEFEDDF0B513A03A95A75491818580503190D4D05053FF75668A01D6FD A6610234BDED6432"))
    }
}
