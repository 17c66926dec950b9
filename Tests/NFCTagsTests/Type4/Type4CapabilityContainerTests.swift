import NDEF
import NFCTags
import Testing

/// CC parsing (`docs/reference/type4.md` §1.3) with the nfcpy test CC and the NTAG 424 DNA delivery CC.
@Suite struct Type4CapabilityContainerTests {
    private func hex(_ text: String) -> [UInt8] { Hex.bytes(text) ?? [] }

    @Test func nfcpysMappingTwoCC() throws {
        let cc = try Type4CapabilityContainer(hex("00 0F 20 00 3B 00 34 04 06 E1 04 08 00 00 00"))
        #expect(cc.length == 15 && cc.version == 0x20)
        #expect(cc.maxResponseData == 0x3B && cc.maxCommandData == 0x34)
        #expect(cc.ndefFile == 0xE104 && cc.ndefFileSize == 0x800)
        #expect(cc.readAccess == .granted && cc.writeAccess == .granted)
        #expect(cc.capacity == 0x800 - 2 && !cc.extendedLength && cc.writeAccessOffset == 14)
    }

    @Test func theNTAG424DeliveryCCWithItsProprietaryFile() throws {
        let bytes = hex("00 17 20 01 00 00 FF 04 06 E1 04 01 00 00 00 05 06 E1 05 00 80 82 83")
        let cc = try Type4CapabilityContainer(bytes + [UInt8](repeating: 0, count: 9))
        #expect(cc.length == 23 && cc.maxResponseData == 256 && cc.maxCommandData == 255)
        #expect(cc.ndefFile == 0xE104 && cc.ndefFileSize == 256 && cc.capacity == 254)
    }

    @Test func mappingThreeENDEFTLVHasAFourByteLength() throws {
        let cc = try Type4CapabilityContainer(hex("00 11 30 00 FF 00 FF 06 08 E1 04 00 01 00 00 00 FF"))
        #expect(cc.extendedLength && cc.ndefFileSize == 0x10000 && cc.capacity == 0x10000 - 4)
        #expect(cc.readAccess == .granted && cc.writeAccess == .denied && cc.writeAccessOffset == 16)
    }

    @Test(arguments: [
        ("00 0F 20 00 3B 00 34 04 06 E1 04 08 00 00 FF", Type4CapabilityContainer.Access.denied),
        ("00 0F 20 00 3B 00 34 04 06 E1 04 08 00 00 83", .proprietary(0x83)),
        ("00 0F 20 00 3B 00 34 04 06 E1 04 08 00 00 01", .reserved(0x01)),
    ])
    func writeAccessBytes(_ text: String, _ access: Type4CapabilityContainer.Access) throws {
        #expect(try Type4CapabilityContainer(hex(text)).writeAccess == access)
    }

    @Test(arguments: [
        ("00 0F 40 00 3B 00 34 04 06 E1 04 08 00 00 00", TagError.Code.unsupportedCC),  // major version 4
        ("00 0F 20 00 0E 00 34 04 06 E1 04 08 00 00 00", .unsupportedCC),  // MLe below 15
        ("00 0F 20 00 3B 00 34 05 06 E1 05 08 00 00 00", .notNDEF),  // no NDEF file TLV
        ("00 0F 20 00 3B 00 34 04 06 E1 04 00 02 00 00", .notNDEF),  // a file too small for NLEN
        ("00 0F 20 00 3B 00 34 04 06 E1 04", .notNDEF),  // short
    ])
    func unusableCCsAreRefused(_ text: String, _ code: TagError.Code) {
        #expect {
            try Type4CapabilityContainer(hex(text))
        } throws: { ($0 as? TagError)?.code == code }
    }

    @Test func proprietaryFileTLVsAreParsedWithinCCLEN() throws {
        // Two proprietary TLVs (CCLEN 1Fh), then a stray 05 beyond CCLEN that must not start a third.
        let cc = try Type4CapabilityContainer(
            hex("00 1F 20 00 3B 00 34 04 06 E1 04 08 00 00 00 05 06 E1 05 00 80 82 83 05 06 E1 06 00 40 00 FF 05"))
        #expect(cc.proprietaryFiles.map(\.file) == [0xE105, 0xE106])
        #expect(cc.proprietaryFiles.map(\.size) == [128, 64])
        #expect(cc.proprietaryFiles[1].readAccess == .granted && cc.proprietaryFiles[1].writeAccess == .denied)
        #expect(cc.bytes.count == 31 && cc.fileControl == hex("04 06 E1 04 08 00 00 00"))
    }

    @Test(arguments: [
        (UInt8(0x00), "00h (granted)"), (0x05, "05h (reserved)"), (0x83, "83h (proprietary procedure)"),
        (0xFF, "FFh (never)"),
    ])
    func accessBytesInWords(byte: UInt8, words: String) throws {
        let cc = try Type4CapabilityContainer(hex("00 0F 20 00 3B 00 34 04 06 E1 04 08 00 00") + [byte])
        #expect(cc.writeAccess.description == words && cc.writeAccess.byte == byte)
    }
}
