import NFCTags
import TestSupport
import Testing

/// Chip identification from the UID and Get System Information (`docs/reference/type5.md` §1.1).
@Suite struct Type5ChipModelTests {
    static func info(_ reference: UInt8, blocks: Int = 64) -> Type5SystemInformation {
        Type5SystemInformation(uid: [], blockCount: blocks, blockSize: 4, icReference: reference)
    }

    static let cases: [([UInt8], Type5SystemInformation?, Type5ChipModel)] = [
        ([0xE0, 0x04, 0x01, 0x50, 0, 0, 0, 1], nil, .icodeSLIX),
        ([0xE0, 0x04, 0x01, 0x08, 0, 0, 0, 1], nil, .icodeSLIX2),
        ([0xE0, 0x04, 0x01, 0x00, 0, 0, 0, 1], nil, .generic),
        ([0xE0, 0x04, 0x01, 0x18, 0, 0, 0, 1], nil, .generic),
        ([0xE0, 0x07, 0x80, 0x00, 0, 0, 0, 1], nil, .tagItHFIPlus),
        ([0xE0, 0x07, 0xC0, 0x00, 0, 0, 0, 1], nil, .generic),
        ([0xE0, 0x02, 0x00, 0x00, 0, 0, 0, 1], info(0x24, blocks: 128), .st25dv),
        ([0xE0, 0x02, 0x00, 0x00, 0, 0, 0, 1], info(0x27, blocks: 512), .st25dv),
        ([0xE0, 0x02, 0x00, 0x00, 0, 0, 0, 1], info(0x00), .st25tv02k),
        ([0xE0, 0x02, 0x00, 0x00, 0, 0, 0, 1], info(0x20), .generic),
        ([0xE0, 0x02, 0x00, 0x00, 0, 0, 0, 1], nil, .generic),
        ([0xE0, 0x16, 0x00, 0x00, 0, 0, 0, 1], info(0x00), .generic),
    ]

    @Test(arguments: cases) func identifies(uid: [UInt8], information: Type5SystemInformation?, chip: Type5ChipModel) {
        #expect(Type5ChipModel.identify(uid: uid, information: information) == chip)
    }

    @Test func chipsRoundTripThroughTheirTagChip() {
        for model in Type5ChipModel.allCases { #expect(Type5ChipModel(model.chip) == model) }
        #expect(Type5ChipModel.icodeSLIX2.dataBlockLimit == 79 && Type5ChipModel.tagItHFIPlus.needsOptionFlagOnWrites)
    }

    @Test func theFamilyTakesInventoriesOnlyAndType2NoLonger() {
        let vicc = DetectedTag(iso15693UID: [0xE0, 0x04, 0x01, 0x50, 0, 0, 0, 1], dsfid: 0)
        #expect(TagFamilies.standard.family(for: vicc)?.name == "type5")
        #expect(TagFamilies.standard.family(for: DetectedTag(uid: [0x04, 1, 2, 3, 4, 5, 6]))?.name == "type2")
        #expect(throws: TagError(.wrongChip, "")) {
            try TagFamilies.standard.only("type2").open(ScriptedTransceiver([]), activation: vicc)
        }
    }
}
