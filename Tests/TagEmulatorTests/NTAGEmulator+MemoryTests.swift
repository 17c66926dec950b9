import NDEF
import NFCTags
import TagEmulator
import Testing

/// Sets PWD, PACK, ACCESS and AUTH0 in the order of `docs/reference/type2.md` §3.9, then re-selects.
private func protect(_ tag: NTAGEmulator, access: UInt8, auth0: UInt8, password: [UInt8] = [0x11, 0x22, 0x33, 0x44]) {
    let chip = tag.chip
    #expect(tag.write(chip.pwdPage, password) == .ack)
    #expect(tag.write(chip.packPage, [0xAB, 0xCD, 0x00, 0x00]) == .ack)
    #expect(tag.write(chip.cfg1Page, [access, 0x00, 0x00, 0x00]) == .ack)
    #expect(tag.write(chip.cfg0Page, [0x04, 0x00, 0x00, auth0]) == .ack)
    tag.reselect()
}

@Test func pwdAuthFactoryPasswordAnswersPACK() throws {
    let tag = try activeTag()
    #expect(tag.exchange([0x1B, 0xFF, 0xFF, 0xFF, 0xFF]) == .data([0x00, 0x00]))
    #expect(tag.state == .authenticated)
}

@Test func authLimitSequenceMatchesReference() throws {
    let tag = try activeTag(.ntag215)
    protect(tag, access: 0x02, auth0: 0xFF)
    let right: [UInt8] = [0x1B, 0x11, 0x22, 0x33, 0x44]
    let wrong: [UInt8] = [0x1B, 0x00, 0x00, 0x00, 0x00]
    #expect(tag.exchange(wrong) == .nak(0x00))
    _ = tag.activate()
    #expect(tag.exchange(right) == .data([0xAB, 0xCD]))
    _ = tag.activate()
    #expect(tag.exchange(wrong) == .nak(0x00))
    _ = tag.activate()
    #expect(tag.exchange(wrong) == .nak(0x04))
    _ = tag.activate()
    #expect(tag.exchange(right) == .nak(0x04))
    tag.fieldOff()
    _ = tag.activate()
    #expect(tag.exchange(right) == .nak(0x04))
}

@Test func wrongPasswordCanBeSilent() throws {
    var configuration = EmulatorConfiguration()
    configuration.wrongPasswordAnswer = .silence
    let tag = try activeTag(configuration: configuration)
    #expect(tag.exchange([0x1B, 0x00, 0x00, 0x00, 0x00]) == .silence)
    #expect(tag.state == .idle)
}

@Test func authenticationIsLostOnNAKAndReselect() throws {
    let tag = try activeTag(.ntag213)
    protect(tag, access: 0x00, auth0: 0x10)
    #expect(tag.exchange([0x1B, 0x11, 0x22, 0x33, 0x44]) == .data([0xAB, 0xCD]))
    #expect(tag.write(0x10, [1, 1, 1, 1]) == .ack)
    #expect(tag.exchange([0x30, 0xFF]) == .nak(0x00))
    _ = tag.activate()
    #expect(tag.write(0x10, [2, 2, 2, 2]) == .nak(0x00))
    #expect(tag.storedPage(0x10) == [1, 1, 1, 1])
}

@Test func protReadWrapsAtAuth0AndRefusesProtectedPages() throws {
    let tag = try activeTag(.ntag213)
    protect(tag, access: 0x80, auth0: 0x04)
    #expect(tag.readPages(0x02) == (try hex("A9 48 00 00 E1 10 12 00 04 51 7C A1 E1 ED 25 80")))
    #expect(tag.exchange([0x30, 0x04]) == .nak(0x00))
    _ = tag.activate()
    #expect(tag.exchange([0x3A, 0x00, 0x04]) == .nak(0x00))
    _ = tag.activate()
    #expect(tag.exchange([0x3A, 0x00, 0x03]) != .nak(0x00))
    #expect(tag.exchange([0x1B, 0x11, 0x22, 0x33, 0x44]) == .data([0xAB, 0xCD]))
    #expect(tag.readPages(0x04) == (try hex("01 03 A0 0C 34 03 00 FE 00 00 00 00 00 00 00 00")))
}

