import Crypto
import NFCTags
import Testing

@testable import TagEmulator

/// Secure messaging on the emulated NTAG 424 DNA (`docs/reference/type4.md` §2.2, §2.5): MACs, encryption, CmdCtr,
/// and the rule that any error while authenticated ends the session and is answered without a MAC.
@Suite struct Type4EmulatorSecureMessagingTests {
    /// A tag authenticated with key 0 by the host (both sides hold the same session).
    static func authenticated() throws -> (Type4Emulator, NTAG424Tag) {
        let tag = try activeNTAG424()
        let host = try hostNTAG424(tag)
        try host.authenticateEV2First(keyNumber: 0, key: AN12196.zeroKey)
        return (tag, host)
    }

    @Test func cmdCtrMovesOncePerNativeCommandInEveryModeAndNotForISOCommands() throws {
        let (tag, host) = try Self.authenticated()
        #expect(tag.messaging?.commandCounter == 0)
        _ = try host.getKeyVersion(1)
        #expect(tag.messaging?.commandCounter == 1)
        _ = try host.getFileSettings(2)
        _ = try host.readData(2, offset: 0, length: 4, mode: .plain)
        #expect(tag.messaging?.commandCounter == 3)
        #expect(try tag.send("00 A4 00 0C 02 E1 04") == hex("90 00"))
        #expect(try tag.send("00 B0 00 00 02") == hex("00 00 90 00"))
        #expect(tag.messaging?.commandCounter == 3)
        #expect(host.session == tag.messaging)
    }

    @Test func aWrongCommandMACIsAnIntegrityErrorWithoutMACAndEndsTheSession() throws {
        let (tag, host) = try Self.authenticated()
        let session = try #require(host.session)
        var apdu = try session.apdu(0x64, header: [0x01])
        apdu[apdu.count - 2] ^= 0x01
        #expect(tag.send(apdu) == [0x91, 0x1E])
        #expect(tag.session.authentication == nil)
        #expect(tag.send(try session.apdu(0x64, header: [0x01])) == [0x91, 0x7E], "no session: the MAC is extra data")
    }

    @Test func badPaddingInFullModeIsAnIntegrityError() throws {
        let (tag, host) = try Self.authenticated()
        let session = try #require(host.session)
        let unpadded = try AES128.encryptCBC(
            key: session.encryptionKey, iv: try session.commandIV(), [UInt8](repeating: 0, count: 16))
        let mac = try session.commandMAC(command: 0x5F, header: [0x02], data: unpadded)
        let apdu = [0x90, 0x5F, 0x00, 0x00, UInt8(1 + 16 + 8), 0x02] + unpadded + mac + [0x00]
        #expect(tag.send(apdu) == [0x91, 0x1E])
        #expect(tag.session.authentication == nil)
    }

    @Test func anyErrorWhileAuthenticatedIsItsStatusWordAloneAndEndsTheSession() throws {
        let (tag, host) = try Self.authenticated()
        let session = try #require(host.session)
        #expect(tag.send(try session.apdu(0xF5, header: [0x07])) == [0x91, 0xF0])
        #expect(tag.session.authentication == nil)
        let (again, hostAgain) = try Self.authenticated()
        #expect(throws: NTAG424Error(status: 0x91F0, instruction: 0xF5)) { try hostAgain.getFileSettings(7) }
        #expect(again.session.authentication == nil && hostAgain.session == nil)
        #expect(try hostAgain.getFileSettings(2) == hex("00 00 E0 EE 00 01 00"), "plain again")
    }

    @Test func anExhaustedCmdCtrFailsLikeABadMAC() throws {
        let (tag, host) = try Self.authenticated()
        var session = try #require(host.session)
        session.commandCounter = 0xFFFF
        tag.session.authentication?.messaging.commandCounter = 0xFFFF
        #expect(tag.send(try session.apdu(0x64, header: [0x00])) == [0x91, 0x1E])
        #expect(tag.session.authentication == nil)
    }

