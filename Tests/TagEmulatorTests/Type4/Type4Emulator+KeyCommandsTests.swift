import Crypto
import NFCTags
import Testing

@testable import TagEmulator

/// ChangeKey and GetKeyVersion on the emulated NTAG 424 DNA (`docs/reference/type4.md` §2.8).
@Suite struct Type4EmulatorKeyCommandsTests {
    static let newKey2 = "F3847D627727ED3BC9C4CC050489B966"
    static let newKey0 = "5004BF991F408672B1EF00F08F9E8647"

    /// AN12196 Tables 26 and 27: key 2 (XOR and CRC32NK form, MAC answered), then key 0 (the session's own key:
    /// `91 00` without MAC, session over), in the TI `7614281A` session at CmdCtr 2.
    @Test func changeKeyReplaysAN12196Tables26And27() throws {
        let tag = try activeNTAG424()
        let messaging = NTAG424SecureMessaging(
            encryptionKey: try hex("4CF3CB41A22583A61E89B158D252FC53"),
            macKey: try hex("5529860B2FC5FB6154B7F28361D30BF9"), transactionIdentifier: try hex("7614281A"),
            commandCounter: 2)
        tag.session.authentication = Type4Authentication(keyNumber: 0, messaging: messaging)
        var writes = 0
        tag.onMemoryWritten = { writes += 1 }
        let case1 =
            "90 C4 00 00 29 02 2CF362B7BF4311FF3BE1DAA295E8C68DE09050560D19B9E16C2393AE9CD1FAC7 5D0CE20BCD1D06E6 00"
        #expect(try tag.send(case1) == hex("203BB55D1089D587 91 00"))
        #expect(try tag.key(2) == Type4Key(value: try hex(Self.newKey2), version: 1))
        #expect(tag.messaging?.commandCounter == 3)
        let case2 =
            "90 C4 00 00 29 00 C0EB4DEEFEDDF0B513A03A95A75491818580503190D4D05053FF75668A01D6FD A6610234BDED6432 00"
        #expect(try tag.send(case2) == hex("91 00"))
        #expect(try tag.key(0) == Type4Key(value: try hex(Self.newKey0), version: 1))
        #expect(tag.session.authentication == nil)
        #expect(writes == 2)
        #expect(try tag.key(1) == .factory && tag.key(3) == .factory && tag.key(4) == .factory)
    }

    @Test func theHostChangesEveryKeyAndKey0LastThenAuthenticatesWithTheNewOnes() throws {
        let tag = try activeNTAG424()
        let host = try hostNTAG424(tag)
        let keys = (0..<5).map { n in (0..<16).map { UInt8(truncatingIfNeeded: $0 * 7 + n * 31 + 1) } }
        try host.authenticateEV2First(keyNumber: 0, key: AN12196.zeroKey)
        for number in 1...4 {
            try host.changeKey(UInt8(number), to: keys[number], from: AN12196.zeroKey, version: UInt8(0x10 + number))
        }
        #expect(host.session == tag.messaging)
        try host.changeKey(0, to: keys[0], from: AN12196.zeroKey, version: 0x10)
        #expect(host.session == nil && tag.session.authentication == nil)
        for number in 0...4 {
            #expect(try host.getKeyVersion(UInt8(number)) == UInt8(0x10 + number))
            try host.authenticateEV2First(keyNumber: UInt8(number), key: keys[number])
            #expect(try host.getKeyVersion(UInt8(number)) == UInt8(0x10 + number), "MAC mode")
        }
        #expect(throws: NTAG424Error(status: 0x91AE, instruction: 0xAF)) {
            try host.authenticateEV2First(keyNumber: 0, key: AN12196.zeroKey)
        }
    }

    /// An APDU of ChangeKey for key 2 (XOR form) whose key data `edit` changes before encryption.
    static func changeKey2(_ session: NTAG424SecureMessaging, edit: (inout [UInt8]) -> Void) throws -> [UInt8] {
        var keyData = try NTAG424ChangeKey.keyData(
            keyNumber: 2, newKey: try hex(newKey2), oldKey: AN12196.zeroKey, version: 1)
        edit(&keyData)
        return try session.apdu(0xC4, header: [0x02], data: keyData, full: true)
    }

    @Test func aWrongCRCOrKeyDataLengthIsAnIntegrityErrorAndLeavesTheKey() throws {
        for edit in [{ (data: inout [UInt8]) in data[20] ^= 0x01 }, { $0.removeLast() }, { $0.append(0) }] {
            let tag = try activeNTAG424()
            let host = try hostNTAG424(tag)
            try host.authenticateEV2First(keyNumber: 0, key: AN12196.zeroKey)
            #expect(tag.send(try Self.changeKey2(try #require(host.session), edit: edit)) == [0x91, 0x1E])
            #expect(try tag.key(2) == .factory && tag.session.authentication == nil)
        }
    }

    @Test func changeKeyNeedsKey0AndAnExistingKey() throws {
        let tag = try activeNTAG424()
        #expect(try tag.send("90 C4 00 00 29 02 " + String(repeating: "00", count: 40) + " 00") == hex("91 AE"))
        let host = try hostNTAG424(tag)
        try host.authenticateEV2First(keyNumber: 1, key: AN12196.zeroKey)
        #expect(throws: NTAG424Error(status: 0x91AE, instruction: 0xC4)) {
            try host.changeKey(2, to: try hex(Self.newKey2), from: AN12196.zeroKey, version: 1)
        }
        try host.authenticateEV2First(keyNumber: 0, key: AN12196.zeroKey)
        #expect(throws: NTAG424Error(status: 0x9140, instruction: 0xC4)) {
            try host.changeKey(5, to: try hex(Self.newKey2), from: AN12196.zeroKey, version: 1)
        }
        try host.authenticateEV2First(keyNumber: 0, key: AN12196.zeroKey)
        let session = try #require(host.session)
        var short = try Self.changeKey2(session) { _ in }
        short.remove(at: short.count - 2)  // one MAC byte less: Lc 40
        short[4] -= 1
        #expect(tag.send(short) == [0x91, 0x7E])
        #expect(try tag.key(2) == .factory)
    }

    @Test(arguments: [
        ("90 64 00 00 01 00 00", "00 91 00"),
        ("90 64 00 00 01 04 00", "00 91 00"),
        ("90 64 00 00 01 05 00", "91 40"),
        ("90 64 00 00 02 00 00 00", "91 7E"),
        ("90 64 00 00 00", "91 7E"),
    ])
    func getKeyVersionIsFreeInPlain(apdu: String, answer: String) throws {
        let tag = try activeNTAG424()
        #expect(try tag.send(apdu) == hex(answer))
    }

    @Test func setKeyChecksAndPersists() throws {
        let tag = try activeNTAG424()
        var writes = 0
        tag.onMemoryWritten = { writes += 1 }
        try tag.setKey(3, to: try hex(Self.newKey2), version: 7)
        #expect(try tag.send("90 64 00 00 01 03 00") == hex("07 91 00"))
        #expect(writes == 1)
        #expect(throws: Type4EmulatorError.self) { try tag.setKey(5, to: AN12196.zeroKey, version: 0) }
        #expect(throws: Type4EmulatorError.self) { try tag.setKey(1, to: [0x00], version: 0) }
        let generic = try Type4Emulator(chip: .genericDefault, uid: type4UID)
        #expect(throws: Type4EmulatorError.self) { try generic.key(0) }
    }
}
