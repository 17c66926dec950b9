import Foundation
import NDEF
import NFCTags
import TagEmulator
import TestSupport
import Testing

@testable import ReaderLibNFC

/// A field the test swaps by hand: a Type 2 and a Type 4 tag take turns in front of one emulated PN532.
private final class SwappedField: PN532TagField {
    let tags: [any EmulatedTag]
    var index = 0
    init(_ tags: [any EmulatedTag]) { self.tags = tags }
    var current: (any TagEndpoint)? { tags[index] }
    func hostReleased() {}
    func insert(uid: [UInt8]?) throws(PN532ControlError) -> [UInt8] { tags[index].uid }
    func remove() {}
    func image() -> [UInt8]? { tags[index].image }
}

/// libnfc's ISO-DEP path (`docs/reference/type4.md` §6) through `LibNFCReader` to an emulated NTAG 424 DNA on a
/// PN532 pty: the ATS in the detection, APDUs through InDataExchange (easy framing on), long answers in
/// extended frames and in MI pieces, and the Type 2 raw path unchanged next to it.
@Suite(.serialized)
struct LibNFCType4Tests {
    private static let uid: [UInt8] = [0x04, 0x42, 0x42, 0x00, 0x00, 0x00, 0x01]

    /// An emulator serving `field`, started, and the reader spec for it.
    private func emulator(
        _ field: any PN532TagField, selectSetsCRC: Bool = true
    ) throws -> (PN532Emulator, ReaderSpec) {
        let emulator = try PN532Emulator(
            field: field, configuration: .init(selectSetsCRC: selectSetsCRC))
        emulator.start()
        return (emulator, try ReaderSpec("nfc:pn532_uart:" + emulator.slavePath + "?slack=1000"))
    }

    /// A delivery-state NTAG 424 DNA whose NDEF file holds `file` from offset 0.
    private func ntag424(holding file: [UInt8]) throws -> Type4Emulator {
        var image = try Type4Emulator(chip: .ntag424, uid: Self.uid).image
        image.replaceSubrange(32..<(32 + file.count), with: file)
        return try Type4Emulator(image: image, chip: .ntag424, uid: Self.uid)
    }

    /// Three APDUs: select the NDEF application, select the NDEF file E104, READ BINARY its first 256 bytes.
    private func readNDEFFileHead(_ reader: LibNFCReader) async throws -> [UInt8] {
        try await reader.withTransceiver { transceiver in
            let type4 = Type4Tag(transceiver: transceiver)
            try type4.selectNDEFApplication()
            try type4.selectFile(0xE104)
            return try type4.readBinary(offset: 0, count: 256)
        }
    }

    @Test func pollReportsTheATSAndAPDUsGoThroughInDataExchange() async throws {
        let message = (0..<254).map { UInt8($0 % 251) }
        let tag = try ntag424(holding: [0x00, 0xFE] + message)
        let (emulator, spec) = try emulator(SwappedField([tag]))
        defer { emulator.stop() }
        let reader = try await LibNFCReader.open(spec: spec)
        let state = try await reader.poll(timeoutMilliseconds: 500)
        let ats: [UInt8] = [0x06, 0x77, 0x77, 0x71, 0x02, 0x80]
        #expect(state == .tag(DetectedTag(uid: Self.uid, atqa: 0x0344, sak: 0x20, ats: ats)))
        let thruBefore = emulator.withChip { $0.commandCounts[0x42] ?? 0 }
        // Le 00: 256 bytes and the status word, D5 41 00 + 258 = an extended PN532 frame.
        let read = try await readNDEFFileHead(reader)
        #expect(read == [0x00, 0xFE] + message)
        #expect(emulator.withChip { $0.commandCounts[0x40] ?? 0 } == 3, "three APDUs, three InDataExchange")
        #expect(emulator.withChip { $0.commandCounts[0x42] ?? 0 } == thruBefore, "no raw frame for a Type 4 tag")
        #expect(tag.exchangeCount == 3)
        await reader.close()
    }

    @Test func anAnswerTheChipSplitsWithMIIsJoinedByLibnfc() async throws {
        let message = (0..<254).map { UInt8(255 - $0) }
        let tag = try ntag424(holding: [0x00, 0xFE] + message)
        let (emulator, spec) = try emulator(SwappedField([tag]))
        defer { emulator.stop() }
        emulator.withChip { $0.maximumDataIn = 100 }
        let reader = try await LibNFCReader.open(spec: spec)
        _ = try await reader.poll(timeoutMilliseconds: 500)
        let read = try await readNDEFFileHead(reader)
        #expect(read == [0x00, 0xFE] + message)
        // 258 answer bytes in pieces of 100: the APDU and two bare `40 01` continuations.
        #expect(emulator.withChip { $0.commandCounts[0x40] ?? 0 } == 5)
        #expect(tag.exchangeCount == 3)
        await reader.close()
    }

