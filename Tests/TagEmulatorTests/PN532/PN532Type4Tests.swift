import NFCTags
import TagEmulator
import Testing

/// The PN532 in front of an emulated NTAG 424 DNA (`docs/reference/type4.md` §6): activation with and without
/// automatic RATS, APDUs through InDataExchange with MI chaining both ways, raw ISO-DEP blocks through
/// InCommunicateThru, InDeselect, InATR and InAutoPoll. Hex vectors both ways, real tag model.
struct PN532Type4Tests {
    private static let uid = "04A1B2C3D4E5F6"
    private static let selectApplication = "00A4040007D276000085010100"
    private static let selectNDEFFile = "00A4000C02E104"

    /// An awake chip (SAMConfiguration) in front of one `sim:ntag424` tag.
    private func chip(_ spec: String = "sim:ntag424?uid=\(uid)") throws -> (PN532Chip, Type4Emulator) {
        let field = try PN532TagPopulation(spec: ReaderSpec(spec))
        let tag = try #require(field.currentTag as? Type4Emulator)
        let chip = PN532Chip(field: field)
        #expect(chip.handle([0xD4, 0x14, 0x01], wokenUp: true) == .reply([0xD5, 0x15]))
        return (chip, tag)
    }

    /// Writes `bytes` to the NDEF file from offset 0 with UPDATE BINARY through InDataExchange.
    private func fill(_ chip: PN532Chip, _ bytes: [UInt8]) throws {
        for offset in stride(from: 0, to: bytes.count, by: 200) {
            let piece = Array(bytes[offset..<min(offset + 200, bytes.count)])
            let apdu = [0x00, 0xD6, UInt8(offset >> 8), UInt8(offset & 0xFF), UInt8(piece.count)] + piece
            #expect(chip.handle([0xD4, 0x40, 0x01] + apdu) == .reply(try hex("D541 00 9000")))
        }
    }

    /// The NDEF file (02, E104) in the tag's image, after the 32-byte CC file.
    private func ndefFile(_ tag: Type4Emulator) -> [UInt8] { Array(tag.image[32..<288]) }

    @Test func listPassiveTargetReportsTheATSWithItsLengthByteWhenAutomaticRATSIsOn() throws {
        let (chip, tag) = try chip()
        #expect(try send(chip, "D412 14") == hex("D513"))
        #expect(try send(chip, "D44A 0100") == hex("D54B 01 01 0344 20 07 \(Self.uid) 06 77 77 71 02 80"))
        #expect(tag.state == .protocolActive)
        #expect(chip.automaticRATS)
    }

    @Test func withoutAutomaticRATSTheTagStaysAtLayerThreeAndTheHostRunsISODEPThroughCommunicateThru() throws {
        let (chip, tag) = try chip()
        #expect(try send(chip, "D412 00") == hex("D513"))
        #expect(try send(chip, "D44A 0100") == hex("D54B 01 01 0344 20 07 \(Self.uid)"))
        #expect(tag.state == .active)
        // Without the ISO-DEP layer an APDU goes nowhere: the tag is silent (status 01).
        #expect(try send(chip, "D440 01 \(Self.selectApplication)") == hex("D541 01"))
        // The activation left CRC on both ways: the chip appends CRC_A and strips the answer's.
        #expect(try send(chip, "D442 E080") == hex("D543 00 06 77 77 71 02 80"))
        #expect(tag.state == .protocolActive)
        #expect(try send(chip, "D442 02 \(Self.selectApplication)") == hex("D543 00 02 9000"))
        #expect(try send(chip, "D442 03 \(Self.selectNDEFFile)") == hex("D543 00 03 9000"))
        #expect(try send(chip, "D442 B2") == hex("D543 00 A3"), "R(NAK) presence check: R(ACK) back")
        #expect(try send(chip, "D442 C2") == hex("D543 00 C2"), "S(DESELECT) echoed")
        #expect(tag.state == .halt)
    }

    @Test func dataExchangeCarriesWholeAPDUsAndALongReadBinaryInAnExtendedFrame() throws {
        let (chip, tag) = try chip()
        _ = try send(chip, "D44A 0100")
        let airtime = chip.airtimeMicroseconds
        #expect(try send(chip, "D440 01 \(Self.selectApplication)") == hex("D541 00 9000"))
        let timing = tag.timing
        let expected = timing.exchange(command: 13, response: 2, processing: timing.processing(writeFrames: 0))
        #expect(abs(chip.airtimeMicroseconds - airtime - expected) < 0.001, "the tag's ISO-DEP airtime")
        #expect(try send(chip, "D440 01 \(Self.selectNDEFFile)") == hex("D541 00 9000"))
        let message = (0..<254).map { UInt8($0 & 0xFF) }
        try fill(chip, [0x00, 0xFE] + message)
        let reply = try send(chip, "D440 01 00B0000000")
        #expect(reply == [0xD5, 0x41, 0x00, 0x00, 0xFE] + message + [0x90, 0x00])
        // D5 41 00 + 256 bytes + 90 00 = 261 bytes: an extended frame (LEN 0105, LCS FA).
        #expect(try Array(PN532Frame.encode(reply).prefix(8)) == hex("0000FF FFFF 0105 FA"))
        #expect(tag.exchangeCount == 5)
    }

