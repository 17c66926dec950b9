import Crypto
import Foundation
import NDEF
import NFCTags
import TagEmulator
import TestSupport
import Testing

/// The host's NTAG 424 DNA stack (`NTAG424Tag`, `Type4Tag`, `SUNCrypto`) personalising the emulator as a
/// line would (`docs/reference/type4.md` §2.11, §3.7): a Bolt-card profile, taps verified by the host, key changes
/// journaled against tears, and the store keeping it all.
@Suite(.serialized) struct NTAG424TagOnEmulatorTests {
    /// The Bolt-style template: `lnurlw://card.example/ln?p=<32×0>&c=<16×0>`; `p` at file offset 0x22, `c` at 0x45.
    static let template =
        "lnurlw://card.example/ln?p=" + String(repeating: "0", count: 32) + "&c="
        + String(repeating: "0", count: 16)
    /// One URI record, prefix `00` (no abbreviation).
    static var message: [UInt8] { [0xD1, 0x01, UInt8(template.utf8.count + 1), 0x55, 0x00] + Array(template.utf8) }
    /// File 02 settings as BoltCardTools writes them: Read E, Write/RW/Change K0; SDM UID+counter in PICCData
    /// under K1, SDMMAC under K2 over the empty input.
    static let boltSettings = "40 00E0 C1 FF12 220000 450000 450000"
    /// New keys K0–K4.
    static let keys: [[UInt8]] = (0..<5).map { n in (0..<16).map { UInt8(truncatingIfNeeded: 0xA0 + $0 * 13 + n * 57) }
    }

    /// Writes the template, enables SDM, changes K1–K4 then K0 (versions `01`), as the provisioner does.
    static func personalise(_ tag: Type4Emulator) throws {
        let reader = Type4Tag(transceiver: Type4EmulatorTransceiver(tag))
        _ = try reader.detectNDEF()
        _ = try reader.writeNDEF(message)
        let host = try hostNTAG424(tag)
        try host.authenticateEV2First(keyNumber: 0, key: AN12196.zeroKey)
        try host.changeFileSettings(2, settings: try hex(boltSettings))
        for number in 1...4 { try host.changeKey(UInt8(number), to: keys[number], from: AN12196.zeroKey, version: 1) }
        try host.changeKey(0, to: keys[0], from: AN12196.zeroKey, version: 1)
        #expect(host.session == nil)
    }

    /// A phone's tap: a fresh activation and an NDEF read; returns the URL's UID and counter after the host
    /// verified the SUN with K1 and K2.
    static func tap(_ tag: Type4Emulator) throws -> (uid: [UInt8], counter: UInt32) {
        tag.halt()
        #expect(tag.activate() != nil)
        let url = String(
            decoding: try Type4Tag(transceiver: Type4EmulatorTransceiver(tag)).readNDEF().dropFirst(5), as: UTF8.self)
        #expect(url.hasPrefix("lnurlw://card.example/ln?p=") && url.count == template.count)
        let p = try #require(Hex.bytes(url.dropFirst(27).prefix(32)))
        let c = try #require(Hex.bytes(url.suffix(16)))
        #expect(url.dropFirst(59).prefix(3) == "&c=")
        let picc = try #require(try SUNCrypto.decryptPICCData(metaReadKey: keys[1], p))
        let uid = try #require(picc.uid)
        let counter = try #require(picc.counter)
        #expect(picc.tag == 0xC7)
        let macKey = try SUNCrypto.macKey(fileReadKey: keys[2], uid: uid, counter: counter)
        #expect(try SUNCrypto.sdmMAC(macKey: macKey, input: []) == c, "SDMMAC over the empty input under K2")
        return (uid, counter)
    }

