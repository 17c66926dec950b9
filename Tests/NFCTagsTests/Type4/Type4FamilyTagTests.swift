import NDEF
import NFCTags
import TestSupport
import Testing

/// The Type 4 family tag's NDEF operations, scripted APDU by APDU (`docs/reference/type4.md` §1.2–§1.5): detection
/// for every kind of access byte and mapping version, odd MLe/MLc, and the cost of a whole write.
@Suite struct Type4FamilyTagTests {
    private typealias V = Type4Vectors
    private let finished = Type4ChipModelTests.finished

    /// The open CC with write access `access`.
    private func cc(writeAccess access: UInt8) -> [UInt8] { Array(V.ccOpen.dropLast()) + [access] }

    @Test func anOpenCCIsReadWriteWithoutAReason() throws {
        let script = ScriptedTransceiver(V.getVersionRefused + V.detection(nlen: [0, 0]))
        let tag = try V.identified(script)
        #expect(try tag.detectNDEF() == (.readWrite, 2046))
        #expect(tag.statusReason == nil && tag.lockState()?.isPermanent == false)
        finished(script)
    }

    @Test(arguments: [UInt8(0x80), 0x83, 0xFE])
    func aProprietaryWriteAccessIsReadOnlyAndSaysWhy(access: UInt8) throws {
        let script = ScriptedTransceiver(V.getVersionRefused + V.detection(cc: cc(writeAccess: access), nlen: [0, 3]))
        let tag = try V.identified(script)
        #expect(try tag.detectNDEF().status == .readOnly)
        let reason = try #require(tag.statusReason)
        #expect(reason.contains("\(Hex.byte(access))h (proprietary procedure)") && reason.contains("Type 4 tag"))
        #expect(throws: TagError(.readOnly, "")) { try tag.writeNDEF([0xD0, 0x00, 0x00]) }
        finished(script)
    }

    @Test func writeAccessFFIsReadOnlyAndPermanentlyLocked() throws {
        let script = ScriptedTransceiver(V.getVersionRefused + V.detection(cc: cc(writeAccess: 0xFF), nlen: [0, 3]))
        let tag = try V.identified(script)
        #expect(try tag.detectNDEF().status == .readOnly)
        #expect(tag.statusReason == "the CC's NDEF write access is FFh (never)")
        #expect(tag.lockState() == LockState(isPermanent: true, fields: "CC NDEF file E104 write access FFh (never)"))
        finished(script)
    }

