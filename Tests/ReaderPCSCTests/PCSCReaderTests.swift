import Foundation
import NDEF
import NFCTags
import ReaderPCSC
import TagEmulator
import TestSupport
import Testing

/// End-to-end tests through a real pcscd with the vsmartcard vpcd driver and the vpcd virtual card.
///
/// pcscd is Debian's 1.9.9. Presence is polled by pcscd every 400 ms, so waits are generous (`docs/reference/pcsc.md`
/// §4).
@Suite(.serialized, .timeLimit(.minutes(5)))
struct PCSCReaderTests {
    /// The tag in `reader`'s field, waiting up to 5 s.
    private func detect(_ reader: PCSCReader) async throws -> [UInt8] {
        let state = try await reader.poll(timeoutMilliseconds: 5000)
        guard case .tag(let tag) = state else {
            Issue.record("no tag on \(reader.name): \(state)")
            throw TransportError.noAnswer
        }
        return tag.uid
    }

    @Test func virtualReadersAreListed() async throws {
        try await withVirtualReaders([ntag213(uidA)]) { readers in
            let names = try PCSCReader.listReaders()
            #expect(names == readers.daemon.readerNames)
            #expect(names == ["Virtual PCD 0 00 00", "Virtual PCD 0 00 01"])
        }
    }

