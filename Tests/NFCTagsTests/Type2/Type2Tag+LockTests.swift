import NFCTags
import TestSupport
import Testing

/// Permanent locking (`docs/reference/type2.md` §5.7, §7.1).
@Suite struct Type2TagLockTests {
    /// The image after a successful lock: static FF FF, CC3 0F, every dynamic lock bit.
    static func locked(_ chip: ChipModel, _ image: [UInt8]) -> [UInt8] {
        var out = image
        out[10] = 0xFF
        out[11] = 0xFF
        out[15] |= 0x0F
        if let page = chip.dynamicLockPage, let bits = chip.dynamicLockAllBits {
            Images.set(&out, page: page, [bits[0], bits[1], bits[2], 0xBD])
        }
        return out
    }

    @Test(arguments: [
        (ChipModel.ntag213, [UInt8(0xFF), 0x0F, 0x3F, 0x00]), (.ntag215, [0xFF, 0x00, 0x0F, 0x00]),
        (.ntag216, [0xFF, 0x3F, 0x7F, 0x00]),
    ])
    func lockSequencePerChip(chip: ChipModel, dynamic: [UInt8]) throws {
        let image = Images.factory(chip)
        let after = Self.locked(chip, image)
        let page = try #require(chip.dynamicLockPage)
        let cc = chip.factoryCC
        let steps =
            Images.detectionSteps(image) + [
                .ack([0xA2, 0x03, cc[0], cc[1], cc[2], 0x0F]),
                .ack([0xA2, 0x02, 0x00, 0x00, 0xFF, 0xFF]),
                .ack([0xA2, UInt8(page)] + dynamic),
                .reactivation,
                .exchange([0x30, 0x02], Images.read(after, 2)),
                .exchange([0x30, UInt8(page)], Images.read(after, page)),
            ]
        let (transceiver, tag) = Images.tag(chip, steps)
        try tag.detectNDEF()
        try tag.writeLock()
        #expect(tag.operations.last?.name == "lock")
        #expect(tag.operations.last?.writes == 3)
        #expect(tag.operations.last?.reactivations == 1)
        // Lock then status: read-only, from the pages just read back (no further frames).
        #expect(try tag.queryNDEFStatus().status == .readOnly)
        #expect(!transceiver.sent.contains { $0.first == 0xA2 && $0[1] == 0x03 && ($0[5] == 0x08 || $0[5] == 0x88) })
        expectScriptDone(transceiver)
    }

    @Test func configLockPreservesTheRestOfCFG1() throws {
        var image = Images.factory(.ntag216)
        Images.set(&image, page: ChipModel.ntag216.cfg1Page, [0x00, 0x05, 0x00, 0x00])
        let after = Self.locked(.ntag216, image)
        let steps: [ScriptedTransceiver.Step] = [
            .exchange([0x30, 0x02], Images.read(image, 2)),
            .ack([0xA2, 0x03, 0xE1, 0x10, 0x6D, 0x0F]),
            .ack([0xA2, 0x02, 0x00, 0x00, 0xFF, 0xFF]),
            .ack([0xA2, 0xE2, 0xFF, 0x3F, 0x7F, 0x00]),
            .exchange([0x30, 0xE3], Images.read(image, 0xE3)),
            .ack([0xA2, 0xE4, 0x40, 0x05, 0x00, 0x00]),
            .reactivation,
            .exchange([0x30, 0x02], Images.read(after, 2)),
            .exchange([0x30, 0xE2], Images.read(after, 0xE2)),
        ]
        let (transceiver, tag) = Images.tag(.ntag216, steps)
        try tag.writeLock(configLock: true)
        expectScriptDone(transceiver)
    }

    @Test func staticLockThatDidNotStickIsLockFailed() throws {
        let image = Images.factory(.ntag213)
        var after = Self.locked(.ntag213, image)
        after[11] = 0x00
        let steps =
            Images.detectionSteps(image) + [
                .ack([0xA2, 0x03, 0xE1, 0x10, 0x12, 0x0F]),
                .ack([0xA2, 0x02, 0x00, 0x00, 0xFF, 0xFF]),
                .ack([0xA2, 0x28, 0xFF, 0x0F, 0x3F, 0x00]),
                .reactivation,
                .exchange([0x30, 0x02], Images.read(after, 2)),
            ]
        let (transceiver, tag) = Images.tag(.ntag213, steps)
        try tag.detectNDEF()
        do {
            try tag.writeLock()
            Issue.record("lock reported success")
        } catch let error as Type2Error {
            #expect(error.code == .lockFailed)
            #expect(error.page == 2)
        }
        expectScriptDone(transceiver)
    }

    @Test func dynamicLockThatDidNotStickIsLockFailed() throws {
        let image = Images.factory(.ntag215)
        var after = Self.locked(.ntag215, image)
        Images.set(&after, page: 0x82, [0xFF, 0x00, 0x00, 0xBD])
        let steps =
            Images.detectionSteps(image) + [
                .ack([0xA2, 0x03, 0xE1, 0x10, 0x3E, 0x0F]),
                .ack([0xA2, 0x02, 0x00, 0x00, 0xFF, 0xFF]),
                .ack([0xA2, 0x82, 0xFF, 0x00, 0x0F, 0x00]),
                .reactivation,
                .exchange([0x30, 0x02], Images.read(after, 2)),
                .exchange([0x30, 0x82], Images.read(after, 0x82)),
            ]
        let (transceiver, tag) = Images.tag(.ntag215, steps)
        try tag.detectNDEF()
        do {
            try tag.writeLock()
            Issue.record("lock reported success")
        } catch let error as Type2Error {
            #expect(error.code == .lockFailed)
            #expect(error.page == 0x82)
        }
        expectScriptDone(transceiver)
    }