    @Test func getVersionsUIDIsCheckedAgainstASevenByteAnticollisionUID() throws {
        let tag = try V.identified(ScriptedTransceiver(V.getVersion424))
        #expect(try tag.identityAnomalies(anticollisionUID: V.uid424).descriptions.isEmpty)
        #expect(try tag.identityAnomalies(anticollisionUID: V.hex("08 12 34 56")).descriptions.isEmpty, "Random ID")
        let other = V.hex("04 96 8C AA 5C 5E 81")
        #expect(
            try tag.identityAnomalies(anticollisionUID: other).descriptions == [
                "GetVersion names UID 04 96 8C AA 5C 5E 80, anticollision 04 96 8C AA 5C 5E 81"
            ])
    }

    @Test func noApplicationAndNoCCAreNotNDEF() throws {
        let noApplication = ScriptedTransceiver(
            V.getVersionRefused + [
                .exchange(V.selectApplication, V.hex("6A 82")),
                .exchange(V.hex("00 A4 04 00 07 D2 76 00 00 85 01 00"), V.hex("6A 82")),
            ])
        let tag = try V.identified(noApplication)
        #expect(throws: TagError(.notNDEF, "")) { try tag.detectNDEF() }
        finished(noApplication)
        let noCC = ScriptedTransceiver(
            V.getVersionRefused + [.exchange(V.selectApplication, V.ok), .exchange(V.selectCC, V.hex("6A 82"))])
        #expect(try V.identified(noCC).queryNDEFStatus() == (.notSupported, 0))
        finished(noCC)
    }

    @Test func aMappingOneTagIsFoundByTheOldNameAndReselectedByItAfterReactivation() throws {
        let legacy = V.hex("00 A4 04 00 07 D2 76 00 00 85 01 00")
        let cc = V.hex("00 0F 10 00 3B 00 34 04 06 E1 04 08 00 00 00")
        let script = ScriptedTransceiver(
            V.getVersionRefused + [.exchange(V.selectApplication, V.hex("6A 82")), .exchange(legacy, V.ok)]
                + Array(V.detection(cc: cc, nlen: [0, 3]).dropFirst()) + [
                    .reactivation, .exchange(legacy, V.ok), .exchange(V.selectNDEF, V.ok),
                    .exchange(V.hex("00 B0 00 02 03"), V.hex("D0 00 00") + V.ok),
                ])
        let tag = try V.identified(script)
        #expect(try tag.detectNDEF() == (.readWrite, 2046))
        #expect(tag.tag.legacyMapping)
        try tag.reactivate()
        #expect(try tag.readNDEF() == V.hex("D0 00 00"))
        finished(script)
    }

    /// A mapping 3.0 tag's detection: its 17-byte CC `cc` read as 15 bytes then the ENDEF TLV's last two,
    /// the NDEF file selected and `enlen` read, then `then`.
    private func mappingThree(
        cc: [UInt8], enlen: [UInt8], then more: [ScriptedTransceiver.Step] = []
    ) -> ScriptedTransceiver {
        ScriptedTransceiver(
            V.getVersionRefused + [
                .exchange(V.selectApplication, V.ok), .exchange(V.selectCC, V.ok),
                .exchange(V.hex("00 B0 00 00 0F"), Array(cc.prefix(15)) + V.ok),
                .exchange(V.hex("00 B0 00 0F 02"), Array(cc.suffix(2)) + V.ok),
                .exchange(V.selectNDEF, V.ok), .exchange(V.hex("00 B0 00 00 04"), enlen + V.ok),
            ] + more)
    }

    @Test func mappingThreeHasAFourByteENLEN() throws {
        let cc = V.hex("00 11 30 00 FF 00 FF 06 08 E1 04 00 00 10 00 00 00")
        let script = mappingThree(
            cc: cc, enlen: [0x00, 0x00, 0x00, 0x03],
            then: [.exchange(V.hex("00 B0 00 04 03"), V.hex("D0 00 00") + V.ok)])
        let tag = try V.identified(script)
        #expect(try tag.detectNDEF() == (.readWrite, 0x1000 - 4))
        #expect(try tag.readNDEF() == V.hex("D0 00 00"))
        #expect(tag.lockReadBack().first?.bytes == V.hex("06 08 E1 04 00 00 10 00 00 00"))
        finished(script)
    }

    @Test func oddMLeAndMLcCutReadsAndWritesIntoTheirPieces() throws {
        // MLe 11h (17), MLc 0Dh (13): the smallest MLc a T4T may declare above 1.
        let cc = V.hex("00 0F 20 00 11 00 0D 04 06 E1 04 00 80 00 00")
        let old = (0..<20).map { UInt8($0) }
        let new = (0..<30).map { UInt8(0xA0 + $0) }
        let script = ScriptedTransceiver(
            V.getVersionRefused + V.detection(cc: cc, nlen: [0, 20]) + [
                .exchange(V.hex("00 B0 00 02 11"), Array(old[0..<17]) + V.ok),
                .exchange(V.hex("00 B0 00 13 03"), Array(old[17...]) + V.ok),
                .exchange(V.hex("00 D6 00 00 02 00 00"), V.ok),
                .exchange(V.hex("00 D6 00 02 0D") + Array(new[0..<13]), V.ok),
                .exchange(V.hex("00 D6 00 0F 0D") + Array(new[13..<26]), V.ok),
                .exchange(V.hex("00 D6 00 1C 04") + Array(new[26...]), V.ok),
                .exchange(V.hex("00 D6 00 00 02 00 1E"), V.ok),
            ])
        let tag = try V.identified(script)
        #expect(try tag.detectNDEF() == (.readWrite, 126))
        #expect(try tag.readNDEF() == old)
        #expect(try tag.writeNDEF(new).writtenPages == [0, 2, 15, 28, 0])
        finished(script)
    }

    @Test func theNTAG424CCIsReadInOneAPDUWithItsProprietaryFileWhenWhole() throws {
        let script = ScriptedTransceiver(V.getVersion424 + V.detection424(nlen: [0, 0], whole: true))
        let tag = try V.identified(script)
        tag.readsWholeCC = true
        #expect(try tag.detectNDEF() == (.readWrite, 254))
        let cc = try #require(tag.tag.capabilityContainer)
        #expect(cc.bytes == V.cc424 && cc.proprietaryFiles.count == 1)
        let file = try #require(cc.proprietaryFiles.first)
        #expect(file.file == 0xE105 && file.size == 128)
        #expect(file.readAccess == .proprietary(0x82) && file.writeAccess == .proprietary(0x83))
        finished(script)
    }

    @Test func theNDEFProceduresReadOnlyTheCCsFirst15Bytes() throws {
        let script = ScriptedTransceiver(V.getVersion424 + V.detection424(nlen: [0, 0]))
        let tag = try V.identified(script)
        #expect(try tag.detectNDEF() == (.readWrite, 254))
        let cc = try #require(tag.tag.capabilityContainer)
        #expect(cc.length == 0x17 && cc.bytes == Array(V.cc424.prefix(15)) && cc.proprietaryFiles.isEmpty)
        finished(script)
    }

    @Test func aMapping3CCIsReadAs15BytesThenTheENDEFTLVsLastTwo() throws {
        let cc = V.hex("00 11 30 00 0F 00 0D 06 08 E1 04 00 00 02 58 00 00")
        let script = mappingThree(cc: cc, enlen: [0x00, 0x00, 0x00, 0x00])
        let tag = try V.identified(script)
        #expect(try tag.detectNDEF() == (.readWrite, 596))
        let container = try #require(tag.tag.capabilityContainer)
        #expect(container.extendedLength && container.ndefFileSize == 600 && container.bytes == cc)
        finished(script)
    }

    @Test func aCCClaimingMoreThanTheNTAG424sFileIsBoundByTheChip() throws {
        var ccFile = V.ccFile424
        ccFile[11] = 0x10  // the NDEF file control TLV claims 4,096 bytes
        let script = ScriptedTransceiver(V.getVersion424 + V.detection424(nlen: [0, 0], ccFile: ccFile))
        let tag = try V.identified(script)
        #expect(try tag.detectNDEF().capacity == 254)
        #expect(throws: TagError(.capacity, "")) { try tag.writeNDEF([UInt8](repeating: 0, count: 255)) }
        finished(script)
    }

    /// identify + detect + write + verify of a ~100-byte URL on a fresh NTAG 424 DNA: 11 APDUs.
    ///
    /// The NFC Forum minimum for a tear-safe, verified write is 8: SELECT of the application, SELECT and
    /// READ BINARY of the CC, SELECT of the NDEF file, READ of NLEN (costs what an unconditional NLEN `0000`
    /// would, and saves it on a fresh tag), the body in one UPDATE BINARY (≤ MLc 255), the real NLEN, and one
    /// READ BINARY of NLEN and body (≤ MLe). GetVersion adds 3 to name the chip (lock method, CC and file
    /// size); knowing the 424's 32-byte CC file saves the second CC read a 23-byte CCLEN would otherwise cost.
    @Test func aURLOnA424CostsElevenAPDUs() throws {
        let url = "https://example.com/tags/" + String(repeating: "a", count: 80)
        let message = NDEFMessage(records: [NDEFPayload.uri(url)]).bytes
        let length = UInt8(message.count)
        let script = ScriptedTransceiver(
            V.getVersion424 + V.detection424(nlen: [0, 0]) + [
                .exchange(V.hex("00 D6 00 02") + [length] + message, V.ok),
                .exchange(V.hex("00 D6 00 00 02 00") + [length], V.ok),
                .exchange(V.hex("00 B0 00 00") + [length + 2], [0, length] + message + V.ok),
            ])
        let tag = try V.identified(script)
        #expect((95...110).contains(message.count))
        #expect(try tag.detectNDEF() == (.readWrite, 254))
        let written = try tag.writeNDEF(message)
        try tag.verify(written, ignoring: [])
        #expect(tag.cost.exchanges == 11 && tag.cost.writes == 2 && tag.cost.reactivations == 0)
        finished(script)
    }
}
