import NFCTags
import TestSupport
import Testing

/// NFC Forum detection, capacity and NDEF read (`docs/reference/type2.md` §5.2–§5.5, §10 "NDEF").
@Suite struct Type2TagDetectionTests {
    @Test(arguments: [(ChipModel.ntag213, 137), (.ntag215, 492), (.ntag216, 868)])
    func factoryLayoutsHaveTheReferenceCapacity(chip: ChipModel, capacity: Int) throws {
        let image = Images.factory(chip)
        for known in [chip, nil] {
            let (transceiver, tag) = Images.tag(known, Images.detectionSteps(image))
            let (status, found) = try tag.queryNDEFStatus()
            #expect(status == .readWrite)
            #expect(found == capacity)
            #expect(tag.area?.messageLength == 0)
            expectScriptDone(transceiver)
        }
    }

    /// CC bits are OTP and can only be raised: `E1 10 FF 00` is reachable from `E1 10 3E 00` on a real
    /// NTAG215, and once claimed 2040 bytes that a write would spill over the lock, CFG and PWD pages.
    @Test(arguments: [(ChipModel.ntag213, UInt8(0x13)), (.ntag215, 0x40), (.ntag215, 0xFF), (.ntag216, 0x70)])
    func aCCLargerThanTheChipIsRefusedAsTampered(chip: ChipModel, size: UInt8) throws {
        var image = Images.factory(chip)
        Images.set(&image, page: 3, [0xE1, 0x10, size, 0x00])
        let (transceiver, tag) = Images.tag(chip, [.exchange([0x30, 0x00], Images.read(image, 0))])
        #expect(type2Code { _ = try tag.queryNDEFStatus() } == .tamperedCC)
        expectScriptDone(transceiver)
        // Unknown chip: nothing to compare with, the CC is taken as it is (generic Type 2).
        let (_, generic) = Images.tag(nil, Images.detectionSteps(image))
        #expect(try generic.queryNDEFStatus().status == .readWrite)
    }

    @Test(arguments: [ChipModel.ntag213, .ntag215, .ntag216])
    func theLargestCCTheChipCanHoldIsAccepted(chip: ChipModel) throws {
        var image = Images.factory(chip)
        let largest = UInt8(chip.userBytes / 8)
        Images.set(&image, page: 3, [0xE1, 0x10, largest, 0x00])
        let (_, tag) = Images.tag(chip, Images.detectionSteps(image))
        #expect(try tag.queryNDEFStatus().capacity <= chip.userBytes)
    }

    @Test func ntag213WithTheTLVAtPage4Holds142Bytes() throws {
        var image = Images.factory(.ntag213)
        Images.set(&image, page: 4, [0x03, 0x00, 0xFE, 0x00])
        Images.set(&image, page: 5, [0x00, 0x00, 0x00, 0x00])
        let (transceiver, tag) = Images.tag(.ntag213, Images.detectionSteps(image))
        #expect(try tag.detectNDEF().capacity == 142)
        expectScriptDone(transceiver)
    }

    @Test func factoryNTAG213LockControlTLVIsDecoded() throws {
        let (transceiver, tag) = Images.tag(.ntag213, Images.detectionSteps(Images.factory(.ntag213)))
        let area = try tag.detectNDEF()
        #expect(area.tlvAddress == 21)
        #expect(area.lengthAddresses == [22])
        #expect(area.messageAddress == 23)
        #expect(area.lockAreas == [.init(bytes: 160..<162, bits: 12, bytesPerBit: 8, isDefault: false)])
        #expect(tag.operations.map(\.name) == ["detect"])
        #expect(tag.operations.first?.exchanges == 2)
        expectScriptDone(transceiver)
    }

    @Test func defaultLockAreaFollowsTheDataArea() throws {
        let (transceiver, tag) = Images.tag(.ntag215, Images.detectionSteps(Images.factory(.ntag215)))
        let area = try tag.detectNDEF()
        #expect(area.lockAreas == [.init(bytes: 512..<519, bits: 56, bytesPerBit: 8, isDefault: true)])
        expectScriptDone(transceiver)
    }

    @Test(arguments: [
        (UInt8(0x00), NDEFStatus.readWrite), (0x0F, .readOnly), (0x08, .readOnly), (0x80, .notSupported),
        (0x88, .notSupported), (0xF0, .notSupported), (0xFF, .notSupported),
    ])
    func ccAccessVariants(cc3: UInt8, status: NDEFStatus) throws {
        var image = Images.factory(.ntag213)
        Images.set(&image, page: 3, [0xE1, 0x10, 0x12, cc3])
        let steps = status == .notSupported ? [Images.detectionSteps(image)[0]] : Images.detectionSteps(image)
        let (transceiver, tag) = Images.tag(.ntag213, steps)
        #expect(try tag.queryNDEFStatus().status == status)
        expectScriptDone(transceiver)
    }

    @Test(arguments: [
        ([UInt8(0xE0), 0x10, 0x12, 0x00], Type2Error.Code.notNDEF), ([0xE1, 0x20, 0x12, 0x00], .unsupportedCC),
        ([0x00, 0x00, 0x00, 0x00], .notNDEF),
    ])
    func unsupportedCapabilityContainers(cc: [UInt8], code: Type2Error.Code) throws {
        var image = Images.factory(.ntag213)
        Images.set(&image, page: 3, cc)
        let (transceiver, tag) = Images.tag(.ntag213, [Images.detectionSteps(image)[0]])
        #expect(type2Code { try tag.detectNDEF() } == code)
        expectScriptDone(transceiver)
    }