    @Test func type2AndType4TagsEachGetTheirOwnPathOnOneReader() async throws {
        let type2 = try NTAGEmulator(chip: .ntag215, uid: [0x04, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60])
        let type4 = try ntag424(holding: [0x00, 0x00])
        let field = SwappedField([type2, type4])
        // Selects keep the host's CRC bits, so the backend itself must put RX CRC back for InDataExchange.
        let (emulator, spec) = try emulator(field, selectSetsCRC: false)
        defer { emulator.stop() }
        let reader = try await LibNFCReader.open(spec: spec)
        for round in 0..<2 {
            emulator.withChip { _ in field.index = 0 }
            guard case .tag(let first) = try await reader.poll(timeoutMilliseconds: 500) else {
                Issue.record("no Type 2 tag in round \(round)")
                return
            }
            #expect(first.ats.isEmpty && first.sak == 0x00)
            let page3 = try await reader.withTransceiver { try $0.transceive([0x30, 0x03], timeoutMilliseconds: 5) }
            #expect(Array(page3.prefix(4)) == [0xE1, 0x10, 0x3E, 0x00])
            #expect(emulator.withChip { !$0.registers.receiveCRC }, "Type 2 commands run with RX CRC off")
            _ = try await reader.release(waitingForRemovalMilliseconds: 0)
            emulator.withChip { _ in field.index = 1 }
            guard case .tag(let second) = try await reader.poll(timeoutMilliseconds: 500) else {
                Issue.record("no Type 4 tag in round \(round)")
                return
            }
            #expect(second.ats == [0x06, 0x77, 0x77, 0x71, 0x02, 0x80])
            let answer = try await reader.withTransceiver { transceiver in
                try transceiver.transceive(
                    [0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00],
                    timeoutMilliseconds: 200)
            }
            #expect(answer == [0x90, 0x00])
            #expect(emulator.withChip { $0.registers.receiveCRC }, "RX CRC back on for the ISO-DEP tag")
            _ = try await reader.release(waitingForRemovalMilliseconds: 0)
        }
        await reader.close()
    }

    @Test func aTornAPDUIsTagLostAndSilenceIsNoAnswer() async throws {
        let tag = try ntag424(holding: [0x00, 0x00])
        let (emulator, spec) = try emulator(SwappedField([tag]))
        defer { emulator.stop() }
        emulator.withChip { _ in tag.faults.noAnswerExchanges = [1] }
        let reader = try await LibNFCReader.open(spec: spec)
        _ = try await reader.poll(timeoutMilliseconds: 500)
        let select: [UInt8] = [0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00]
        await #expect(throws: TransportError.noAnswer) {
            try await reader.withTransceiver { try $0.transceive(select, timeoutMilliseconds: 200) }
        }
        let again = try await reader.withTransceiver { try $0.transceive(select, timeoutMilliseconds: 200) }
        #expect(again == [0x90, 0x00], "the tag stayed: the next APDU is answered")
        emulator.withChip { _ in tag.faults.removedAfterExchanges = 0 }
        await #expect(throws: TransportError.tagLost) {
            try await reader.withTransceiver { try $0.transceive(select, timeoutMilliseconds: 200) }
        }
        await reader.close()
    }

    @Test(arguments: [
        (13, "06 77 77 71 02 80", 200, 232),  // NTAG 424 DNA SELECT: 3 blocks × 2 × 38.66 ms
        (261, "06 77 77 71 02 80", 200, 387),  // 3 command blocks of 125 INF bytes + 2
        (13, "05 78 80 40 00", 200, 200),  // FWI 4 (4.83 ms) and FSC 256: the caller's 200 ms wins
        (13, "05 78 80 E0 00", 200, 29_695),  // FWI 14 (4.95 s)
    ])
    func theAPDUTimeoutFollowsTheFrameWaitingTime(bytes: Int, ats: String, requested: Int, expected: Int) throws {
        let decoded = try #require(Hex.bytes(ats).flatMap { Type4ATS($0) })
        #expect(ISODEPExchangeBudget.milliseconds(commandBytes: bytes, ats: decoded, requested: requested) == expected)
    }
}
