import Foundation
import NDEF
import NFCTags
import ReaderPCSC
import TagEmulator
import TestSupport
import Testing

private let idm: [UInt8] = [0x01, 0x2E, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
private let feliCaATR: [UInt8] = [
    0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x11, 0x00, 0x3B, 0x00, 0x00, 0x00, 0x00,
    0x42,
]

/// The Type 3 (FeliCa) path through a real pcscd with the vsmartcard vpcd driver and the vpcd virtual card:
/// `PCSCReader` tells a FeliCa card by its ATR, polls `12FC` (then `FFFF`) by direct transmit (acr122u:
/// PN532 InDataExchange; acr1252u: the bare frame) and carries the family's frames the same way; a style
/// without a FeliCa path refuses the card by name; pyscard, a client nobody here wrote, reads it back.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct PCSCType3Tests {
    @Test(arguments: [PCSCReaderStyle.acr122u, .acr1252u])
    func readerPollsTheLiteSAndTheFamilyWritesReadsBackAndLocksIt(style: PCSCReaderStyle) async throws {
        let spec = "sim:felica-lite-s?uid=012E112233445566&count=1"
        let cardStyle = try #require(VPCDReaderStyle(rawValue: style.rawValue))
        try await withVirtualReaders([spec], style: cardStyle) { readers in
            let reader = try await readers.reader(0, options: "?style=\(style)")
            let before = await reader.transmittedAPDUs
            let tag = try await detectTag(reader)
            let activation = try #require(tag.felica)
            #expect(tag.uid == idm && activation.idm == idm)
            #expect(activation.pmm == FeliCaLiteS.pmm)
            #expect(activation.systemCode == 0x12FC, "the NDEF system answered the first Polling")
            #expect(await reader.transmittedAPDUs - before == 1, "one Polling, no FF CA before it")
            let family = try #require(TagFamilies.standard.family(for: tag))
            #expect(family.name == "type3")
            let message = uriMessage("t3", style.rawValue)
            let (chip, read) = try await reader.withTransceiver { link in
                #expect(link.supportsRawCommands)
                let opened = family.open(link, activation: tag)
                let chip = try opened.identify()
                try opened.prepareWrite(hasCredentials: false, lock: true)
                let (status, _) = try opened.detectNDEF()
                #expect(status == .readWrite)
                let written = try opened.writeNDEF(message)
                try opened.verify(written, ignoring: [])
                try opened.writeLock()
                return (chip, try opened.readNDEF())
            }
            #expect(read == message)
            #expect(chip == Type3Family.liteS)
            #expect(try await reader.currentUID() == idm)
            let stats = await readers.cards[0].command("stats")
            #expect(stats.contains(" read=0 ") && stats.contains(" update=0 "), "frames only: \(stats)")
            #expect(await reader.transmittedAPDUs - before > 5, "every frame is counted")
            let again = try await reader.withTransceiver { link in
                try family.open(link, activation: tag).detectNDEF().0
            }
            #expect(again == .readOnly, "a fresh look at the locked tag")
        }
    }

    /// The card is the tag's failure, not the reader's: detected by its IDm alone (a job of another family refuses
    /// its chip without a frame), and the first frame fails naming the style and what would reach it.
    @Test(arguments: [PCSCReaderStyle.omnikey, .acr1552u, .plain])
    func aStyleWithoutAFeliCaPathDetectsTheCardButNamesTheStyleAtItsFirstFrame(style: PCSCReaderStyle) async throws {
        let spec = "sim:felica-lite-s?uid=012E112233445566&count=1"
        let cardStyle = try #require(VPCDReaderStyle(rawValue: style.rawValue))
        try await withVirtualReaders([spec], style: cardStyle) { readers in
            let reader = try await readers.reader(0, options: "?style=\(style)")
            let tag = try await detectTag(reader)
            #expect(tag.felica?.idm == idm && tag.felica?.pmm == [], "the IDm from FF CA, no Polling answer")
            let error = await #expect(throws: TransportError.self) {
                try await reader.withTransceiver { link in
                    _ = try Type3Family().open(link, activation: tag).detectNDEF()
                }
            }
            let text = "\(error.map { "\($0)" } ?? "")"
            #expect(text.contains("(style \(style)) cannot send FeliCa frames"), "\(text)")
            #expect(text.contains("acr122u or acr1252u") && text.contains("nfc:"), "\(text)")
        }
    }

    @Test func pyscardSeesTheFeliCaATRTheIDmAndTheBlockThePCSCReaderWrote() async throws {
        let spec = "sim:felica-lite-s?uid=012E112233445566&count=1"
        try await withVirtualReaders([spec], style: .acr122u) { readers in
            let reader = try await readers.reader(0, options: "?style=acr122u")
            let tag = try await detectTag(reader)
            let message = uriMessage("t3", "written-by-provision")
            try await reader.withTransceiver { link in
                let opened = Type3Family().open(link, activation: tag)
                _ = try opened.identify()
                _ = try opened.detectNDEF()
                _ = try opened.writeNDEF(message)
            }
            #expect(try await reader.release(waitingForRemovalMilliseconds: 0) == false)
            let report = try await PyscardClient.readFeliCaBlock(reader: readers.daemon.readerNames[0])
            #expect(report.status == 0, "\(report.stderr)")
            #expect(report.bytes("atr") == feliCaATR)
            #expect(report.bytes("idm") == idm)
            let block0 = try #require(report.bytes("block0"))
            #expect(Array(block0.prefix(5)) == [0x10, 0x04, 0x01, 0x00, 0x0D], "Ver 1.0, Nbr 4, Nbw 1, NmaxB 13")
            #expect(block0[9] == 0x00 && block0[10] == 0x01, "WriteF 00 (done), RWFlag 01")
            #expect(Array(block0[11..<14]) == [0x00, 0x00, UInt8(message.count)], "Ln")
        }
    }
}