    @Test func anAnswerLongerThanTheFrameComesInPiecesWithMIAndIsPulledWithTheBareCommand() throws {
        let (chip, tag) = try chip()
        chip.maximumDataIn = 64
        _ = try send(chip, "D44A 0100")
        _ = try send(chip, "D440 01 \(Self.selectApplication)")
        _ = try send(chip, "D440 01 \(Self.selectNDEFFile)")
        let body = (0..<128).map { UInt8($0) }
        try fill(chip, body)
        #expect(try send(chip, "D440 01 00B0000080") == [0xD5, 0x41, 0x40] + body.prefix(64))
        #expect(try send(chip, "D440 01") == [0xD5, 0x41, 0x40] + body.suffix(64))
        #expect(try send(chip, "D440 01") == hex("D541 00 9000"))
        #expect(tag.exchangeCount == 4, "one APDU, however many host frames")
        // Another command ends the chain: a bare InDataExchange then has nothing to pull.
        _ = try send(chip, "D440 01 00B0000080")
        #expect(try send(chip, "D406 6302") == hex("D507 80"))
        #expect(try send(chip, "D440 01") == hex("D541 00 6700"), "an empty APDU reaches the tag")
    }

    @Test func aCommandSentInPartsWithMIInTheTargetByteReachesTheTagAsOneAPDU() throws {
        let (chip, tag) = try chip()
        _ = try send(chip, "D44A 0100")
        _ = try send(chip, "D440 01 \(Self.selectApplication)")
        _ = try send(chip, "D440 01 \(Self.selectNDEFFile)")
        #expect(try send(chip, "D440 41 00D6000006 0004D1") == hex("D541 00"))
        #expect(tag.exchangeCount == 2, "nothing sent to the tag yet")
        #expect(try send(chip, "D440 01 0100 AB") == hex("D541 00 9000"))
        #expect(tag.exchangeCount == 3)
        #expect(try Array(ndefFile(tag).prefix(6)) == hex("0004D10100AB"))
    }

    @Test func deselectHaltsTheTagAndInSelectActivatesItAgainWithRATS() throws {
        let (chip, tag) = try chip()
        _ = try send(chip, "D44A 0100")
        #expect(try send(chip, "D444 01") == hex("D545 00"))
        #expect(tag.state == .halt)
        #expect(try send(chip, "D454 01") == hex("D555 00"))
        #expect(tag.state == .protocolActive)
        #expect(try send(chip, "D440 01 \(Self.selectApplication)") == hex("D541 00 9000"))
        #expect(try send(chip, "D450 01 00") == hex("D551 01"), "InATR: an ISO-DEP tag is no NFC-DEP target")
        #expect(try send(chip, "D452 01") == hex("D553 00"))
        #expect(tag.state == .halt)
        #expect(try send(chip, "D450 01 00") == hex("D551 27"), "no target listed")
    }

    @Test func autoPollReportsAnISODEPTagAsType20WithItsATSAndAsType10AtLayerThree() throws {
        let (chip, tag) = try chip()
        let target = "01 0344 20 07 \(Self.uid)"
        #expect(try send(chip, "D460 14 02 20 10") == hex("D561 01 20 12 \(target) 06 77 77 71 02 80"))
        #expect(tag.state == .protocolActive)
        _ = try send(chip, "D432 0100")
        #expect(try send(chip, "D460 14 02 10") == hex("D561 01 10 0C \(target)"))
        #expect(tag.state == .active)
    }

    @Test func aGenericType4TagAnnouncesItsOwnATS() throws {
        let (chip, _) = try chip("sim:type4?uid=\(Self.uid)&fwi=9")
        let reply = try send(chip, "D44A 0100")
        let ats = try #require(Type4ATS(Array(reply.dropFirst(15))))
        #expect(ats.fwi == 9)
        #expect(try Array(reply.prefix(15)) == hex("D54B 01 01 0044 20 07 \(Self.uid)"))
    }
}
