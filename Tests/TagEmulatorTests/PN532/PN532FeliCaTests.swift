import Foundation
import NFCTags
import TagEmulator
import TestSupport
import Testing

/// The PN532 in front of an emulated FeliCa Lite-S (`docs/reference/type3.md` §2): InListPassiveTarget at 212 and
/// 424 kbit/s with the host's polling payload, FeliCa frames in InDataExchange and InCommunicateThru, no HALT.
/// Hex vectors both ways, real tag model; then stock `nfc-list`.
@Suite(.serialized)
struct PN532FeliCaTests {
    private static let idm = "012EA00000000001"
    private static let pmm = "00F1000000014300"
    /// The empty attribute block of a formatted Lite-S: Ver 10, Nbr 4, Nbw 1, NmaxB 13, RWFlag 01, Ln 0.
    private static let emptyAttributes = "10 04 01 000D 00000000 00 01 000000 0023"

    /// An awake chip (SAMConfiguration) in front of one `sim:felica-lite-s` tag.
    private func chip(_ options: String = "") throws -> (PN532Chip, FeliCaEmulator) {
        let field = try PN532TagPopulation(spec: ReaderSpec("sim:felica-lite-s?uid=012EA00000000001" + options))
        let tag = try #require(field.currentTag as? FeliCaEmulator)
        let chip = PN532Chip(field: field)
        #expect(chip.handle([0xD4, 0x14, 0x01], wokenUp: true) == .reply([0xD5, 0x15]))
        #expect(chip.handle(try hex("D432 05 00 01 02")) == .reply(try hex("D533")), "finite retries")
        return (chip, tag)
    }

    @Test func listPassiveTargetPollsAtBothRatesAndAnswersPOLRESWithTheSystemCodeWhenAsked() throws {
        let (chip, _) = try chip()
        #expect(try send(chip, "D44A 0101 00FFFF0100") == hex("D54B 01 01 14 01 \(Self.idm) \(Self.pmm) 88B4"))
        #expect(chip.registers[PN532Registers.txMode] == 0x92 && chip.registers[PN532Registers.rxMode] == 0x92)
        #expect(try send(chip, "D44A 0102 00FFFF0000") == hex("D54B 01 01 12 01 \(Self.idm) \(Self.pmm)"))
        #expect(chip.registers[PN532Registers.txMode] == 0xA2, "424 kbit/s FeliCa framing")
        #expect(try send(chip, "D44A 0101 0012FC0100") == hex("D54B 01 01 14 01 \(Self.idm) \(Self.pmm) 12FC"))
        #expect(try send(chip, "D44A 0101 00FE000100") == hex("D54B 00"), "no common area on a Lite-S")
        #expect(try send(chip, "D44A 0100") == hex("D54B 00"), "a FeliCa card answers no REQA")
    }

    @Test func anUnformattedLiteSDoesNotAnswerTheNDEFSystemCode() throws {
        let (chip, _) = try chip("&faults=unformatted:1")
        #expect(try send(chip, "D44A 0101 0012FC0100") == hex("D54B 00"))
        #expect(try send(chip, "D44A 0101 0088B40100") == hex("D54B 01 01 14 01 \(Self.idm) \(Self.pmm) 88B4"))
    }

    @Test func dataExchangeCarriesFeliCaFramesWithTheirLENAndIgnoresOtherIDms() throws {
        let (chip, tag) = try chip()
        _ = try send(chip, "D44A 0101 00FFFF0100")
        let read = "D440 01 10 06 \(Self.idm) 01 0B00 01 8000"
        #expect(try send(chip, read) == hex("D541 00 1D 07 \(Self.idm) 0000 01 \(Self.emptyAttributes)"))
        #expect(try send(chip, "D440 01 06 00 12FC 00 00") == hex("D541 00 12 01 \(Self.idm) \(Self.pmm)"))
        #expect(try send(chip, "D440 01 10 06 012EA00000000002 01 0B00 01 8000") == hex("D541 01"), "other IDm")
        #expect(try send(chip, "D440 01 11 06 \(Self.idm) 01 0B00 01 8000") == hex("D541 01"), "bad LEN")
        #expect(try send(chip, "D440 01 0A 04 \(Self.idm)") == hex("D541 01"), "a Lite-S has no Request Response")
        let write = "D440 01 20 08 \(Self.idm) 01 0900 01 8001 " + String(repeating: "AB", count: 16)
        #expect(try send(chip, write) == hex("D541 00 0C 09 \(Self.idm) 0000"))
        #expect(tag.blocks[1] == [UInt8](repeating: 0xAB, count: 16))
        #expect(tag.exchangeCount == 5, "every well-framed frame but the activation reaches the card")
    }

    @Test func communicateThruNeedsFeliCaFramingAsNfcpySetsIt() throws {
        let (chip, _) = try chip()
        _ = try send(chip, "D44A 0101 00FFFF0100")
        #expect(try send(chip, "D408 6302 80 6303 80") == hex("D509"))
        #expect(try send(chip, "D442 06 00 12FC 00 00") == hex("D543 01"), "106 kbps type A framing: silence")
        #expect(try send(chip, "D408 6302 92 6303 92 6305 00") == hex("D509"))
        #expect(try send(chip, "D442 06 00 12FC 00 00") == hex("D543 00 12 01 \(Self.idm) \(Self.pmm)"))
        #expect(
            try send(chip, "D442 10 06 \(Self.idm) 01 0B00 01 8088")
                == hex(
                    "D543 00 1D 07 \(Self.idm) 0000 01 FFFFFF01 07000000 00000000 00000000"))
    }

    @Test func deselectAndReleaseLeaveTheCardVisibleAndInSelectPollsItAgain() throws {
        let (chip, _) = try chip()
        _ = try send(chip, "D44A 0102 00FFFF0100")
        #expect(try send(chip, "D444 01") == hex("D545 00"))
        #expect(try send(chip, "D454 01") == hex("D555 00"))
        #expect(chip.registers[PN532Registers.txMode] == 0xA2, "InSelect keeps the listed rate")
        #expect(try send(chip, "D452 01") == hex("D553 00"))
        #expect(try send(chip, "D44A 0101 00FFFF0000") == hex("D54B 01 01 12 01 \(Self.idm) \(Self.pmm)"))
        // A Type A activation afterwards finds nothing.
        #expect(try send(chip, "D44A 0100") == hex("D54B 00"))
    }

    @Test func nfcListShowsTheLiteSAtBothRatesWithIDmPMmAndSystemCode() async throws {
        let field = try PN532TagPopulation(spec: ReaderSpec("sim:felica-lite-s?uid=012EA00000000001"))
        let emulator = try PN532Emulator(field: field)
        emulator.start()
        defer { emulator.stop() }
        let (status, text) = try await onThread {
            try runTool("nfc-list", [], connstring: "pn532_uart:" + emulator.slavePath)
        }
        #expect(status == 0, "\(text)")
        for rate in ["212", "424"] {
            let block =
                "1 Felica (\(rate) kbps) passive target(s) found:\nFeliCa (\(rate) kbps) target:\n"
                + "        ID (NFCID2): 01  2e  a0  00  00  00  00  01  \n"
                + "    Parameter (PAD): 00  f1  00  00  00  01  43  00  \n"
                + "   System Code (SC): 88  b4  \n"
            #expect(text.contains(block), "\(text)")
        }
        #expect(!text.contains("ISO/IEC 14443A"), "\(text)")
    }
}