    @Test func uidGetVersionReadWriteAndFastReadThroughPcscd() async throws {
        try await withVirtualReaders([ntag213(uidA)]) { readers in
            let reader = try await readers.reader(0, options: "?style=acr122u")
            #expect(reader.style == .acr122u)
            #expect(try await detect(reader) == uidA)
            #expect(try await reader.currentUID() == uidA)
            let (version, page3, fast) = try await reader.withTransceiver { link in
                let version = try link.transceive([0x60], timeoutMilliseconds: 5)
                let page3 = try link.transceive([0x30, 0x03], timeoutMilliseconds: 5)
                #expect(try link.transceive([0xA2, 0x06, 0xCA, 0xFE, 0xBA, 0xBE], timeoutMilliseconds: 10) == [0x0A])
                let fast = try link.transceive([0x3A, 0x04, 0x07], timeoutMilliseconds: 5)
                return (version, page3, fast)
            }
            #expect(version == ChipModel.ntag213.version)
            #expect(page3.prefix(4) == [0xE1, 0x10, 0x12, 0x00])
            #expect(page3.count == 16)
            #expect(fast == [0x01, 0x03, 0xA0, 0x0C, 0x34, 0x03, 0x00, 0xFE, 0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 0])
            let nak = await #expect(throws: TransportError.self) {
                try await reader.withTransceiver { try $0.transceive([0x30, 0xF0], timeoutMilliseconds: 5) }
            }
            #expect(nak == .nak(0))
            // After a NAK the tag is idle until re-activated (SCardReconnect with SCARD_RESET_CARD).
            let again = try await reader.withTransceiver { link in
                try link.reactivate()
                return try link.transceive([0x30, 0x06], timeoutMilliseconds: 5)
            }
            #expect(again.prefix(4) == [0xCA, 0xFE, 0xBA, 0xBE])
            #expect(try await reader.release(waitingForRemovalMilliseconds: 0) == false)
        }
    }

    @Test func acr1252uStyleUsesTheTransparentExchange() async throws {
        try await withVirtualReaders([ntag213(uidA)], style: .acr1252u) { readers in
            let reader = try await readers.reader(0, options: "?style=acr1252u")
            #expect(try await detect(reader) == uidA)
            let (version, signature, page4) = try await reader.withTransceiver { link in
                (
                    try link.transceive([0x60], timeoutMilliseconds: 5),
                    try link.transceive([0x3C, 0x00], timeoutMilliseconds: 5),
                    try link.transceive([0x30, 0x04], timeoutMilliseconds: 5)
                )
            }
            #expect(version == ChipModel.ntag213.version)
            #expect(signature.count == 32)
            #expect(page4.prefix(4) == [0x01, 0x03, 0xA0, 0x0C])
        }
    }

    @Test func twoReadersWorkAtOnce() async throws {
        try await withVirtualReaders([ntag213(uidA), ntag213(uidB)]) { readers in
            let all = try await PCSCReader.open("pcsc:*?style=acr122u")
            #expect(all.count == 2)
            let results = try await withThrowingTaskGroup(of: (String, [UInt8], [UInt8]).self) { group in
                for (index, reader) in all.enumerated() {
                    group.addTask {
                        let uid = try await detect(reader)
                        let page: UInt8 = 0x10 + UInt8(index)
                        let read = try await reader.withTransceiver { link in
                            for round in 0..<20 {
                                _ = try link.transceive(
                                    [0xA2, page, UInt8(round), uid[1], uid[2], uid[3]], timeoutMilliseconds: 10)
                            }
                            return try link.transceive([0x30, page], timeoutMilliseconds: 5)
                        }
                        return (reader.name, uid, read)
                    }
                }
                var collected: [(String, [UInt8], [UInt8])] = []
                for try await result in group { collected.append(result) }
                return collected.sorted { $0.0 < $1.0 }
            }
            #expect(results.map(\.0) == ["Virtual PCD 0 00 00", "Virtual PCD 0 00 01"])
            #expect(results.map(\.1) == [uidA, uidB])
            #expect(results[0].2.prefix(4) == [19, uidA[1], uidA[2], uidA[3]])
            #expect(results[1].2.prefix(4) == [19, uidB[1], uidB[2], uidB[3]])
        }
    }

    @Test func removalInTheMiddleOfAWriteIsTagLostAndTheSameTagFinishesLater() async throws {
        try await withVirtualReaders([ntag213(uidA)]) { readers in
            let reader = try await readers.reader(0)
            #expect(try await detect(reader) == uidA)
            try await reader.withTransceiver { link in
                _ = try link.transceive([0xA2, 0x04, 0x03, 0x0B, 0xD1, 0x01], timeoutMilliseconds: 10)
            }
            #expect(await readers.cards[0].command("remove").hasSuffix("ok\n"))
            let lost = await #expect(throws: TransportError.self) {
                try await reader.withTransceiver { link in
                    _ = try link.transceive([0xA2, 0x05, 0x07, 0x55, 0x04, 0x65], timeoutMilliseconds: 10)
                }
            }
            #expect(lost == .tagLost)
            #expect(await readers.cards[0].command("insert \(Hex.compact(uidA))").contains("inserted"))
            #expect(try await detect(reader) == uidA)
            let page4 = try await reader.withTransceiver { link in
                _ = try link.transceive([0xA2, 0x05, 0x07, 0x55, 0x04, 0x65], timeoutMilliseconds: 10)
                return try link.transceive([0x30, 0x04], timeoutMilliseconds: 5)
            }
            #expect(page4.prefix(8) == [0x03, 0x0B, 0xD1, 0x01, 0x07, 0x55, 0x04, 0x65])
        }
    }

    @Test func plainStyleHasNoRawPathButReadAndWriteWork() async throws {
        try await withVirtualReaders([ntag213(uidA)], style: .plain) { readers in
            let reader = try await readers.reader(0, options: "?style=plain")
            #expect(reader.capabilities.rawCommands == false)
            #expect(!reader.capabilities.notes.isEmpty)
            #expect(try await detect(reader) == uidA)
            let raw = await #expect(throws: TransportError.self) {
                try await reader.withTransceiver { try $0.transceive([0x60], timeoutMilliseconds: 5) }
            }
            if case .transport = raw {
            } else {
                Issue.record("expected a transport error, got \(String(describing: raw))")
            }
            let (supportsRaw, page) = try await reader.withTransceiver { link in
                _ = try link.transceive([0xA2, 0x08, 0x11, 0x22, 0x33, 0x44], timeoutMilliseconds: 10)
                return (link.supportsRawCommands, try link.transceive([0x30, 0x08], timeoutMilliseconds: 5))
            }
            #expect(!supportsRaw)
            #expect(page.prefix(4) == [0x11, 0x22, 0x33, 0x44])
            // FF CA at poll, FF D6, FF CA again after the write, FF B0: the raw attempt sent nothing.
            #expect(await reader.transmittedAPDUs == 4)
        }
    }

    @Test func ledAndBuzzerFeedbackIsSentAndRecorded() async throws {
        try await withVirtualReaders([ntag213(uidA)]) { readers in
            let reader = try await readers.reader(0, options: "?style=acr122u")
            _ = try await detect(reader)
            await reader.signal(.pass)
            await reader.signal(.fail)
            let log = await readers.cards[0].command("feedback")
            #expect(
                log == Hex.string(PCSCReader.feedbackAPDU(.pass)) + "\n" + Hex.string(PCSCReader.feedbackAPDU(.fail))
                    + "\nok\n")
            let quiet = try await readers.reader(0, options: "?style=acr122u&feedback=off")
            #expect(!quiet.feedbackEnabled)
        }
    }

    @Test func lineModeReleaseSeesTheTagLeaveAndTheNextArrive() async throws {
        try await withVirtualReaders([ntag213(uidA, count: 3)], lineMode: true) { readers in
            let reader = try await readers.reader(0)
            var seen: [[UInt8]] = []
            for _ in 0..<3 {
                seen.append(try await detect(reader))
                await reader.signal(.pass)
                #expect(try await reader.release(waitingForRemovalMilliseconds: 5000))
            }
            let population = try SimulationOptions(ntag213(uidA, count: 3))
            #expect(seen == (0..<3).map { population.uid(at: $0) })
            #expect(Set(seen).count == 3)
            #expect(try await reader.poll(timeoutMilliseconds: 900) == .empty)
        }
    }

    @Test func quickAckKeepsEachAPDUWellUnderTheDelayedAckStall() async throws {
        try await withVirtualReaders([ntag213(uidA)]) { readers in
            let reader = try await readers.reader(0)
            _ = try await detect(reader)
            let each = try await reader.withTransceiver { link -> [Duration] in
                let clock = ContinuousClock()
                var times: [Duration] = []
                for page in 0..<60 {
                    let start = clock.now
                    _ = try link.transceive([0x30, UInt8(page % 40)], timeoutMilliseconds: 5)
                    times.append(clock.now - start)
                }
                return times
            }
            // Without TCP_QUICKACK on the card's socket each APDU waits for a delayed ACK (p50 44 ms,
            // docs/reference/pcsc.md §6). The median (robust to a loaded machine's spikes) stays far below that.
            let median = each.sorted()[each.count / 2]
            #expect(median < .milliseconds(20), "median APDU took \(median)")
        }
    }

    @Test func cancellingAPollEndsTheWaitThroughSCardCancel() async throws {
        try await withVirtualReaders([ntag213(uidA)]) { readers in
            let empty = try await readers.reader(1)  // the entry's second slot has no card
            let clock = ContinuousClock()
            let waiting = Task { try await empty.poll(timeoutMilliseconds: 30_000) }
            try await Task.sleep(for: .milliseconds(300))
            let start = clock.now
            waiting.cancel()
            #expect(try await waiting.value == .empty)
            #expect(clock.now - start < .seconds(30), "a bound against hanging, not a speed check")
            #expect(try await empty.poll(timeoutMilliseconds: 0) == .empty)
        }
    }

    @Test func specsSelectReadersByIndexNameAndSubstring() async throws {
        try await withVirtualReaders([ntag213(uidA)]) { readers in
            let first = try await PCSCReader.open("pcsc")
            let second = try await PCSCReader.open("pcsc:#1")
            let byName = try await PCSCReader.open("pcsc:Virtual PCD 0 00 01")
            let bySubstring = try await PCSCReader.open("pcsc:00 01")
            #expect(first.map(\.name) == ["Virtual PCD 0 00 00"])
            #expect(second.map(\.name) == ["Virtual PCD 0 00 01"])
            #expect(byName.map(\.name) == ["Virtual PCD 0 00 01"])
            #expect(bySubstring.map(\.name) == ["Virtual PCD 0 00 01"])
            #expect(bySubstring.first?.style == .plain)
            await #expect(throws: PCSCError(.readerNotFound, "")) { try await PCSCReader.open("pcsc:#7") }
            await #expect(throws: PCSCError(.readerNotFound, "")) { try await PCSCReader.open("pcsc:Virtual") }
            await #expect(throws: PCSCError(.badSpec, "")) { try await PCSCReader.open("pcsc:#0?style=acr9") }
            await #expect(throws: PCSCError(.badSpec, "")) { try await PCSCReader.open("pcsc:#0?colour=red") }
        }
    }
}
