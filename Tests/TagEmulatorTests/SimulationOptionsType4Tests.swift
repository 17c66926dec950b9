import Foundation
import NDEF
import NFCTags
import TagEmulator
import TestSupport
import Testing

/// `sim:ntag424` and `sim:type4` specs, and the Type 4 populations `TagField` builds from them.
@Suite struct SimulationOptionsType4Tests {
    @Test func theType4ChipsAndTheirOptionsParse() throws {
        let ntag424 = try SimulationOptions("sim:NTAG424?count=3&fwi=9&wtx=on&prog=2")
        #expect(ntag424.type4 == .ntag424 && ntag424.chipName == "ntag424" && ntag424.count == 3)
        #expect(ntag424.type4Configuration.frameWaitingInteger == 9)
        #expect(ntag424.type4Configuration.requestsWaitingTimeExtension)
        #expect(ntag424.type4Configuration.writeFrameMicroseconds == 2_000)
        #expect(try SimulationOptions("sim:type4").type4 == .genericDefault)
        let generic = try SimulationOptions("sim:type4?size=600&mapping=3&mle=15&mlc=13")
        #expect(generic.type4 == .generic(mapping: 0x30, ndefFileSize: 600, mle: 15, mlc: 13))
        #expect(try SimulationOptions("sim:ntag215").type4 == nil)
    }

    @Test func anNTAG424SignerIsASecp224r1KeyAndTheTestKeyIsTheDefault() throws {
        #expect(try SimulationOptions("sim:ntag424").type4Configuration.signingKey == NTAG424TestSigningKey.privateKey)
        let key = String(repeating: "5A", count: 28)
        let options = try SimulationOptions("sim:ntag424?signer=\(key)")
        #expect(options.type4Configuration.signingKey == [UInt8](repeating: 0x5A, count: 28))
        #expect(options.signingKey == TestSigningKey.privateKey, "the wrongchip NTAG21x tags keep theirs")
    }

    @Test(arguments: [
        ("sim:ntag424?size=300", "is for sim:type4"),
        ("sim:ntag215?size=300", "is for Type 4 chips"),
        ("sim:type4?mapping=4", "mapping must be an integer in 2…3"),
        ("sim:type4?size=4", "size must be an integer in 5…32767"),
        ("sim:type4?mle=14", "mle must be an integer in 15…65535"),
        ("sim:type4?fwi=15", "fwi must be an integer in 0…14"),
        ("sim:type4?wtx=maybe", "wtx must be 'on' or 'off'"),
        ("sim:ntag424?signer=00", "signer must be a secp224r1 private key for ntag424: 56 hex digits"),
        ("sim:ntag424?signer=\(String(repeating: "FF", count: 28))", "non-zero, below the order"),
        ("sim:ntag424?signer=\(String(repeating: "00", count: 28))", "non-zero, below the order"),
        ("sim:ntag424?signer=0F1E2D3C4B5A69788796A5B4C3D2E1F0", "56 hex digits"),
        ("sim:type4?signer=\(String(repeating: "11", count: 28))", "is for chips with an originality signature"),
        ("sim:ntag424?identity=uid", "is for Type 2 chips"),
        ("sim:ntag425", "use ntag213, ntag215, ntag216, mf0ul11, mf0ul21, ntag424, type4, felica-lite-s or type3"),
    ])
    func badSpecsNameTheOption(spec: String, expected: String) {
        do {
            _ = try SimulationOptions(spec)
            Issue.record("\(spec) was accepted")
        } catch {
            #expect(error.description.contains(expected), "\(error)")
        }
    }

    @Test func aType4PopulationIsType4ExceptWrongChipTagsAndBothSurviveTheStore() throws {
        let store = try Fixtures.temporaryDirectory("t4-store")
        defer { try? FileManager.default.removeItem(at: store) }
        let spec = "sim:ntag424?uid=04A00000000001&count=8&faults=wrongchip:0.5&seed=2&store=\(store.path)"
        let field = TagField(options: try SimulationOptions(spec))
        var families: [String: String] = [:]
        while let tag = try field.arrive() {
            families[Hex.compact(tag.uid)] = tag.tagChip.family
            if let type4 = tag as? Type4Emulator {
                #expect(type4.activate()?.sak == 0x20)
                #expect(type4.exchange(try hex("00 A4 04 00 07 D2 76 00 00 85 01 01 00")) == .data([0x90, 0x00]))
            }
            try field.removeCurrent()
        }
        #expect(families.count == 8 && Set(families.values) == ["type2", "type4"], "\(families)")
        let stored = TagField(options: try SimulationOptions("sim:ntag424?store=\(store.path)&population=stored"))
        var reloaded: [String: String] = [:]
        while let tag = try stored.arrive() {
            reloaded[Hex.compact(tag.uid)] = tag.tagChip.family
            try stored.removeCurrent()
        }
        #expect(reloaded == families, "each stored image comes back as the family it was")
    }
}