@Test func withoutProtReadsAreFreeButWritesNeedPassword() throws {
    let tag = try activeTag(.ntag213)
    protect(tag, access: 0x00, auth0: 0x04)
    #expect(tag.readPages(0x04) != nil)
    #expect(tag.write(0x04, [1, 1, 1, 1]) == .nak(0x00))
}

@Test func auth0ActsAtNextActivationByDefault() throws {
    let tag = try activeTag(.ntag215)
    #expect(tag.write(0x83, [0x04, 0x00, 0x00, 0x04]) == .ack)
    #expect(tag.write(0x84, [0x00, 0x00, 0x00, 0x00]) == .ack)
    #expect(tag.write(0x05, [1, 1, 1, 1]) == .ack)
    tag.reselect()
    #expect(tag.write(0x05, [2, 2, 2, 2]) == .nak(0x00))
}

@Test func auth0ActsAtOnceWhenImmediate() throws {
    var configuration = EmulatorConfiguration()
    configuration.configActivation = .immediate
    let tag = try activeTag(.ntag215, configuration: configuration)
    #expect(tag.write(0x83, [0x04, 0x00, 0x00, 0x04]) == .ack)
    #expect(tag.write(0x84, [0x00, 0x00, 0x00, 0x00]) == .nak(0x00))
}

@Test func configLockActsAfterPowerCycleByDefault() throws {
    let tag = try activeTag(.ntag213)
    #expect(tag.write(0x2A, [0x40, 0x00, 0x00, 0x00]) == .ack)
    tag.reselect()
    #expect(tag.write(0x29, [0x04, 0x00, 0x00, 0xFF]) == .ack)
    tag.fieldOff()
    _ = tag.activate()
    #expect(tag.write(0x29, [0x04, 0x00, 0x00, 0x10]) == .nak(0x00))
    _ = tag.activate()
    #expect(tag.write(0x2A, [0x00, 0x00, 0x00, 0x00]) == .nak(0x00))
    _ = tag.activate()
    #expect(tag.write(0x2B, [1, 2, 3, 4]) == .ack)
    #expect(tag.write(0x2C, [1, 2, 0, 0]) == .ack)
}

@Test func configLockActsAtOnceWhenImmediate() throws {
    var configuration = EmulatorConfiguration()
    configuration.configActivation = .immediate
    let tag = try activeTag(.ntag213, configuration: configuration)
    #expect(tag.write(0x2A, [0x40, 0x00, 0x00, 0x00]) == .ack)
    #expect(tag.write(0x29, [0x04, 0x00, 0x00, 0xFF]) == .nak(0x00))
}

@Test func readCounterNeedsEnabledCounterAndAddress2() throws {
    let tag = try activeTag(.ntag213)
    #expect(tag.exchange([0x39, 0x02]) == .nak(0x00))
    _ = tag.activate()
    #expect(tag.write(0x2A, [0x10, 0x00, 0x00, 0x00]) == .ack)
    tag.fieldOff()
    _ = tag.activate()
    #expect(tag.exchange([0x39, 0x02]) == .data([0x00, 0x00, 0x00]))
    #expect(tag.readPages(0) != nil)
    #expect(tag.exchange([0x39, 0x02]) == .data([0x01, 0x00, 0x00]))
    #expect(tag.readPages(0) != nil)
    #expect(tag.exchange([0x39, 0x02]) == .data([0x01, 0x00, 0x00]))
    #expect(tag.exchange([0x39, 0x01]) == .nak(0x00))
    tag.fieldOff()
    _ = tag.activate()
    #expect(tag.exchange([0x3A, 0x04, 0x04]) != .nak(0x00))
    #expect(tag.nfcCounter == 2)
}

@Test func counterProtectionNeedsPassword() throws {
    let tag = try activeTag(.ntag213)
    protect(tag, access: 0x18, auth0: 0xFF)
    #expect(tag.exchange([0x39, 0x02]) == .nak(0x00))
    _ = tag.activate()
    #expect(tag.exchange([0x1B, 0x11, 0x22, 0x33, 0x44]) == .data([0xAB, 0xCD]))
    #expect(tag.exchange([0x39, 0x02]) == .data([0x00, 0x00, 0x00]))
}

