import NDEF
import NFCTags
import Provisioning
import TagEmulator
import Testing

private let key = SecretKey(id: "brand", bytes: Array(repeating: 0x5A, count: 32))
private let uid: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]

/// `https://a.co/?m=` then the UID+counter mirror placeholder, and where the run puts its window.
private let mirrored: (message: [UInt8], plan: MirrorPlan) = {
    let message = NDEFMessage(records: [NDEFPayload.uri("https://a.co/?m=00000000000000x000000")]).bytes
    let offset = message.count - MirrorKind.uidAndCounter.length
    return (message, MirrorPlan(kind: .uidAndCounter, offsetInMessage: offset, messageLength: message.count))
}()

/// CFG0/CFG1 of an NTAG215 as the Type 2 family's `readChipConfiguration` returns them.
private func configuration(
    mirror: UInt8 = 0x00, mirrorPage: UInt8 = 0x00, auth0: UInt8, access: UInt8
) -> Type2ChipConfiguration {
    Type2ChipConfiguration(
        Type2Configuration(
            dynamicLock: [0, 0, 0, 0xBD], cfg0: [mirror, 0x00, mirrorPage, auth0], cfg1: [access, 0x05, 0, 0]),
        chip: .ntag215)
}

@Suite struct ExpectedConfigurationTests {
    // A key on the host computes its password without failing.
    let protection = try! ProtectionPlan(
        ManifestSecurity.Protection(key: "brand", auth0: .ndef, access: .readwrite, authLimit: 5), key: key, uid: uid)

    @Test func nothingToCompareIsNil() {
        #expect(ExpectedConfiguration(protection: nil, mirror: nil) == nil)
    }

    @Test func matchingPagesHaveNoDifferences() throws {
        let expected = try #require(ExpectedConfiguration(protection: protection, mirror: mirrored.plan))
        let page = UInt8(mirrored.plan.page)
        let mirror = mirrored.plan.mirrorByte(keeping: 0x04)
        // PROT | NFC_CNT_EN | AUTHLIM 5; STRG_MOD_EN (04h) is the chip's, not compared.
        let found = configuration(mirror: mirror, mirrorPage: page, auth0: 0x04, access: 0x95)
        #expect(expected.differences(in: found) == [])
    }

    @Test func protectionOffNamesAUTH0InHex() throws {
        let expected = try #require(ExpectedConfiguration(protection: protection, mirror: nil))
        let found = configuration(auth0: 0xFF, access: 0x85)
        #expect(expected.differences(in: found) == ["AUTH0 expected 04, found FF (protection off)"])
        let later = configuration(auth0: 0x10, access: 0x85)
        #expect(expected.differences(in: later) == ["AUTH0 expected 04, found 10"])
    }

    @Test func accessBitsAreNamedWithTheACCESSByte() throws {
        let expected = try #require(ExpectedConfiguration(protection: protection, mirror: nil))
        #expect(
            expected.differences(in: configuration(auth0: 0x04, access: 0x03)) == [
                "PROT expected 1, found 0 (ACCESS 03)", "AUTHLIM expected 5, found 3 (ACCESS 03)",
            ])
        #expect(
            expected.differences(in: configuration(auth0: 0x04, access: 0xC5))
                == ["CFGLCK expected 0, found 1 (ACCESS C5)"])
        // NFC_CNT_EN and NFC_CNT_PWD_PROT are the run's to keep without a counter mirror.
        #expect(expected.differences(in: configuration(auth0: 0x04, access: 0x9D)) == [])
    }

    @Test func endProtectsFromTheCFG0Page() throws {
        let settings = ManifestSecurity.Protection(key: "brand", auth0: .end, access: .write, configLock: true)
        let plan = try ProtectionPlan(settings, key: key, uid: uid)
        let expected = try #require(ExpectedConfiguration(protection: plan, mirror: nil))
        #expect(expected.differences(in: configuration(auth0: 0x83, access: 0x40)) == [])
        #expect(
            expected.differences(in: configuration(auth0: 0x29, access: 0x40))
                == ["AUTH0 expected 83, found 29"], "page 29h is NTAG213's CFG0, not NTAG215's")
    }

    @Test func mirrorFieldsAreNamed() throws {
        let expected = try #require(ExpectedConfiguration(protection: nil, mirror: mirrored.plan))
        let plan = mirrored.plan
        let found = configuration(mirror: 0x00, mirrorPage: 0x00, auth0: 0xFF, access: 0x00)
        #expect(
            expected.differences(in: found) == [
                "MIRROR_CONF expected 3, found 0 (MIRROR 00)",
                "MIRROR_BYTE expected \(plan.byte), found 0 (MIRROR 00)",
                "MIRROR_PAGE expected \(Hex.string([UInt8(plan.page)])), found 00",
                "NFC_CNT_EN expected 1, found 0 (ACCESS 00)",
            ])
        #expect(plan.page == 7 && plan.byte == 3, "34-byte message, window at its last 21 bytes")
        // A UID-only mirror does not need the counter.
        let uidOnly = try #require(
            ExpectedConfiguration(protection: nil, mirror: MirrorPlan(kind: .uid, page: 5, byte: 2)))
        let asSet = configuration(mirror: 0x60, mirrorPage: 0x05, auth0: 0xFF, access: 0)
        #expect(uidOnly.differences(in: asSet) == [])
        #expect(
            uidOnly.differences(in: configuration(mirror: 0x50, mirrorPage: 0x06, auth0: 0xFF, access: 0))
                == ["MIRROR_BYTE expected 2, found 1 (MIRROR 50)", "MIRROR_PAGE expected 05, found 06"])
    }

    /// What `run` programs (TagPipeline with the same plans) reads back as expected: no difference.
    @Test(arguments: [
        ManifestSecurity.Protection(key: "brand", auth0: .ndef, access: .write, authLimit: 2),
        ManifestSecurity.Protection(key: "brand", auth0: .page(0x10), access: .readwrite, authLimit: 7),
        ManifestSecurity.Protection(key: "brand", auth0: .end, access: .write, configLock: true),
    ])
    func runProgrammedTagMatches(settings: ManifestSecurity.Protection) throws {
        let emulator = try NTAGEmulator(chip: .ntag215, uid: uid)
        _ = emulator.activate()
        let plan = try ProtectionPlan(settings, key: key, uid: uid)
        let outcome = TagPipeline.run(
            TagPipeline.Plan(
                message: mirrored.message, acceptedChips: [.ntag215], lock: false, uid: uid, protection: plan,
                mirror: mirrored.plan),
            on: EmulatorTransceiver(tag: emulator))
        #expect(outcome.failure == nil, "\(String(describing: outcome.failure))")
        emulator.halt()
        _ = emulator.activate()
        let reading = try TagReadBack.read(
            on: EmulatorTransceiver(tag: emulator), password: plan.password, configuration: true)
        let configuration = try #require(reading.configuration)
        let expected = try #require(ExpectedConfiguration(protection: plan, mirror: mirrored.plan))
        #expect(expected.differences(in: configuration) == [])
        let restored = mirrored.plan.restoringPlaceholder(in: reading.message ?? [], uid: uid)
        #expect(try restored.get() == mirrored.message, "the mirrored UID/counter put back to the placeholder")
    }
}
