import Foundation
import NDEF
import NFCTags
import ReaderPCSC
import TagEmulator
import TestSupport
import Testing

private let tagUID: [UInt8] = [0xE0, 0x04, 0x01, 0x08, 0x12, 0x34, 0x56, 0x78]
private let slixUID: [UInt8] = [0xE0, 0x04, 0x01, 0x10, 0x12, 0x34, 0x56, 0x78]
private let slix2ATR: [UInt8] = [
    0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x0B, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00,
    0x77,
]

/// The Type 5 path through a real pcscd with the vsmartcard vpcd driver and the vpcd virtual card: `PCSCReader`
/// tells the family by the ISO 15693 ATR, carries requests by transparent exchange (`acr1552u`, `omnikey`) or
/// storage-card APDUs (`storage`); pyscard, a client nobody here wrote, reads the blocks back
/// (`docs/reference/type5.md` §3).
@Suite(.serialized, .timeLimit(.minutes(5)))
struct PCSCType5Tests {
    @Test(arguments: [PCSCReaderStyle.acr1552u, .omnikey, .storage])
    func readerTellsType5ByTheATRAndWritesVerifiesAndLocksAsTheStyleAllows(style: PCSCReaderStyle) async throws {
        let spec = "sim:icode-slix2?uid=\(Hex.compact(tagUID))&count=1"
        let cardStyle = try #require(VPCDReaderStyle(rawValue: style.rawValue))
        try await withVirtualReaders([spec], style: cardStyle) { readers in
            let reader = try await readers.reader(0, options: "?style=\(style)")
            let tag = try await detectTag(reader)
            #expect(tag.uid == tagUID, "display order whatever the reader's order")
            #expect(tag.isISO15693)
            let family = try #require(TagFamilies.standard.family(for: tag))
            #expect(family.name == "type5")
            let message = uriMessage("t5", style.rawValue)
            let (chip, read, lockError) = try await reader.withTransceiver { link in
                #expect(link.supportsRawCommands == (style != .storage))
                let opened = family.open(link, activation: tag)
                let chip = try opened.identify()
                var lockError: TagError?
                do {
                    try opened.prepareWrite(hasCredentials: false, lock: true)
                } catch let error as TagError {
                    lockError = error
                }
                let (status, _) = try opened.detectNDEF()
                #expect(status == .readWrite)
                let written = try opened.writeNDEF(message)
                try opened.verify(written, ignoring: [])
                if lockError == nil { try opened.writeLock() }
                return (chip, try opened.readNDEF(), lockError)
            }
            #expect(read == message)
            #expect(chip?.id == "icode-slix2", "the UID's product bits name the chip, system information or not")
            let stats = await readers.cards[0].command("stats")
            if style == .storage {
                #expect(lockError?.code == .lockUnsupported)
                #expect(stats.contains(" raw=0 "), "\(stats)")
            } else {
                #expect(lockError == nil)
                #expect(stats.contains(" read=0 ") && stats.contains(" update=0 "), "no storage-card APDU: \(stats)")
            }
            #expect(try await reader.currentUID() == tagUID)
            let dump = await readers.cards[0].command("dump")
            #expect(dump.contains("E1 40 28 01") == (style == .storage), "unlocked CC on storage only: \(dump)")
            #expect(dump.contains("E1 43 28 01") == (style != .storage), "read-only CC after the lock: \(dump)")
        }
    }

    @Test func pyscardReadsTheCCAndNDEFBlocksThePCSCReaderWrote() async throws {
        let spec = "sim:icode-slix2?uid=\(Hex.compact(tagUID))&count=1"
        try await withVirtualReaders([spec], style: .acr1552u) { readers in
            let reader = try await readers.reader(0, options: "?style=acr1552u")
            let tag = try await detectTag(reader)
            let message = uriMessage("t5", "written-by-provision")
            try await reader.withTransceiver { link in
                let opened = Type5Family().open(link, activation: tag)
                _ = try opened.identify()
                _ = try opened.detectNDEF()
                _ = try opened.writeNDEF(message)
            }
            #expect(try await reader.release(waitingForRemovalMilliseconds: 0) == false)
            let report = try await PyscardClient.readType5Blocks(
                reader: readers.daemon.readerNames[0], blockNumberInP1: false)
            #expect(report.status == 0, "\(report.stderr)")
            #expect(report.bytes("atr") == slix2ATR)
            #expect(report.bytes("uid") == tagUID.reversed(), "the ACR1552U gives the UID in air order")
            #expect(report.json?["blockSize"] as? Int == 4)
            let blocks = try #require(report.bytes("blocks"))
            #expect(Array(blocks.prefix(6)) == [0xE1, 0x40, 0x28, 0x01, 0x03, UInt8(message.count)])
            #expect(Array(blocks[6..<(6 + message.count)]) == message)
        }
    }

    @Test func pyscardReadsBlocksInTheP1ConventionOfAStorageReader() async throws {
        let spec = "sim:icode-slix?uid=E004011012345678&count=1"
        try await withVirtualReaders([spec], style: .storage) { readers in
            let reader = try await readers.reader(0, options: "?style=storage")
            let tag = try await detectTag(reader)
            #expect(tag.uid == slixUID)
            try await reader.withTransceiver { link in
                let opened = Type5Family().open(link, activation: tag)
                _ = try opened.identify()
                _ = try opened.detectNDEF()
                _ = try opened.writeNDEF(uriMessage("t5", "p1"))
            }
            #expect(try await reader.release(waitingForRemovalMilliseconds: 0) == false)
            let report = try await PyscardClient.readType5Blocks(
                reader: readers.daemon.readerNames[0], blockNumberInP1: true)
            #expect(report.status == 0, "\(report.stderr)")
            #expect(report.bytes("uid") == slixUID)
            let blocks = try #require(report.bytes("blocks"))
            #expect(Array(blocks.prefix(4)) == [0xE1, 0x40, 0x0E, 0x01])
            #expect(Array(blocks[6..<(6 + uriMessage("t5", "p1").count)]) == uriMessage("t5", "p1"))
        }
    }
}
