import Crypto
import NFCTags
import Testing

@testable import TagEmulator

/// AuthenticateEV2First/NonFirst on the emulated NTAG 424 DNA (`docs/reference/type4.md` §2.4): AN12196's exchanges
/// byte for byte, and every refusal.
@Suite struct Type4EmulatorAuthenticationTests {
    static func replayingTag() throws -> Type4Emulator {
        try activeNTAG424(random: [.rndB: AN12196.rndB, .transactionIdentifier: AN12196.transactionIdentifier])
    }

    @Test func authenticateEV2FirstReplaysAN12196Table14() throws {
        let tag = try Self.replayingTag()
        #expect(try tag.send(AN12196.part1.0) == hex(AN12196.part1.1))
        #expect(tag.session.pending != nil)
        #expect(try tag.send(AN12196.part2.0) == hex(AN12196.part2.1))
        let session = try #require(tag.session.authentication)
        #expect(session.keyNumber == 0)
        #expect(session.messaging.transactionIdentifier == (try hex(AN12196.transactionIdentifier)))
        #expect(session.messaging.encryptionKey == (try hex(AN12196.sessionEncryptionKey)))
        #expect(session.messaging.macKey == (try hex(AN12196.sessionMACKey)))
        #expect(session.messaging.commandCounter == 0)
    }

    @Test func theHostAuthenticatesAndBothSidesHoldTheSameSession() throws {
        let tag = try Self.replayingTag()
        let host = try hostNTAG424(tag, rndA: AN12196.rndA)
        try host.authenticateEV2First(keyNumber: 0, key: AN12196.zeroKey)
        #expect(host.session == tag.messaging)
        #expect(host.session?.macKey == (try hex(AN12196.sessionMACKey)))
    }

    /// AN12196 Table 24: NonFirst with key 0 inside the TI `7614281A` session keeps TI and CmdCtr.
    @Test func authenticateEV2NonFirstReplaysAN12196Table24() throws {
        let tag = try activeNTAG424(random: [.rndB: "6924E8D09722659A2E7DEC68E66312B8"])
        let previous = NTAG424SecureMessaging(
            encryptionKey: AN12196.zeroKey, macKey: AN12196.zeroKey, transactionIdentifier: try hex("7614281A"),
            commandCounter: 2)
        tag.session.authentication = Type4Authentication(keyNumber: 1, messaging: previous)
        #expect(try tag.send("90 77 00 00 01 00 00") == hex("A6A2B3C572D06C097BB8DB70463E22DC 91 AF"))
        let part2 = "90 AF 00 00 20 BE7D45753F2CAB85F34BC60CE58B940763FE969658A532DF6D95EA2773F6E991 00"
        #expect(try tag.send(part2) == hex("B888349C24B315EAB5B589E279C8263E 91 00"))
        let session = try #require(tag.session.authentication)
        #expect(session.keyNumber == 0)
        #expect(session.messaging.encryptionKey == (try hex("4CF3CB41A22583A61E89B158D252FC53")))
        #expect(session.messaging.macKey == (try hex("5529860B2FC5FB6154B7F28361D30BF9")))
        #expect(session.messaging.transactionIdentifier == (try hex("7614281A")))
        #expect(session.messaging.commandCounter == 2)
    }