/// The §6 worked example: NTAG213, URI `https://example.com/p?u=` + 21-character placeholder.
@Test func mirrorWorkedExampleByteForByte() throws {
    let tag = try activeTag(.ntag213)
    let payload = [UInt8(0x04)] + Array("example.com/p?u=".utf8) + Array("00000000000000x000000".utf8)
    #expect(payload.count == 0x26)
    let area = [0x03, 0x2A, 0xD1, 0x01, 0x26, 0x55] + payload + [0xFE]
    let padded = area + [UInt8](repeating: 0, count: (4 - area.count % 4) % 4)
    for page in 0..<(padded.count / 4) {
        #expect(tag.write(4 + page, Array(padded[page * 4..<page * 4 + 4])) == .ack)
    }
    #expect(tag.write(0x29, try hex("F4 00 09 FF")) == .ack)
    #expect(tag.write(0x2A, try hex("10 00 00 00")) == .ack)
    tag.fieldOff()
    _ = tag.activate()
    let first = try #require(tag.readPages(0x09))
    #expect(Array(first[0..<16]) == Array("?u=04517CE1ED2580x00".utf8.prefix(16)))
    guard case .data(let window) = tag.exchange([0x3A, 0x09, 0x0E]) else {
        Issue.record("FAST_READ refused")
        return
    }
    #expect(window == (try hex("3F 75 3D 30 34 35 31 37 43 45 31 45 44 32 35 38 30 78 30 30 30 30 30 31")))
    #expect(Array(tag.image[39..<60]) == Array("00000000000000x000000".utf8))
}

@Test func firstMirroredReadShowsOldCounterUnlessSwitched() throws {
    for showNew in [false, true] {
        var configuration = EmulatorConfiguration()
        configuration.mirrorShowsIncrementedCounter = showNew
        let tag = try activeTag(.ntag213, configuration: configuration)
        #expect(tag.write(0x29, try hex("84 00 04 FF")) == .ack)  // counter mirror at page 4 byte 0
        #expect(tag.write(0x2A, try hex("10 00 00 00")) == .ack)
        tag.fieldOff()
        _ = tag.activate()
        let answer = try #require(tag.readPages(0x04))
        #expect(Array(answer[0..<6]) == Array((showNew ? "000001" : "000000").utf8))
    }
}

@Test func uidAndCounterMirrorDropsCounterWhenDisabled() throws {
    let tag = try activeTag(.ntag213)
    #expect(tag.write(0x29, try hex("C4 00 04 FF")) == .ack)
    tag.reselect()
    let answer = try #require(tag.readPages(0x04))
    #expect(Array(answer[0..<14]) == Array("04517CE1ED2580".utf8))
    #expect(Array(answer[14..<16]) == [0x00, 0x00])
}

@Test func mirrorThatWouldPassUserMemoryIsNotApplied() throws {
    let tag = try activeTag(.ntag213)
    #expect(tag.write(0x29, try hex("44 00 25 FF")) == .ack)  // UID mirror at 25h: 14 bytes end past 27h
    tag.reselect()
    #expect(tag.readPages(0x25) == [UInt8](repeating: 0, count: 12) + [0x00, 0x00, 0x00, 0xBD])
}

@Test func ultralightEV1CountersAndTearingCheck() throws {
    let tag = try activeTag(.mf0ul21)
    #expect(tag.exchange([0x39, 0x00]) == .data([0, 0, 0]))
    #expect(tag.exchange([0xA5, 0x01, 0x05, 0x01, 0x00, 0x00]) == .ack)
    #expect(tag.exchange([0x39, 0x01]) == .data([0x05, 0x01, 0x00]))
    #expect(tag.exchange([0x3E, 0x00]) == .data([0xBD]))
    #expect(tag.exchange([0xA5, 0x01, 0xFF, 0xFF, 0xFF, 0x00]) == .nak(0x04))
    _ = tag.activate()
    #expect(tag.exchange([0x39, 0x03]) == .nak(0x00))
    _ = tag.activate()
    #expect(tag.write(3, [0x01, 0x00, 0x00, 0x00]) == .ack)
    #expect(tag.write(3, [0x02, 0x00, 0x00, 0x00]) == .ack)
    #expect(tag.storedPage(3) == [0x03, 0x00, 0x00, 0x00])
}