    @Test func personaliseThenTapThenAudit() throws {
        let tag = try activeNTAG424()
        try Self.personalise(tag)
        let host = try hostNTAG424(tag)
        #expect(throws: NTAG424Error(status: 0x91AE, instruction: 0xAF)) {
            try host.authenticateEV2First(keyNumber: 0, key: AN12196.zeroKey)
        }
        for number in 0...4 {
            #expect(try host.getKeyVersion(UInt8(number)) == 1)
            try host.authenticateEV2First(keyNumber: UInt8(number), key: Self.keys[number])
        }
        #expect(try Self.tap(tag) == (type4UID, 1))
        #expect(try Self.tap(tag).counter == 2)
        #expect(try Self.tap(tag).counter == 3)
        let auditor = try hostNTAG424(tag)
        try auditor.authenticateEV2First(keyNumber: 0, key: Self.keys[0])
        let file = try auditor.readData(2, offset: 0, length: 2 + Self.message.count, mode: .plain)
        #expect(file == [0x00, UInt8(Self.message.count)] + Self.message, "static placeholders when authenticated")
        let settings = try hex(Self.boltSettings)
        #expect(try auditor.getFileSettings(2) == [0x00] + settings[0...2] + [0x00, 0x01, 0x00] + settings[3...])
        tag.halt()
        #expect(tag.activate() != nil)
        #expect(throws: NTAG424Error(status: 0x91AE, instruction: 0x8D), "Write is K0 now") {
            try hostNTAG424(tag).writeData(2, offset: 0, [0x00], mode: .plain)
        }
        #expect(tag.application.files[1].sdmReadCounter == 3)
    }

    /// A ChangeKey torn before its one frame arrived leaves the old key; torn once it arrived, the new one.
    /// The key version tells the host which, and exactly one candidate authenticates.
    @Test(arguments: [(UInt8(1), 0 as Int?), (1, 1), (1, nil), (0, 0), (0, 1), (0, nil)])
    func aTornChangeKeyLeavesTheOldOrTheNewKey(keyNumber: UInt8, frames: Int?) throws {
        let tag = try activeNTAG424()
        let host = try hostNTAG424(tag)
        try host.authenticateEV2First(keyNumber: 0, key: AN12196.zeroKey)
        var faults = TagFaults()
        faults.removedAfterExchanges = tag.exchangeCount
        faults.seed = 424
        tag.faults = faults
        tag.tearAfterFrames = frames
        let newKey = Self.keys[Int(keyNumber)]
        #expect(throws: TransportError.tagLost) {
            try host.changeKey(keyNumber, to: newKey, from: AN12196.zeroKey, version: 1)
        }
        tag.represent(faults: TagFaults())
        #expect(tag.activate() != nil)
        let resolver = try hostNTAG424(tag)
        let version = try resolver.getKeyVersion(keyNumber)
        let candidate = version == 1 ? newKey : AN12196.zeroKey
        try resolver.authenticateEV2First(keyNumber: keyNumber, key: candidate)
        let other = version == 1 ? AN12196.zeroKey : newKey
        #expect(throws: NTAG424Error(status: 0x91AE, instruction: 0xAF)) {
            try resolver.authenticateEV2First(keyNumber: keyNumber, key: other)
        }
        if let frames { #expect(version == UInt8(frames)) }
    }

    @Test func theStoreKeepsKeysSettingsAndCounter() throws {
        let directory = try Fixtures.temporaryDirectory("ntag424-store")
        defer { try? FileManager.default.removeItem(at: directory) }
        let spec = "sim:ntag424?uid=04968CAA5C5E80&store=\(directory.path)"
        let file = directory.appendingPathComponent("04968CAA5C5E80.bin")
        let first = TagField(options: try SimulationOptions(spec))
        _ = try first.poll()
        let tag = try #require(first.current as? Type4Emulator)
        #expect(tag.image.count == 416, "a tag nobody personalised has no trailer")
        _ = try tag.send(selectNDEFApplication)
        try Self.personalise(tag)
        let saved = [UInt8](try Data(contentsOf: file))
        #expect(saved.count > 416 && Array(saved[416..<421]) == [0x4E, 0x34, 0x32, 0x34, 0x02], "saved on write")
        #expect(try Self.tap(tag).counter == 1)
        try first.removeCurrent()

        let second = TagField(options: try SimulationOptions(spec))
        let again = try #require(try second.arrive() as? Type4Emulator)
        #expect(again.image == tag.image)
        #expect(again.application.keys == tag.application.keys)
        #expect(again.application.files.map(\.settings) == tag.application.files.map(\.settings))
        #expect(again.application.files[1].sdmReadCounter == 1)
        #expect(again.activate() != nil)
        #expect(try Self.tap(again).counter == 2)
        let host = try hostNTAG424(again)
        try host.authenticateEV2First(keyNumber: 0, key: Self.keys[0])
    }

    @Test func anImageWithoutTrailerLoadsWithDeliveryKeysAndSettings() throws {
        let directory = try Fixtures.temporaryDirectory("ntag424-old-store")
        defer { try? FileManager.default.removeItem(at: directory) }
        var files = [UInt8](repeating: 0, count: 416)
        files.replaceSubrange(
            0..<23, with: try hex("00 17 20 01 00 00 FF 04 06 E1 04 01 00 00 00 05 06 E1 05 00 80 82 83"))
        files.replaceSubrange(32..<36, with: [0x00, 0x02, 0xAB, 0xCD])
        try Data(files).write(to: directory.appendingPathComponent("04968CAA5C5E81.bin"))
        let field = TagField(options: try SimulationOptions("sim:ntag424?uid=04968CAA5C5E81&store=\(directory.path)"))
        let tag = try #require(try field.arrive() as? Type4Emulator)
        #expect(tag.image == files)
        #expect(tag.application.keys == Type4EmulatedChip.ntag424.deliveryKeys)
        #expect(
            tag.application.files.map(\.settings) == (try Type4EmulatedChip.ntag424.deliveryFiles().map(\.settings)))
        #expect(tag.activate() != nil)
        let host = try hostNTAG424(tag)
        try host.authenticateEV2First(keyNumber: 0, key: AN12196.zeroKey)
        #expect(try host.readData(2, offset: 0, length: 4, mode: .plain) == [0x00, 0x02, 0xAB, 0xCD])
    }
}
