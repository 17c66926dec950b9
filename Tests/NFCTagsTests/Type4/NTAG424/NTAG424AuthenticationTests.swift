import NDEF
import NFCTags
import Testing

/// AuthenticateEV2First and NonFirst on the host side, AN12196's exchanges byte for byte (`docs/reference/type4.md`
/// §2.4).
@Suite struct NTAG424AuthenticationTests {
    static let hex = NTAG424SecureMessagingTests.hex

    @Test func firstAuthenticationWithTheFactoryKey() throws {
        let rndA = Self.hex("13C5DB8A5930439FC3DEF9A4C675360F")
        let (data, rndB) = try NTAG424Authentication.challenge(
            key: AES128Zero.key, encryptedRndB: Self.hex("A04C124213C186F22399D33AC2A30215"), rndA: rndA)
        #expect(rndB == Self.hex("B9E2FC789B64BF237CCCAA20EC7E6E48"))
        #expect(data == Self.hex("35C3E05A752E0144BAC0DE51C1F22C56B34408A23D8AEA266CAB947EA8E0118D"))
        let session = try NTAG424Authentication.first(
            key: AES128Zero.key,
            answer: Self.hex("3FA64DB5446D1F34CD6EA311167F5E4985B89690C04A05F17FA7AB2F08120663"), rndA: rndA, rndB: rndB
        )
        #expect(session.transactionIdentifier == Self.hex("9D00C4DF") && session.commandCounter == 0)
        #expect(session.encryptionKey == Self.hex("1309C877509E5A215007FF0ED19CA564"))
        #expect(session.macKey == Self.hex("4C6626F5E72EA694202139295C7A7FC7"))
    }

    @Test func anAnswerWithoutRndAIsRefusedAsTheWrongKey() throws {
        let rndA = Self.hex("13C5DB8A5930439FC3DEF9A4C675360F")
        let rndB = Self.hex("B9E2FC789B64BF237CCCAA20EC7E6E48")
        var answer = Self.hex("3FA64DB5446D1F34CD6EA311167F5E4985B89690C04A05F17FA7AB2F08120663")
        answer[0] ^= 0x01
        #expect(throws: NTAG424AuthenticationError.rndAMismatch) {
            try NTAG424Authentication.first(key: AES128Zero.key, answer: answer, rndA: rndA, rndB: rndB)
        }
        #expect(throws: NTAG424AuthenticationError.answerLength(expected: 32, got: 16)) {
            try NTAG424Authentication.first(key: AES128Zero.key, answer: rndA, rndA: rndA, rndB: rndB)
        }
    }

    @Test func nonFirstKeepsTIAndCounterWithNewKeys() throws {
        let rndA = Self.hex("60BE759EDA560250AC57CDDC11743CF6")
        let (data, rndB) = try NTAG424Authentication.challenge(
            key: AES128Zero.key, encryptedRndB: Self.hex("A6A2B3C572D06C097BB8DB70463E22DC"), rndA: rndA)
        #expect(rndB == Self.hex("6924E8D09722659A2E7DEC68E66312B8"))
        #expect(data == Self.hex("BE7D45753F2CAB85F34BC60CE58B940763FE969658A532DF6D95EA2773F6E991"))
        let previous = NTAG424SecureMessaging(
            encryptionKey: AES128Zero.key, macKey: AES128Zero.key, transactionIdentifier: Self.hex("7614281A"),
            commandCounter: 2)
        let session = try NTAG424Authentication.nonFirst(
            key: AES128Zero.key, answer: Self.hex("B888349C24B315EAB5B589E279C8263E"), rndA: rndA, rndB: rndB,
            continuing: previous)
        #expect(session.transactionIdentifier == Self.hex("7614281A") && session.commandCounter == 2)
        #expect(session.encryptionKey == Self.hex("4CF3CB41A22583A61E89B158D252FC53"))
        #expect(session.macKey == Self.hex("5529860B2FC5FB6154B7F28361D30BF9"))
    }
}