    @Test func aWrongKeyIsTheHostsAuthenticationErrorAndNoSession() throws {
        let tag = try activeNTAG424()
        let host = try hostNTAG424(tag)
        let wrong = [UInt8](repeating: 0x11, count: 16)
        #expect(throws: NTAG424Error(status: 0x91AE, instruction: 0xAF)) {
            try host.authenticateEV2First(keyNumber: 0, key: wrong)
        }
        #expect(tag.session.authentication == nil && tag.session.pending == nil && host.session == nil)
        try host.authenticateEV2First(keyNumber: 0, key: AN12196.zeroKey)
        #expect(tag.session.authentication?.keyNumber == 0)
    }

    @Test(arguments: [
        ("90 71 00 00 02 05 00 00", "91 40"),
        ("90 71 00 00 02 00 01 00", "91 7E"),
        ("90 71 00 00 01 00 00", "91 7E"),
        ("90 71 00 00 09 00 07 00 00 00 00 00 00 00 00", "91 7E"),
        ("90 77 00 00 01 00 00", "91 9D"),
        ("90 71 01 00 02 00 00 00", "91 7E"),
    ])
    func refusalsOfPart1(apdu: String, status: String) throws {
        let tag = try activeNTAG424()
        #expect(try tag.send(apdu) == hex(status))
        #expect(tag.session.pending == nil && tag.session.authentication == nil)
    }

    @Test func part1WithPCDcap2IsEchoedInTheProof() throws {
        let tag = try Self.replayingTag()
        let encryptedRndB = Array(try tag.send("90 71 00 00 05 00 03 02 00 00 00").dropLast(2))
        let rndA = try hex(AN12196.rndA)
        let challenge = try NTAG424Authentication.challenge(
            key: AN12196.zeroKey, encryptedRndB: encryptedRndB, rndA: rndA)
        let answer = tag.send([0x90, 0xAF, 0x00, 0x00, 0x20] + challenge.data + [0x00])
        #expect(answer.suffix(2) == [0x91, 0x00])
        let proof = try AES128.decryptCBC(key: AN12196.zeroKey, Array(answer.dropLast(2)))
        #expect(Array(proof[20..<32]) == [0, 0, 0, 0, 0, 0, 0x02, 0, 0, 0, 0, 0])
    }

    @Test func part2RefusalsEndTheAttempt() throws {
        let tag = try Self.replayingTag()
        _ = try tag.send(AN12196.part1.0)
        #expect(try tag.send("90 AF 00 00 10 00112233445566778899AABBCCDDEEFF 00") == hex("91 7E"))
        #expect(try tag.send(AN12196.part2.0) == hex("91 1C"))
        _ = try tag.send(AN12196.part1.0)
        let forged = "90 AF 00 00 20 " + String(repeating: "00", count: 32) + " 00"
        #expect(try tag.send(forged) == hex("91 AE"))
        #expect(tag.session.authentication == nil)
    }

    @Test func anotherCommandAbortsTheAuthentication() throws {
        let tag = try Self.replayingTag()
        _ = try tag.send(AN12196.part1.0)
        #expect(try tag.send("90 F5 00 00 01 02 00") == hex("91 CA"))
        #expect(try tag.send(AN12196.part2.0) == hex("91 1C"))
        _ = try tag.send(AN12196.part1.0)
        #expect(try tag.send("00 A4 00 0C 02 E1 04") == hex("69 85"))
        #expect(try tag.send(AN12196.part2.0) == hex("91 1C"))
    }

    @Test func atPICCLevelAuthenticationIsDenied() throws {
        let tag = try activeType4Tag()
        #expect(try tag.send(AN12196.part1.0) == hex("91 9D"))
    }

    enum Reset: String, CaseIterable { case fieldOff, halt, reactivation, deselect }

    @Test(arguments: Reset.allCases)
    func theSessionIsVolatile(reset: Reset) throws {
        let tag = try Self.replayingTag()
        _ = try tag.send(AN12196.part1.0)
        _ = try tag.send(AN12196.part2.0)
        #expect(tag.session.authentication != nil)
        switch reset {
        case .fieldOff: tag.fieldOff()
        case .halt: tag.halt()
        case .reactivation: break
        case .deselect:
            #expect(try tag.air("C2") == framed("C2"))
        }
        #expect(tag.activate() != nil)
        #expect(tag.session.authentication == nil)
    }

    @Test func reselectingTheApplicationKeepsTheSessionAndTheMFEndsIt() throws {
        let tag = try Self.replayingTag()
        let host = try hostNTAG424(tag, rndA: AN12196.rndA)
        try host.authenticateEV2First(keyNumber: 0, key: AN12196.zeroKey)
        #expect(try tag.send(selectNDEFApplication) == hex("90 00"))
        #expect(try tag.send("00 A4 00 0C 02 E1 04") == hex("90 00"))
        #expect(try host.getKeyVersion(0) == 0)
        #expect(try tag.send("00 A4 00 00 02 3F 00") == hex("90 00"))
        #expect(tag.session.authentication == nil)
    }
}
