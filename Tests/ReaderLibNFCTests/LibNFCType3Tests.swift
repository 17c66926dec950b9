import Foundation
import NFCTags
import TagEmulator
import TestSupport
import Testing

@testable import ReaderLibNFC

/// libnfc's FeliCa path (`docs/reference/type3.md` §2) through `LibNFCReader` to an emulated FeliCa Lite-S on a PN532
/// pty: InListPassiveTarget at 212 kbit/s polling `12FC` (then `FFFF`), FeliCa frames through InDataExchange, the
/// removal check without a field cycle, and the poll order that keeps a FeliCa line at one InListPassiveTarget
/// per poll.
@Suite(.serialized)
struct LibNFCType3Tests {
    private static let idm: [UInt8] = [0x01, 0x2E, 0xA0, 0x00, 0x00, 0x00, 0x00, 0x01]

    /// An emulator serving a `sim:felica-lite-s` tag (extra spec `options`), started, and its tag and reader spec.
    private func emulator(_ options: String = "") throws -> (PN532Emulator, FeliCaEmulator, ReaderSpec) {
        let field = try PN532TagPopulation(spec: ReaderSpec("sim:felica-lite-s?uid=012EA00000000001" + options))
        let tag = try #require(field.currentTag as? FeliCaEmulator)
        let emulator = try PN532Emulator(field: field)
        emulator.start()
        return (emulator, tag, try ReaderSpec("nfc:pn532_uart:" + emulator.slavePath + "?slack=1000"))
    }

    private func count(_ emulator: PN532Emulator, _ code: UInt8) -> Int {
        emulator.withChip { $0.commandCounts[code] ?? 0 }
    }

    @Test func pollFindsTheLiteSAndItsFramesGoThroughInDataExchange() async throws {
        let (emulator, tag, spec) = try emulator()
        defer { emulator.stop() }
        let reader = try await LibNFCReader.open(spec: spec)
        let pmm: [UInt8] = [0x00, 0xF1, 0x00, 0x00, 0x00, 0x01, 0x43, 0x00]
        let expected = DetectedTag(felica: FeliCaActivation(idm: Self.idm, pmm: pmm, systemCode: 0x12FC))
        #expect(try await reader.poll(timeoutMilliseconds: 500) == .tag(expected))
        #expect(count(emulator, 0x4A) == 2, "106 kbps type A first, then FeliCa at 212 kbit/s polling 12FC")
        let (status, capacity) = try await reader.withTransceiver { transceiver in
            let family = Type3Family().open(transceiver, activation: expected)
            return try family.detectNDEF()
        }
        #expect(status == .readWrite && capacity == 208)
        #expect(count(emulator, 0x40) == 1, "one Read in one InDataExchange: the detection was the 12FC Polling")
        #expect(count(emulator, 0x42) == 0, "no raw frame")
        #expect(tag.exchangeCount == 1)
        let fieldSwitches = count(emulator, 0x32)
        #expect(try await reader.release(waitingForRemovalMilliseconds: 120) == false, "the card stays")
        #expect(count(emulator, 0x32) == fieldSwitches, "no field cycle: a FeliCa card answers every Polling")
        let polls = count(emulator, 0x4A)
        #expect(polls > 2, "the removal check polls (12FC first) and finds the same IDm")
        #expect(try await reader.poll(timeoutMilliseconds: 500) == .tag(expected))
        #expect(count(emulator, 0x4A) == polls + 1, "the modulation that found the last tag is polled first")
        await reader.close()
    }

    @Test func silenceIsNoAnswerWhenPollingFindsTheCardAgainWithoutAFieldCycle() async throws {
        let (emulator, _, spec) = try emulator("&faults=unformatted:1")
        defer { emulator.stop() }
        let reader = try await LibNFCReader.open(spec: spec)
        guard case .tag(let detected) = try await reader.poll(timeoutMilliseconds: 500) else {
            Issue.record("no FeliCa card found")
            return
        }
        let fieldSwitches = count(emulator, 0x32)
        let outcome = try await reader.withTransceiver { transceiver -> String in
            do {
                try Type3Tag(transceiver: transceiver, activation: detected.felica).pollNDEF()
                return "answered"
            } catch {
                return "\(error)"
            }
        }
        #expect(outcome == "\(TransportError.noAnswer)", "SYS_OP 00: no NDEF system")
        #expect(count(emulator, 0x32) == fieldSwitches, "a FeliCa card has no HALT: no field cycle")
        #expect(count(emulator, 0x4A) == 4, "12FC then FFFF found it; found again by one FFFF Polling")
        await reader.close()
    }
}
