import NDEF
import NFCTags
import TestSupport
import Testing

/// NTAG 424 DNA native commands on a scripted transceiver, AN12196's exchanges byte for byte
/// (`docs/reference/type4.md` §2.4–§2.9).
@Suite struct NTAG424TagTests {
    static let hex = NTAG424SecureMessagingTests.hex
    static let ok = hex("91 00")

    static func tag(_ steps: [ScriptedTransceiver.Step]) -> (NTAG424Tag, ScriptedTransceiver) {
        let script = ScriptedTransceiver(steps)
        return (NTAG424Tag(Type4Tag(transceiver: script)), script)
    }

    static func finished(_ script: ScriptedTransceiver) {
        #expect(script.mismatches.isEmpty, "\(script.mismatches)")
        #expect(script.remaining.isEmpty)
    }

    /// AN12196 Table 14: AuthenticateEV2First with the factory key 0.
    static let firstAuthentication: [ScriptedTransceiver.Step] = [
        .exchange(hex("90 71 00 00 02 00 00 00"), hex("A04C124213C186F22399D33AC2A30215 91 AF")),
        .exchange(
            hex("90 AF 00 00 20 35C3E05A752E0144BAC0DE51C1F22C56B34408A23D8AEA266CAB947EA8E0118D 00"),
            hex("3FA64DB5446D1F34CD6EA311167F5E4985B89690C04A05F17FA7AB2F08120663 91 00")),
    ]

    @Test func authenticateFirstThenChangeFileSettingsAtCounter1() throws {
        let settings = Self.hex("40 00E0 C1 F121 200000 430000 430000")
        let (tag, script) = Self.tag(
            Self.firstAuthentication + [
                .exchange(
                    Self.hex("90 5F 00 00 19 02 61B6D97903566E84C3AE5274467E89EA D799B7C1A0EF7A04 00"),
                    Self.hex("57BFF87B1241E93D 91 00"))
            ])
        tag.random = { _ in Self.hex("13C5DB8A5930439FC3DEF9A4C675360F") }
        try tag.authenticateEV2First(keyNumber: 0, key: AES128Zero.key)
        #expect(tag.session?.transactionIdentifier == Self.hex("9D00C4DF") && tag.authenticatedKey == 0)
        // AN12196 sent WriteData at CmdCtr 0 (its plaintext is not printed): the counter moves on as after it.
        var moved = try #require(tag.session)
        moved.advance()
        tag.resume(moved, keyNumber: 0)
        try tag.changeFileSettings(2, settings: settings)
        #expect(tag.session?.commandCounter == 2)
        Self.finished(script)
    }

    @Test func aWrongKeyIsAnAuthenticationErrorAndNoSession() throws {
        let (tag, script) = Self.tag([
            .exchange(Self.hex("90 71 00 00 02 00 00 00"), Self.hex("A04C124213C186F22399D33AC2A30215 91 AF")),
            .exchange(
                Self.hex("90 AF 00 00 20 35C3E05A752E0144BAC0DE51C1F22C56B34408A23D8AEA266CAB947EA8E0118D 00"),
                Self.hex("91 AE")),
        ])
        tag.random = { _ in Self.hex("13C5DB8A5930439FC3DEF9A4C675360F") }
        #expect(throws: NTAG424Error(status: 0x91AE, instruction: 0xAF)) {
            try tag.authenticateEV2First(keyNumber: 0, key: AES128Zero.key)
        }
        #expect(tag.session == nil)
        Self.finished(script)
    }

    @Test func getFileSettingsInMACModeAndATamperedResponseMAC() throws {
        let session = NTAG424SecureMessaging(
            encryptionKey: AES128Zero.key, macKey: Self.hex("8248134A386E86EB7FAF54A52E536CB6"),
            transactionIdentifier: Self.hex("7A21085E"))
        let data = Self.hex("0040EEEE000100D1FE001F00004400004400002000006A0000")
        let command = Self.hex("90 F5 00 00 09 02 6597A457C8CD442C 00")
        let (tag, script) = Self.tag([.exchange(command, data + Self.hex("2A474282E7A47986") + Self.ok)])
        tag.resume(session, keyNumber: 0)
        #expect(try tag.getFileSettings(2) == data)
        #expect(tag.session?.commandCounter == 1)
        Self.finished(script)

        let (forged, forgedScript) = Self.tag([.exchange(command, data + Self.hex("2A474282E7A47987") + Self.ok)])
        forged.resume(session, keyNumber: 0)
        #expect(throws: NTAG424Error(.responseMAC, instruction: 0xF5)) { try forged.getFileSettings(2) }
        #expect(forged.session == nil, "a response that does not verify ends the session")
        Self.finished(forgedScript)
    }

    @Test func changeKey2ThenKey0EndsTheSession() throws {
        let session = NTAG424SecureMessaging(
            encryptionKey: Self.hex("4CF3CB41A22583A61E89B158D252FC53"),
            macKey: Self.hex("5529860B2FC5FB6154B7F28361D30BF9"), transactionIdentifier: Self.hex("7614281A"),
            commandCounter: 2)
        let (tag, script) = Self.tag([
            .exchange(
                Self.hex(
                    "90 C4 00 00 29 02 2CF362B7BF4311FF3BE1DAA295E8C68DE09050560D19B9E16C2393AE9CD1FAC7 "
                        + "5D0CE20BCD1D06E6 00"
                ),
                Self.hex("203BB55D1089D587 91 00")),
            .exchange(
                Self.hex(
                    "90 C4 00 00 29 00 C0EB4DEEFEDDF0B513A03A95A75491818580503190D4D05053FF75668A01D6FD "
                        + "A6610234BDED6432 00"
                ),
                Self.ok),
        ])
        tag.resume(session, keyNumber: 0)
        try tag.changeKey(2, to: Self.hex("F3847D627727ED3BC9C4CC050489B966"), from: AES128Zero.key, version: 1)
        #expect(tag.session?.commandCounter == 3)
        try tag.changeKey(0, to: Self.hex("5004BF991F408672B1EF00F08F9E8647"), from: AES128Zero.key, version: 1)
        #expect(tag.session == nil && tag.authenticatedKey == nil)
        Self.finished(script)
    }

    @Test func plainCommandsAndTheirRefusals() throws {
        let r = "D1940D17CFEDA4BFF80359AB975F9F6514313E8F90C1D3CAAF5941AD"
        let s = "744A1CDF9A83F883CAFE0FE95D1939B1B7E47113993324473B785D21"
        let (tag, script) = Self.tag([
            .exchange(Self.hex("90 64 00 00 01 02 00"), Self.hex("01 91 00")),
            .exchange(Self.hex("90 3C 00 00 01 00 00"), Self.hex(r + s) + Self.ok),
            .exchange(Self.hex("90 64 00 00 01 05 00"), Self.hex("91 40")),
            .exchange(Self.hex("90 AD 00 00 07 03 000000 000000 00"), Self.hex("91 9D")),
        ])
        #expect(try tag.getKeyVersion(2) == 1)
        #expect(try tag.readSignature() == Self.hex(r + s))
        #expect(throws: NTAG424Error(status: 0x9140, instruction: 0x64)) { try tag.getKeyVersion(5) }
        #expect(throws: NTAG424Error(status: 0x919D, instruction: 0xAD)) {
            try tag.readData(3, offset: 0, length: 0, mode: .plain)
        }
        #expect(throws: NTAG424Error(.notAuthenticated, instruction: 0x5F)) {
            try tag.changeFileSettings(2, settings: [0x00, 0xE0, 0xEE])
        }
        Self.finished(script)
    }
}