    @Test func staticLockBitsMakeTheTagReadOnly() throws {
        var image = Images.factory(.ntag213)
        Images.set(&image, page: 2, [image[8], 0x48, 0xF0, 0xFF])
        let (transceiver, tag) = Images.tag(.ntag213, Images.detectionSteps(image))
        #expect(try tag.queryNDEFStatus().status == .readOnly)
        expectScriptDone(transceiver)
    }

    @Test func unknownAndProprietaryTLVsAreSkipped() throws {
        var image = Images.factory(.ntag213)
        Images.set(&image, address: 16, [0x00, 0x50, 0x01, 0xAA, 0xFD, 0x02, 0xBB, 0xCC, 0x03, 0x02, 0xD0, 0x00, 0xFE])
        let (transceiver, tag) = Images.tag(.ntag213, Images.detectionSteps(image))
        let area = try tag.detectNDEF()
        #expect(area.tlvAddress == 24)
        #expect(try tag.readNDEF() == [0xD0, 0x00])
        expectScriptDone(transceiver)
    }

    @Test func terminatorBeforeNDEFIsNotNDEF() throws {
        var image = Images.factory(.ntag213)
        Images.set(&image, address: 16, [0x00, 0xFE, 0x03, 0x00])
        let (transceiver, tag) = Images.tag(.ntag213, Images.detectionSteps(image))
        #expect(type2Code { try tag.detectNDEF() } == .notNDEF)
        #expect(try tag.queryNDEFStatus().status == .notSupported)
        expectScriptDone(transceiver)
    }

    @Test func excessiveLengthIsNotNDEF() throws {
        var image = Images.factory(.ntag213)
        Images.set(&image, address: 16, [0x03, 0xFF, 0x00, 0x8D])  // 141 > 140 bytes left
        let (transceiver, tag) = Images.tag(.ntag213, Images.detectionSteps(image))
        #expect(type2Code { try tag.detectNDEF() } == .notNDEF)
        expectScriptDone(transceiver)
    }

    @Test func noNDEFBeforeTheEndOfTheDataAreaReadsItAll() throws {
        var image = Images.factory(.ntag213)
        Images.set(&image, address: 16, [UInt8](repeating: 0, count: 144))
        let steps = [0, 4, 8, 12, 16, 20, 24, 28, 32, 36].map {
            ScriptedTransceiver.Step.exchange([0x30, UInt8($0)], Images.read(image, $0))
        }
        let (transceiver, tag) = Images.tag(.ntag213, steps)
        #expect(type2Code { try tag.detectNDEF() } == .notNDEF)
        expectScriptDone(transceiver)
    }

    @Test func memoryControlBytesAreSkippedWhenReading() throws {
        var image = Images.factory(.ntag213)
        // Memory Control: page 6, 4 reserved bytes, 4-byte pages; NDEF TLV at 21 with 5 bytes.
        Images.set(&image, address: 16, [0x02, 0x03, 0x60, 0x04, 0x02, 0x03, 0x05, 0xD0])
        Images.set(&image, address: 24, [0xEE, 0xEE, 0xEE, 0xEE, 0x01, 0x02, 0x03, 0x04, 0xFE])
        let (transceiver, tag) = Images.tag(.ntag213, Images.detectionSteps(image))
        let area = try tag.detectNDEF()
        #expect(area.reservedAreas == [24..<28])
        #expect(area.capacity == 160 - 21 - 4 - 2)
        #expect(try tag.readNDEF() == [0xD0, 0x01, 0x02, 0x03, 0x04])
        expectScriptDone(transceiver)
    }

    @Test func invalidLockControlLengthIsIgnored() throws {
        var image = Images.factory(.ntag213)
        Images.set(&image, address: 16, [0x01, 0x02, 0xA0, 0x0C, 0x03, 0x00, 0xFE])
        let (transceiver, tag) = Images.tag(.ntag213, Images.detectionSteps(image))
        let area = try tag.detectNDEF()
        #expect(area.tlvAddress == 20)
        #expect(area.lockAreas.allSatisfy { $0.isDefault })
        expectScriptDone(transceiver)
    }

    @Test func longMessageIsReadByFastReadChunks() throws {
        var image = Images.factory(.ntag215)
        let message = (0..<300).map { UInt8($0 % 251) }
        Images.set(&image, address: 16, [0x03, 0xFF, 0x01, 0x2C] + message + [0xFE])
        // Message bytes 20…319 = pages 05h…4Fh; 05h–07h came with READ 04.
        let steps =
            Images.detectionSteps(image) + [
                .exchange([0x3A, 0x08, 0x43], Images.fastRead(image, 0x08, 0x43)),
                .exchange([0x3A, 0x44, 0x4F], Images.fastRead(image, 0x44, 0x4F)),
            ]
        let (transceiver, tag) = Images.tag(.ntag215, steps)
        #expect(try tag.readNDEF() == message)
        #expect(tag.operations.map(\.name) == ["read"])
        #expect(tag.operations.first?.exchanges == 4)
        expectScriptDone(transceiver)
    }

    @Test func genericTagsReadWithRead() throws {
        var image = Images.factory(.ntag213)
        let message = (0..<20).map { UInt8($0 + 1) }
        Images.set(&image, address: 16, [0x03, 0x14] + message + [0xFE])
        let steps = Images.detectionSteps(image) + [.exchange([0x30, 0x08], Images.read(image, 8))]
        let (transceiver, tag) = Images.tag(nil, steps)
        #expect(try tag.readNDEF() == message)
        expectScriptDone(transceiver)
    }
}
