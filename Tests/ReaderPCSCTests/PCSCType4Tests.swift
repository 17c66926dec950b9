import Foundation
import NDEF
import NFCTags
import ReaderPCSC
import TagEmulator
import TestSupport
import Testing

private let tagUID: [UInt8] = [0x04, 0x96, 0x8C, 0xAA, 0x5C, 0x5E, 0x80]
private let ntag424ATS: [UInt8] = [0x06, 0x77, 0x77, 0x71, 0x02, 0x80]

/// One Text record (`en`) with `count` letters: long enough to need several MLe/MLc pieces.
private func textMessage(count: Int) -> [UInt8] {
    let payload = [0x02] + Array("en".utf8) + (0..<count).map { UInt8(0x61 + $0 % 26) }
    return [0xD1, 0x01, UInt8(payload.count), 0x54] + payload
}

/// The Type 4 path through a real pcscd with the vsmartcard vpcd driver and the vpcd virtual card:
/// `PCSCReader` tells the family by the ATR and carries APDUs unchanged; pyscard, a client nobody here
/// wrote, reads the same NDEF file (`docs/reference/pcsc.md` §10.1, §10.6).
@Suite(.serialized, .timeLimit(.minutes(5)))
struct PCSCType4Tests {
    @Test(arguments: PCSCReaderStyle.allCases)
    func readerTellsType4ByTheATRReadsTheATSAndWritesNDEFWithPlainAPDUs(style: PCSCReaderStyle) async throws {
        let spec = "sim:ntag424?uid=\(Hex.compact(tagUID))&count=1"
        let cardStyle = VPCDReaderStyle(rawValue: style.rawValue) ?? .plain
        try await withVirtualReaders([spec], style: cardStyle) { readers in
            let reader = try await readers.reader(0, options: "?style=\(style)")
            let tag = try await detectTag(reader)
            #expect(tag.uid == tagUID)
            #expect(tag.sak == 0x20)
            #expect(tag.ats == ntag424ATS)
            #expect(TagFamilies.standard.family(for: tag)?.name == "type4")
            let message = uriMessage("t4", style.rawValue)
            let (selected, read, exchanges) = try await reader.withTransceiver { link in
                #expect(link.supportsRawCommands, "every APDU reaches an ISO-DEP card on every style")
                let selected = try link.transceive(
                    [0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00],
                    timeoutMilliseconds: 50)
                let type4 = Type4Tag(transceiver: link)
                let (status, capacity) = try type4.detectNDEF()
                #expect(status == .readWrite && capacity == 254, "\(status) \(capacity)")
                let written = try type4.writeNDEF(message)
                try type4.verify(written)
                return (selected, try type4.readNDEF(), type4.total.exchanges)
            }
            #expect(selected == [0x90, 0x00], "the R-APDU comes back unchanged, status word included")
            #expect(read == message)
            let stats = await readers.cards[0].command("stats")
            #expect(stats.contains(" read=0 ") && stats.contains(" update=0 "), "no storage-card APDU: \(stats)")
            #expect(stats.contains(" iso=\(exchanges + 1) "), "\(exchanges + 1) pass-through APDUs: \(stats)")
            #expect(try await reader.currentUID() == tagUID)
        }
    }

    @Test func type2TagOnTheSameReaderStaysOnTheStorageCardPath() async throws {
        try await withVirtualReaders([ntag213(uidA)]) { readers in
            let reader = try await readers.reader(0, options: "?style=acr122u")
            let tag = try await detectTag(reader)
            #expect(tag == DetectedTag(uid: uidA))
            #expect(TagFamilies.standard.family(for: tag)?.name == "type2")
            let page = try await reader.withTransceiver { try $0.transceive([0x30, 0x03], timeoutMilliseconds: 5) }
            #expect(page.prefix(4) == [0xE1, 0x10, 0x12, 0x00])
        }
    }

