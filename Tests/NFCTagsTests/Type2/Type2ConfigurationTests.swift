import NFCTags
import TestSupport
import Testing

/// Dynamic lock and configuration pages (`docs/reference/type2.md` §2.5, §2.6).
@Suite struct Type2ConfigurationTests {
    @Test func oneReadOfTheLockPageGivesLockAndConfiguration() throws {
        var image = Images.factory(.ntag216)
        Images.set(&image, page: 0xE4, [0x00, 0x05, 0x00, 0x00])
        let (transceiver, tag) = Images.tag(.ntag216, [.exchange([0x30, 0xE2], Images.read(image, 0xE2))])
        let config = try tag.readConfiguration()
        #expect(config.dynamicLock == [0x00, 0x00, 0x00, 0xBD])
        #expect(config.cfg0 == [0x04, 0x00, 0x00, 0xFF])
        #expect(config.cfg1 == [0x00, 0x05, 0x00, 0x00])
        #expect(!config.isPasswordProtected(on: .ntag216))
        #expect(!config.configLock && !config.readProtected && config.authLimit == 0)
        #expect(try tag.readConfiguration() == config)  // cached: no second READ
        expectScriptDone(transceiver)
    }

    @Test func accessBitsDecode() {
        let config = Type2Configuration(dynamicLock: nil, cfg0: [0xD4, 0, 0x0C, 0x04], cfg1: [0xDB, 0, 0, 0])
        #expect(config.readProtected && config.configLock && config.nfcCounterEnabled)
        #expect(config.nfcCounterPasswordProtected && config.authLimit == 3)
        #expect(config.isPasswordProtected(on: .ntag213))
        #expect(config.mirrorPage == 0x0C && config.mirror == 0xD4)
    }

    @Test(arguments: [
        (ChipModel.ntag213, [UInt8(0x01), 0x00], Array(16...17)), (.ntag213, [0x00, 0x08], Array(38...39)),
        (.ntag215, [0x01, 0x00], Array(16...31)), (.ntag215, [0x80, 0x00], Array(128...129)),
        (.ntag216, [0x00, 0x20], Array(224...225)),
    ])
    func dynamicLockBitsMapToPages(chip: ChipModel, lock: [UInt8], pages: [Int]) {
        let config = Type2Configuration(dynamicLock: lock + [0x00, 0xBD], cfg0: [0, 0, 0, 0xFF], cfg1: [0, 0, 0, 0])
        #expect(config.dynamicallyLockedPages(on: chip) == pages)
    }

    @Test func dynamicLockBitsOverTheAreaMakeTheTagReadOnly() throws {
        var image = Images.factory(.ntag215)
        Images.set(&image, page: 0x82, [0x01, 0x00, 0x00, 0xBD])
        let steps = [.exchange([0x30, 0x82], Images.read(image, 0x82))] + Images.detectionSteps(image)
        let (transceiver, tag) = Images.tag(.ntag215, steps)
        _ = try tag.readConfiguration()
        #expect(try tag.queryNDEFStatus().status == .readOnly)
        expectScriptDone(transceiver)
    }

    @Test func genericTagsHaveNoKnownConfiguration() {
        let (transceiver, tag) = Images.tag(nil, [])
        #expect(type2Code { _ = try tag.readConfiguration() } == .unknownChip)
        #expect(transceiver.sent.isEmpty)
    }
}
