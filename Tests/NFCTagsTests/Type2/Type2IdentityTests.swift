import NFCTags
import TestSupport
import Testing

/// GET_VERSION identification and the generic fallback (`docs/reference/type2.md` §3.2, §7.4).
@Suite struct Type2IdentityTests {
    @Test(arguments: ChipModel.allCases)
    func getVersionIdentifiesEachChip(chip: ChipModel) throws {
        let transceiver = ScriptedTransceiver([.exchange([0x60], chip.version)])
        let tag = Type2Tag(transceiver: transceiver)
        let identity = try tag.identify()
        #expect(identity.chip == chip)
        #expect(identity.vendor == 0x04)
        #expect(!identity.isSuspectedClone)
        #expect(tag.operations.map(\.name) == ["identify"])
        #expect(tag.operations.first?.exchanges == 1)
        expectScriptDone(transceiver)
    }

    @Test func variantsMapToTheirBaseChip() throws {
        // NTAG213F (subtype 04) and a different major/minor still are NTAG213 / NTAG216.
        for (version, chip) in [
            ([0x00, 0x04, 0x04, 0x04, 0x01, 0x00, 0x0F, 0x03] as [UInt8], ChipModel.ntag213),
            ([0x00, 0x04, 0x04, 0x02, 0x02, 0x01, 0x13, 0x03], .ntag216),
        ] {
            let transceiver = ScriptedTransceiver([.exchange([0x60], version)])
            #expect(try Type2Tag(transceiver: transceiver).identify().chip == chip)
            expectScriptDone(transceiver)
        }
    }

    @Test(arguments: [UInt8(0x53), 0x05])
    func cloneVendorIsFlagged(vendor: UInt8) throws {
        let transceiver = ScriptedTransceiver([.exchange([0x60], [0x00, vendor, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03])])
        let identity = try Type2Tag(transceiver: transceiver).identify()
        #expect(identity.chip == .ntag213)
        #expect(identity.isSuspectedClone)
        expectScriptDone(transceiver)
    }

    @Test(arguments: [TransportError.nak(0), .noAnswer])
    func refusalReactivatesAndFallsBackToGeneric(error: TransportError) throws {
        let transceiver = ScriptedTransceiver([.fail([0x60], error), .reactivation])
        let tag = Type2Tag(transceiver: transceiver)
        let identity = try tag.identify()
        #expect(identity.isGeneric)
        #expect(tag.operations.first?.reactivations == 1)
        #expect(!transceiver.sent.contains { $0.first == 0x1A })
        expectScriptDone(transceiver)
    }

    @Test func tagGoneDuringFallbackIsTagLost() {
        // The reactivation after the refused GET_VERSION finds no tag.
        let transceiver = ScriptedTransceiver([.fail([0x60], .noAnswer), .fail([], .tagLost)])
        #expect(throws: TransportError.tagLost) { try Type2Tag(transceiver: transceiver).identify() }
        expectScriptDone(transceiver)
    }

    @Test(arguments: [
        [UInt8](repeating: 0, count: 8), [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0E, 0x03], [0x00, 0x04, 0x04],
    ])
    func unknownOrMalformedVersionIsGenericWithoutReactivation(answer: [UInt8]) throws {
        let transceiver = ScriptedTransceiver([.exchange([0x60], answer)])
        let identity = try Type2Tag(transceiver: transceiver).identify()
        #expect(identity.isGeneric)
        #expect(identity.version == answer)
        expectScriptDone(transceiver)
    }

    @Test func noRawPathSendsNothing() throws {
        let transceiver = ScriptedTransceiver([], supportsRawCommands: false)
        let identity = try Type2Tag(transceiver: transceiver).identify()
        #expect(identity.isGeneric)
        #expect(transceiver.sent.isEmpty)
    }
}