    @Test func pyscardReadsTheNDEFFileThePCSCReaderWrote() async throws {
        let spec = "sim:ntag424?uid=\(Hex.compact(tagUID))&count=1"
        try await withVirtualReaders([spec]) { readers in
            let reader = try await readers.reader(0)
            _ = try await detectTag(reader)
            let message = uriMessage("t4", "written-by-provision")
            try await reader.withTransceiver { link in
                let type4 = Type4Tag(transceiver: link)
                _ = try type4.detectNDEF()
                _ = try type4.writeNDEF(message)
            }
            #expect(try await reader.release(waitingForRemovalMilliseconds: 0) == false)
            let report = try await PyscardClient.run(reader: readers.daemon.readerNames[0])
            #expect(report.status == 0, "\(report.stderr)")
            #expect(report.bytes("atr") == [0x3B, 0x81, 0x80, 0x01, 0x80, 0x80])
            #expect(report.bytes("uid") == tagUID)
            #expect(report.bytes("ats") == ntag424ATS)
            #expect(report.json?["storageRead"] as? String == "6300", "FF B0 is refused for an ISO-DEP card")
            #expect(report.json?["missingFile"] as? String == "6A82", "the tag's own status word")
            #expect(report.bytes("cc") == Array(try hex("00 17 20 01 00 00 FF 04 06 E1 04 01 00 00 00")))
            #expect(report.bytes("ndef") == message)
        }
    }

    @Test func pyscardWritesAndReadsAGenericTagInMLeAndMLcPiecesAndTheImageHoldsIt() async throws {
        let spec = "sim:type4?uid=\(Hex.compact(tagUID))&count=1&size=512&mle=59&mlc=52"
        try await withVirtualReaders([spec]) { readers in
            let message = textMessage(count: 200)
            let report = try await PyscardClient.run(reader: readers.daemon.readerNames[0], write: message)
            #expect(report.status == 0, "\(report.stderr)")
            #expect(report.bytes("atr") == [0x3B, 0x81, 0x80, 0x01, 0x80, 0x80])
            #expect(report.bytes("cc") == Array(try hex("00 0F 20 00 3B 00 34 04 06 E1 04 02 00 00 00")))
            #expect(report.json?["nlen"] as? Int == message.count)
            #expect(report.bytes("ndef") == message)
            // 3 pseudo-APDUs, 4 SELECTs, the CC; NLEN 0, 207 bytes in 52-byte pieces, NLEN; NLEN, 4 × ≤ 59 bytes.
            #expect(report.json?["apdus"] as? Int == 3 + 4 + 1 + (1 + 4 + 1) + (1 + 4), "\(report.stdout)")
            // The tag's stored image: CC (15 bytes), then the NDEF file: NLEN and the message.
            _ = await readers.cards[0].command("remove")
            let file = readers.store.appendingPathComponent("\(Hex.compact(tagUID)).bin")
            let image = try [UInt8](Data(contentsOf: file))
            #expect(Array(image[15..<17]) == [UInt8(message.count >> 8), UInt8(message.count & 0xFF)])
            #expect(Array(image[17..<(17 + message.count)]) == message)
        }
    }

    @Test func emulateVPCDProcessPresentsAType4TagThatPyscardWritesAndReads() async throws {
        let help = try ProvisionProcess.run(["emulate", "vpcd", "--help"])
        #expect(help.status == 0 && help.stdout.contains("sim:ntag424") && help.stdout.contains("3B 8n 80 01"))
        let daemon = try await PCSCDaemon.start(slots: 1) { try PCSCReader.listReaders().count }
        let process = Process()
        process.executableURL = ProvisionProcess.executableURL
        process.arguments = [
            "emulate", "vpcd", "--port", String(daemon.ports[0]), "--reader-style", "acr1252u",
            "--tags", "sim:type4?uid=\(Hex.compact(tagUID))&count=1&size=300&mle=40&mlc=33",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let message = uriMessage("t4", "from-pyscard")
        let report = try await PyscardClient.run(reader: daemon.readerNames[0], write: message)
        let second = try await PyscardClient.run(reader: daemon.readerNames[0])
        process.terminate()
        process.waitUntilExit()
        await daemon.stop()
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.bytes("atr") == [0x3B, 0x81, 0x80, 0x01, 0x80, 0x80])
        #expect(report.bytes("uid") == tagUID)
        #expect(report.bytes("cc") == Array(try hex("00 0F 20 00 28 00 21 04 06 E1 04 01 2C 00 00")))
        #expect(report.bytes("ndef") == message)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.bytes("ndef") == message, "a second connection reads what the first wrote")
        #expect(process.terminationStatus == 0)
    }
}

private func hex(_ text: String) throws -> [UInt8] { try #require(Hex.bytes(text)) }