    /// AN12196 Table 8: GetFileSettings of file 02 in MAC mode (TI `7A21085E`, CmdCtr 0).
    @Test func getFileSettingsInMACModeReplaysAN12196Table8() throws {
        let tag = try activeNTAG424()
        let data = try hex("0040EEEE000100D1FE001F00004400004400002000006A0000")
        let settings = try Type4FileSettings(decoding: Array(data[1...3] + data[7...]), sdmCapable: true)
        try tag.setFileSettings(settings, ofFile: 2)
        let messaging = NTAG424SecureMessaging(
            encryptionKey: AN12196.zeroKey, macKey: try hex("8248134A386E86EB7FAF54A52E536CB6"),
            transactionIdentifier: try hex("7A21085E"))
        tag.session.authentication = Type4Authentication(keyNumber: 0, messaging: messaging)
        let answer = try tag.send("90 F5 00 00 09 02 6597A457C8CD442C 00")
        #expect(answer == data + (try hex("2A474282E7A47986 91 00")))
        #expect(tag.messaging?.commandCounter == 1)
    }

    @Test func getVersionIsMACedWhenAuthenticated() throws {
        let (tag, host) = try Self.authenticated()
        let session = try #require(host.session)
        #expect(tag.send(try session.apdu(0x60)) == Type4Emulator.hardwareVersion + [0x91, 0xAF])
        #expect(try tag.send("90 AF 00 00 00") == Type4Emulator.softwareVersion + [0x91, 0xAF])
        let part3 = try tag.send("90 AF 00 00 00")
        let production = Array(part3.prefix(14))
        let mac = try session.responseMAC(
            data: Type4Emulator.hardwareVersion + Type4Emulator.softwareVersion + production)
        #expect(part3 == production + mac + [0x91, 0x00])
        #expect(production.prefix(7) == type4UID[...])
        #expect(tag.messaging?.commandCounter == 1)
        #expect(try tag.send("90 60 00 00 00") == hex("91 7E"), "without its MAC")
        #expect(tag.session.authentication == nil)
    }

    @Test func readSignatureAndGetCardUIDAreFullModeWhenAuthenticated() throws {
        var configuration = Type4EmulatorConfiguration()
        let signature = (0..<56).map { UInt8($0 * 3 & 0xFF) }
        configuration.originalitySignature = signature
        let tag = try activeNTAG424(configuration: configuration)
        let host = try hostNTAG424(tag)
        #expect(try host.readSignature() == signature)
        try host.authenticateEV2First(keyNumber: 3, key: AN12196.zeroKey)
        #expect(try host.readSignature() == signature)
        #expect(try host.command(0x51, mode: .full) == type4UID)
        #expect(host.session == tag.messaging && tag.messaging?.commandCounter == 2)
    }

    /// AN12196 Table 29: GetCardUID (TI `DF055522`, CmdCtr 0), UID `04958CAA5C5E80`.
    @Test func getCardUIDReplaysAN12196Table29() throws {
        let tag = try activeNTAG424(uid: try hex("04958CAA5C5E80"))
        let messaging = NTAG424SecureMessaging(
            encryptionKey: try hex("2B4D963C014DC36F24F69A50A394F875"),
            macKey: try hex("379D32130CE61705DD5FD8C36B95D764"), transactionIdentifier: try hex("DF055522"))
        tag.session.authentication = Type4Authentication(keyNumber: 0, messaging: messaging)
        let answer = try tag.send("90 51 00 00 08 8E2C155ADDA99BE3 00")
        #expect(answer == (try hex("70756055688505B52A5E26E59E329CD6 595F672298EA41B7 91 00")))
    }

    @Test(arguments: [
        ("90 3C 00 00 01 01 00", "91 0C"),
        ("90 3C 00 00 00", "91 7E"),
        ("90 51 00 00 00", "91 AE"),
        ("90 5C 00 00 02 00 02 00", "91 1C"),
    ])
    func identityRefusals(apdu: String, status: String) throws {
        let tag = try activeNTAG424()
        #expect(try tag.send(apdu) == hex(status))
    }
}
