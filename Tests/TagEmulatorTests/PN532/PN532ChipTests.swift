import NFCTags
import TagEmulator
import Testing

/// A tag that records what it receives and answers from a script.
private final class RecordingTag: TagEndpoint {
    let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]
    var answer = TagAnswer.silence
    var raw: [([UInt8], Int)] = []
    var commands: [[UInt8]] = []
    var halts = 0
    var fieldOffs = 0
    var answersActivation = true
    var airtimeMicroseconds: Double = 0
    func activate() -> DetectedTag? { answersActivation ? DetectedTag(uid: uid) : nil }
    func receiveRaw(_ frame: [UInt8], lastByteBits: Int) -> TagAnswer {
        raw.append((frame, lastByteBits))
        return answer
    }
    func exchange(_ command: [UInt8]) -> TagAnswer {
        commands.append(command)
        return answer
    }
    func halt() { halts += 1 }
    func fieldOff() { fieldOffs += 1 }
}

/// A field holding at most one `RecordingTag`.
private final class OneTagField: PN532TagField {
    var tag: RecordingTag?
    var releases = 0
    init(_ tag: RecordingTag?) { self.tag = tag }
    var current: (any TagEndpoint)? { tag }
    func hostReleased() { releases += 1 }
    func insert(uid: [UInt8]?) throws(PN532ControlError) -> [UInt8] {
        tag = RecordingTag()
        return tag?.uid ?? []
    }
    func remove() { tag = nil }
    func image() -> [UInt8]? { nil }
}

struct PN532ChipTests {
    private func awakeChip(_ tag: RecordingTag? = RecordingTag()) -> (PN532Chip, OneTagField) {
        let field = OneTagField(tag)
        let chip = PN532Chip(field: field)
        #expect(chip.handle([0xD4, 0x14, 0x01], wokenUp: true) == .reply([0xD5, 0x15]))
        return (chip, field)
    }

    @Test func strictModeAcceptsOnlySAMConfigurationAfterReset() {
        let chip = PN532Chip(field: OneTagField(nil))
        #expect(chip.handle([0xD4, 0x02]) == .ignored)
        #expect(chip.refusedFrames == 1)
        #expect(chip.handle([0xD4, 0x14, 0x01]) == .reply([0xD5, 0x15]))
        #expect(chip.handle([0xD4, 0x02]) == .reply([0xD5, 0x03, 0x32, 0x01, 0x06, 0x07]))
    }

    @Test func lenientPowerServesGetFirmwareVersionFirstAsNfcpySendsIt() {
        let chip = PN532Chip(field: OneTagField(nil))
        chip.strict = false
        #expect(chip.handle([0xD4, 0x02]) == .reply([0xD5, 0x03, 0x32, 0x01, 0x06, 0x07]))
        #expect(chip.handle([0xD4, 0x16, 0xF0]) == .reply([0xD5, 0x17, 0x00]))
        #expect(chip.handle([0xD4, 0x02]) == .reply([0xD5, 0x03, 0x32, 0x01, 0x06, 0x07]))
        #expect(chip.refusedFrames == 0)
    }

    @Test func setSerialBaudRateAcceptsBR0To8Only() {
        let (chip, _) = awakeChip()
        #expect(chip.handle([0xD4, 0x10, 0x07]) == .reply([0xD5, 0x11]))
        #expect(chip.handle([0xD4, 0x10, 0x09]) == .applicationError)
        #expect(chip.handle([0xD4, 0x10]) == .applicationError)
        #expect(PN532Chip.serialBaudRates[7] == 921_600 && PN532Chip.serialBaudRates[4] == 115_200)
    }

    @Test func powerDownNeedsAWakeUpBeforeTheNextFrame() {
        let (chip, _) = awakeChip()
        #expect(chip.handle([0xD4, 0x16, 0xF0]) == .reply([0xD5, 0x17, 0x00]))
        #expect(chip.handle([0xD4, 0x02]) == .ignored)
        #expect(chip.handle([0xD4, 0x02], wokenUp: true) == .reply([0xD5, 0x03, 0x32, 0x01, 0x06, 0x07]))
    }

    @Test func diagnoseEchoesAndUnknownCommandsGetTheErrorFrame() {
        let (chip, _) = awakeChip()
        let echo: [UInt8] = [0x00, 0x6C, 0x69, 0x62, 0x6E, 0x66, 0x63]
        #expect(chip.handle([0xD4, 0x00] + echo) == .reply([0xD5, 0x01] + echo))
        #expect(chip.handle([0xD4, 0x7E]) == .applicationError)
    }