    @Test func proprietaryCCIsRaisedToReadOnlyNeverTo08() throws {
        var image = Images.factory(.ntag213)
        Images.set(&image, page: 3, [0xE1, 0x10, 0x12, 0x08])
        var after = Self.locked(.ntag213, image)
        after[15] = 0x0F
        let steps: [ScriptedTransceiver.Step] = [
            .exchange([0x30, 0x02], Images.read(image, 2)),
            .ack([0xA2, 0x03, 0xE1, 0x10, 0x12, 0x0F]),
            .ack([0xA2, 0x02, 0x00, 0x00, 0xFF, 0xFF]),
            .ack([0xA2, 0x28, 0xFF, 0x0F, 0x3F, 0x00]),
            .reactivation,
            .exchange([0x30, 0x02], Images.read(after, 2)),
            .exchange([0x30, 0x28], Images.read(after, 0x28)),
        ]
        let (transceiver, tag) = Images.tag(.ntag213, steps)
        try tag.writeLock()
        expectScriptDone(transceiver)
    }

    @Test func blankEV1CCIsNotWritten() throws {
        let image = Images.factory(.mf0ul11)
        var after = image
        after[10] = 0xFF
        after[11] = 0xFF
        let steps: [ScriptedTransceiver.Step] = [
            .exchange([0x30, 0x02], Images.read(image, 2)),
            .ack([0xA2, 0x02, 0x00, 0x00, 0xFF, 0xFF]),
            .reactivation,
            .exchange([0x30, 0x02], Images.read(after, 2)),
        ]
        let (transceiver, tag) = Images.tag(.mf0ul11, steps)
        try tag.writeLock()
        expectScriptDone(transceiver)
    }

    @Test(arguments: [ChipModel.ntag215, .ntag216])
    func genericNTAG215Or216LayoutIsNeverLockedThroughTheDefaultArea(chip: ChipModel) {
        let image = Images.factory(chip)
        let (transceiver, tag) = Images.tag(nil, Images.detectionSteps(image))
        #expect(type2Code { try tag.writeLock() } == .unknownChip)
        #expect(!transceiver.sent.contains { $0.first == 0xA2 })
        expectScriptDone(transceiver)
    }

    @Test func genericTagUsesTheDefaultLockArea() throws {
        var image = Images.factory(.ntag213)
        Images.set(&image, address: 16, [0x03, 0x00, 0xFE, 0x00, 0x00, 0x00, 0x00, 0x00])
        var after = image
        after[10] = 0xFF
        after[11] = 0xFF
        after[15] = 0x0F
        Images.set(&after, page: 0x28, [0xFF, 0x0F, 0x00, 0xBD])
        // 12 default lock bits at byte 160 (page 28h): FF 0F, the page's other bytes preserved.
        let steps =
            Images.detectionSteps(image) + [
                .exchange([0x30, 0x28], Images.read(image, 0x28)),
                .ack([0xA2, 0x03, 0xE1, 0x10, 0x12, 0x0F]),
                .ack([0xA2, 0x02, 0x00, 0x00, 0xFF, 0xFF]),
                .ack([0xA2, 0x28, 0xFF, 0x0F, 0x00, 0xBD]),
                .reactivation,
                .exchange([0x30, 0x02], Images.read(after, 2)),
                .exchange([0x30, 0x28], Images.read(after, 0x28)),
            ]
        let (transceiver, tag) = Images.tag(nil, steps)
        try tag.writeLock()
        expectScriptDone(transceiver)
    }

    @Test func genericDefaultAreaWithCC2Of08SetsTwoBits() throws {
        // nfcpy's case: CC2 = 08 (64-byte data area), no Lock Control TLV -> 2 bits at byte 80.
        var image = [UInt8](repeating: 0, count: 48 * 4)
        Images.set(&image, page: 0, [0x04, 0x51, 0x7C, 0xA1])
        Images.set(&image, page: 3, [0xE1, 0x10, 0x08, 0x00])
        Images.set(&image, page: 4, [0x03, 0x00, 0xFE, 0x00])
        var after = image
        after[10] = 0xFF
        after[11] = 0xFF
        after[15] = 0x0F
        after[80] = 0x03
        let steps =
            Images.detectionSteps(image) + [
                .exchange([0x30, 0x14], Images.read(image, 0x14)),
                .ack([0xA2, 0x03, 0xE1, 0x10, 0x08, 0x0F]),
                .ack([0xA2, 0x02, 0x00, 0x00, 0xFF, 0xFF]),
                .ack([0xA2, 0x14, 0x03, 0x00, 0x00, 0x00]),
                .reactivation,
                .exchange([0x30, 0x02], Images.read(after, 2)),
                .exchange([0x30, 0x14], Images.read(after, 0x14)),
            ]
        let (transceiver, tag) = Images.tag(nil, steps)
        try tag.writeLock()
        expectScriptDone(transceiver)
    }
}