    @Test func generalStatusReportsFieldAndTarget() {
        let (chip, _) = awakeChip()
        #expect(chip.handle([0xD4, 0x04]) == .reply([0xD5, 0x05, 0x00, 0x01, 0x00, 0x80]))
        #expect(chip.handle([0xD4, 0x4A, 0x01, 0x00]).isTagFound)
        #expect(chip.handle([0xD4, 0x04]) == .reply([0xD5, 0x05, 0x00, 0x01, 0x01, 0x01, 0x00, 0x00, 0x00, 0x80]))
    }

    @Test func registersReadAndWriteSeveralAddresses() {
        let (chip, _) = awakeChip()
        #expect(
            chip.handle([0xD4, 0x06, 0x63, 0x02, 0x63, 0x03, 0x63, 0x0D, 0x63, 0x38, 0x63, 0x3D])
                == .reply([0xD5, 0x07, 0x80, 0x80, 0x00, 0x00, 0x00]))
        #expect(chip.handle([0xD4, 0x08, 0x63, 0x02, 0x00, 0x63, 0x03, 0x00]) == .reply([0xD5, 0x09]))
        #expect(chip.handle([0xD4, 0x06, 0x63, 0x02, 0x63, 0x03]) == .reply([0xD5, 0x07, 0x00, 0x00]))
    }

    @Test func listPassiveTargetReportsTheTagAsLibnfcExpects() {
        let (chip, _) = awakeChip()
        #expect(
            chip.handle([0xD4, 0x4A, 0x01, 0x00])
                == .reply([0xD5, 0x4B, 0x01, 0x01, 0x00, 0x44, 0x00, 0x07, 0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]))
        // Other modulations find nothing.
        #expect(chip.handle([0xD4, 0x4A, 0x01, 0x03, 0x00]) == .reply([0xD5, 0x4B, 0x00]))
        // A UID that is not in the field.
        #expect(chip.handle([0xD4, 0x32, 0x05, 0x00, 0x01, 0x02]) == .reply([0xD5, 0x33]))
        #expect(
            chip.handle([0xD4, 0x4A, 0x01, 0x00, 0x88, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00])
                == .reply([0xD5, 0x4B, 0x00]))
    }

    @Test func selectStaysPendingWithInfiniteRetriesUntilATagArrives() throws {
        let (chip, field) = awakeChip(nil)
        #expect(chip.handle([0xD4, 0x4A, 0x01, 0x00]) == .pending)
        #expect(chip.resolvePending() == nil)
        _ = try field.insert(uid: nil)
        #expect(chip.resolvePending()?.prefix(4) == [0xD5, 0x4B, 0x01, 0x01])
        #expect(chip.pendingCommand == nil)
        // A new command replaces a pending one.
        field.tag = nil
        #expect(chip.handle([0xD4, 0x4A, 0x01, 0x00]) == .pending)
        #expect(chip.handle([0xD4, 0x02]) == .reply([0xD5, 0x03, 0x32, 0x01, 0x06, 0x07]))
        #expect(chip.pendingCommand == nil)
    }

    @Test func deselectedTagStaysInvisibleUntilTheFieldCycles() throws {
        let (chip, field) = awakeChip()
        _ = chip.handle([0xD4, 0x32, 0x05, 0x00, 0x01, 0x02])
        #expect(chip.handle([0xD4, 0x4A, 0x01, 0x00]).isTagFound)
        #expect(chip.handle([0xD4, 0x44, 0x00]) == .reply([0xD5, 0x45, 0x00]))
        #expect(field.tag?.halts == 1)
        #expect(field.releases == 0, "released by the next command unless it is InSelect")
        #expect(chip.handle([0xD4, 0x4A, 0x01, 0x00]) == .reply([0xD5, 0x4B, 0x00]))
        #expect(field.releases == 1)
        _ = chip.handle([0xD4, 0x32, 0x01, 0x00])
        _ = chip.handle([0xD4, 0x32, 0x01, 0x01])
        #expect(field.tag?.fieldOffs == 1)
        #expect(chip.handle([0xD4, 0x4A, 0x01, 0x00]).isTagFound)
    }

    @Test func inSelectAfterInDeselectWakesTheTagAndDoesNotReleaseIt() throws {
        let (chip, field) = awakeChip()
        #expect(chip.handle([0xD4, 0x4A, 0x01, 0x00]).isTagFound)
        #expect(chip.handle([0xD4, 0x44, 0x00]) == .reply([0xD5, 0x45, 0x00]))
        #expect(chip.handle([0xD4, 0x54, 0x01]) == .reply([0xD5, 0x55, 0x00]))
        #expect(field.tag?.halts == 1)
        #expect(field.releases == 0)
        field.tag?.answer = .data([0x0A])
        #expect(chip.handle([0xD4, 0x40, 0x01, 0x30, 0x04]) == .reply([0xD5, 0x41, 0x00, 0x0A]))
        #expect(field.tag?.commands == [[0x30, 0x04]])
        // Deselected again and followed by anything else: the host is done with the tag.
        #expect(chip.handle([0xD4, 0x44, 0x00]) == .reply([0xD5, 0x45, 0x00]))
        _ = chip.handle([0xD4, 0x32, 0x01, 0x00])
        #expect(field.releases == 1)
        // Field off: the target list is gone.
        #expect(chip.handle([0xD4, 0x54, 0x01]) == .reply([0xD5, 0x55, 0x27]))
    }

    @Test func inSelectSendingREQALeavesAHaltedTagSilent() throws {
        let (chip, field) = awakeChip()
        chip.inSelectWakesHalted = false
        #expect(chip.handle([0xD4, 0x4A, 0x01, 0x00]).isTagFound)
        #expect(chip.handle([0xD4, 0x44, 0x00]) == .reply([0xD5, 0x45, 0x00]))
        #expect(chip.handle([0xD4, 0x54, 0x01]) == .reply([0xD5, 0x55, 0x01]))
        #expect(field.releases == 0)
        // A field cycle wakes it; InRelease then drops it from the target list.
        _ = chip.handle([0xD4, 0x32, 0x01, 0x00])
        _ = chip.handle([0xD4, 0x32, 0x01, 0x01])
        #expect(chip.handle([0xD4, 0x4A, 0x01, 0x00]).isTagFound)
        #expect(chip.handle([0xD4, 0x52, 0x00]) == .reply([0xD5, 0x53, 0x00]))
        #expect(chip.handle([0xD4, 0x54, 0x01]) == .reply([0xD5, 0x55, 0x27]))
    }

    @Test func listPassiveTargetSwitchesAnOffFieldOnAsNfcpyExpects() throws {
        let (chip, field) = awakeChip()
        // nfcpy: RFConfiguration item 1 = 02 (AutoRFCA, field off), then InListPassiveTarget.
        _ = chip.handle([0xD4, 0x32, 0x01, 0x02])
        #expect(!chip.fieldOn)
        #expect(field.tag?.fieldOffs == 1)
        #expect(chip.handle([0xD4, 0x4A, 0x01, 0x00]).isTagFound)
        #expect(chip.fieldOn)
    }

    @Test(arguments: [
        (TagAnswer.data([1, 2, 3]), [UInt8]([0xD5, 0x41, 0x00, 1, 2, 3])),
        (.ack, [0xD5, 0x41, 0x00]),
        (.nak(5), [0xD5, 0x41, 0x14]),
        (.silence, [0xD5, 0x41, 0x01]),
    ])
    func dataExchangeMapsTagAnswersToStatus(answer: TagAnswer, reply: [UInt8]) throws {
        let (chip, field) = awakeChip()
        #expect(chip.handle([0xD4, 0x4A, 0x01, 0x00]).isTagFound)
        let tag = try #require(field.tag)
        tag.answer = answer
        #expect(chip.handle([0xD4, 0x40, 0x01, 0x30, 0x04]) == .reply(reply))
        #expect(tag.commands == [[0x30, 0x04]])
        #expect(reply[2] & 0x80 == 0)
    }

    @Test func dataExchangeWithoutATargetOrAfterRemoval() {
        let (chip, field) = awakeChip()
        #expect(chip.handle([0xD4, 0x40, 0x01, 0x30, 0x00]) == .reply([0xD5, 0x41, 0x27]))
        #expect(chip.handle([0xD4, 0x4A, 0x01, 0x00]).isTagFound)
        field.remove()
        #expect(chip.handle([0xD4, 0x40, 0x01, 0x30, 0x00]) == .reply([0xD5, 0x41, 0x01]))
    }

    @Test func communicateThruFollowsTheCRCRegisters() throws {
        let (chip, field) = awakeChip()
        let tag = try #require(field.tag)
        tag.answer = .ack
        // CRC on both ways (reset state): the chip adds the CRC, a 4-bit answer is a CRC error.
        #expect(chip.handle([0xD4, 0x42, 0xA2, 0x08, 0xDE, 0xAD, 0xBE, 0xEF]) == .reply([0xD5, 0x43, 0x02]))
        #expect(tag.raw.last?.0 == [0xA2, 0x08, 0xDE, 0xAD, 0xBE, 0xEF, 0x12, 0xFC])
        // CRC off: the host's bytes go out as they are; the 4-bit ACK is data 0A with RxLastBits 4.
        _ = chip.handle([0xD4, 0x08, 0x63, 0x02, 0x00, 0x63, 0x03, 0x00])
        #expect(
            chip.handle([0xD4, 0x42, 0xA2, 0x08, 0xDE, 0xAD, 0xBE, 0xEF, 0x12, 0xFC])
                == .reply([0xD5, 0x43, 0x00, 0x0A]))
        #expect(tag.raw.last?.0 == [0xA2, 0x08, 0xDE, 0xAD, 0xBE, 0xEF, 0x12, 0xFC])
        #expect(chip.registers[PN532Registers.control] & 0x07 == 4)
        tag.answer = .nak(0)
        #expect(chip.handle([0xD4, 0x42, 0x30, 0xFF, 0x7A, 0xA7]) == .reply([0xD5, 0x43, 0x00, 0x00]))
        // Raw answers carry their CRC_A; with RX CRC off it reaches the host.
        tag.answer = .data([0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03, 0x01, 0x9E])
        #expect(
            chip.handle([0xD4, 0x42, 0x60, 0xF8, 0x32])
                == .reply([0xD5, 0x43, 0x00, 0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03, 0x01, 0x9E]))
        // A REQA short frame (TxLastBits 7): ATQA has no CRC on the air.
        _ = chip.handle([0xD4, 0x08, 0x63, 0x3D, 0x07])
        tag.answer = .data([0x44, 0x00])
        #expect(chip.handle([0xD4, 0x42, 0x26]) == .reply([0xD5, 0x43, 0x00, 0x44, 0x00]))
        #expect(tag.raw.last.map { $0.1 } == 7)
        // RX CRC on: the chip checks and strips the CRC; an ATQA (no CRC on the air) fails the check.
        _ = chip.handle([0xD4, 0x08, 0x63, 0x03, 0x80])
        #expect(chip.handle([0xD4, 0x42, 0x26]) == .reply([0xD5, 0x43, 0x02]))
        _ = chip.handle([0xD4, 0x08, 0x63, 0x3D, 0x00])
        tag.answer = .data([0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03, 0x01, 0x9E])
        #expect(
            chip.handle([0xD4, 0x42, 0x60, 0xF8, 0x32])
                == .reply([0xD5, 0x43, 0x00, 0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03]))
        tag.answer = .data([0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03, 0x01, 0x9F])
        #expect(chip.handle([0xD4, 0x42, 0x60, 0xF8, 0x32]) == .reply([0xD5, 0x43, 0x02]))
    }

    /// What a libnfc session in raw mode (`NP_HANDLE_CRC` off, as our backend left it before it kept TX
    /// CRC on) hands on when it closes: InRelease, field off, PowerDown. The chip is lenient, as nfcpy
    /// needs it.
    private func chipAfterARawModeLibnfcSession() -> (PN532Chip, OneTagField) {
        let (chip, field) = awakeChip()
        chip.strict = false
        #expect(chip.handle([0xD4, 0x4A, 0x01, 0x00]).isTagFound)
        #expect(chip.handle([0xD4, 0x08, 0x63, 0x02, 0x00, 0x63, 0x03, 0x00]) == .reply([0xD5, 0x09]))
        #expect(chip.handle([0xD4, 0x52, 0x00]) == .reply([0xD5, 0x53, 0x00]))
        #expect(chip.handle([0xD4, 0x32, 0x01, 0x00]) == .reply([0xD5, 0x33]))
        #expect(chip.handle([0xD4, 0x16, 0xF0]) == .reply([0xD5, 0x17, 0x00]))
        return (chip, field)
    }

    /// nfcpy's open after it: GetFirmwareVersion, SAMConfiguration, SetParameters, RFConfiguration
    /// items 5 and 1 (AutoRFCA, field off). None of it writes a register.
    private func nfcpyOpens(_ chip: PN532Chip) {
        for frame: [UInt8] in [
            [0x02], [0x14, 0x01, 0x00, 0x00], [0x12, 0x00], [0x32, 0x05, 0x01, 0x00, 0x01],
            [0x32, 0x01, 0x02],
        ] {
            guard case .reply = chip.handle([0xD4] + frame) else {
                Issue.record("no reply to \(frame)")
                return
            }
        }
    }

    private let crcBits: [UInt8] = [0xD4, 0x06, 0x63, 0x02, 0x63, 0x03]

    @Test func registersOutliveAHostSessionAndItsPowerDown() {
        let (chip, _) = chipAfterARawModeLibnfcSession()
        nfcpyOpens(chip)
        #expect(chip.handle(crcBits) == .reply([0xD5, 0x07, 0x00, 0x00]), "CRC off, as libnfc left it")
    }

    /// A select switches CRC on both ways, whatever the last host left (issue 27 item 16): nfcpy
    /// clears RX CRC for a Type 2 tag and relies on the chip for TX CRC, so its GET_VERSION goes
    /// out with CRC_A and the raw answer comes back with its own.
    @Test(arguments: [[UInt8]([0x4A, 0x01, 0x00]), [0x60, 0x01, 0x01, 0x10]])
    func aSelectSwitchesCRCOnWhateverTheLastHostLeft(_ activation: [UInt8]) throws {
        let (chip, field) = chipAfterARawModeLibnfcSession()
        nfcpyOpens(chip)
        guard case .reply(let found) = chip.handle([0xD4] + activation) else {
            Issue.record("no tag found")
            return
        }
        #expect(found.count > 3 && found[2] == 0x01, "one target")
        #expect(chip.handle(crcBits) == .reply([0xD5, 0x07, 0x80, 0x80]))
        #expect(chip.handle([0xD4, 0x08, 0x63, 0x03, 0x00]) == .reply([0xD5, 0x09]))
        let tag = try #require(field.tag)
        let version: [UInt8] = [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03, 0x01, 0x9E]
        tag.answer = .data(version)
        #expect(chip.handle([0xD4, 0x42, 0x60]) == .reply([0xD5, 0x43, 0x00] + version))
        #expect(tag.raw.last?.0 == [0x60, 0xF8, 0x32])
    }

    @Test func inSelectSwitchesCRCOnAgainAfterTheHostClearedIt() {
        let (chip, _) = awakeChip()
        #expect(chip.handle([0xD4, 0x4A, 0x01, 0x00]).isTagFound)
        _ = chip.handle([0xD4, 0x08, 0x63, 0x02, 0x00, 0x63, 0x03, 0x00])
        #expect(chip.handle([0xD4, 0x44, 0x00]) == .reply([0xD5, 0x45, 0x00]))
        #expect(chip.handle([0xD4, 0x54, 0x01]) == .reply([0xD5, 0x55, 0x00]))
        #expect(chip.handle(crcBits) == .reply([0xD5, 0x07, 0x80, 0x80]))
    }

    /// `selectSetsCRC` off (`--select-keeps-crc`): the host's bits survive selects, and a session's
    /// raw mode reaches the next host, which then sends its commands without CRC_A.
    @Test func aFirmwareThatKeepsTheHostsCRCBitsCarriesRawModeIntoTheNextSession() throws {
        let (chip, field) = chipAfterARawModeLibnfcSession()
        chip.selectSetsCRC = false
        nfcpyOpens(chip)
        #expect(chip.handle([0xD4, 0x4A, 0x01, 0x00]).isTagFound)
        #expect(chip.handle(crcBits) == .reply([0xD5, 0x07, 0x00, 0x00]))
        #expect(chip.handle([0xD4, 0x44, 0x00]) == .reply([0xD5, 0x45, 0x00]))
        #expect(chip.handle([0xD4, 0x54, 0x01]) == .reply([0xD5, 0x55, 0x00]))
        #expect(chip.handle(crcBits) == .reply([0xD5, 0x07, 0x00, 0x00]))
        let tag = try #require(field.tag)
        tag.answer = .nak(1)
        #expect(chip.handle([0xD4, 0x42, 0x60]) == .reply([0xD5, 0x43, 0x00, 0x01]))
        #expect(tag.raw.last?.0 == [0x60])
    }

    @Test func autoPollFindsTheTagInLibnfcsLayout() {
        let (chip, _) = awakeChip()
        #expect(
            chip.handle([0xD4, 0x60, 0x14, 0x02, 0x20, 0x10, 0x03, 0x11, 0x12, 0x04, 0x03])
                == .reply([
                    0xD5, 0x61, 0x01, 0x10, 0x0C, 0x01, 0x00, 0x44, 0x00, 0x07, 0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5,
                    0xF6,
                ]))
    }
}

extension PN532Chip.Outcome {
    var isTagFound: Bool {
        if case .reply(let bytes) = self { return bytes.prefix(4) == [0xD5, 0x4B, 0x01, 0x01] }
        return false
    }
}
