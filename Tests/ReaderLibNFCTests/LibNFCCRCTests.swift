import Foundation
import NFCTags
import Synchronization
import TagEmulator
import TestSupport
import Testing

@testable import ReaderLibNFC

/// Counts the PN532 frames an emulator has received since the last count.
final class FrameCounter: Sendable {
    private let emulator: PN532Emulator
    private let last: Mutex<Int>

    init(_ emulator: PN532Emulator) {
        self.emulator = emulator
        last = Mutex(emulator.stats.frames)
    }

    /// Frames since the last call (or since the counter was made).
    func sinceLast() -> Int {
        let now = emulator.stats.frames
        return last.withLock { previous in
            defer { previous = now }
            return now - previous
        }
    }
}

/// The CRC bits through libnfc, on both firmware behaviours a select can have (`PN532Chip.selectSetsCRC`:
/// CRC switched on both ways, the emulator's default; or the host's bits kept, `--select-keeps-crc`):
/// the PN532 frames of a tag cycle, pinned at the minimum, and the error mapping, the same on both.
@Suite(.serialized)
struct LibNFCCRCTests {
    /// PN532 frames per step of a tag cycle. Tag commands go out with RX CRC off and TX CRC on (the chip
    /// appends CRC_A). libnfc's init leaves RX CRC on, so the first command is preceded by one
    /// WriteRegister (past libnfc's cache, no ReadRegister); a re-activation is InDeselect + InSelect
    /// (no field cycle); after the first one a ReadRegister of TxMode and RxMode learns what this chip's
    /// selects do. A chip that keeps the bits costs nothing more; one that switches CRC back on costs one
    /// WriteRegister before the first command after each select, and nothing for a select no command
    /// follows (the removal check). The tag that `release` sees arrive is handed to the next `poll`
    /// without a second select.
    @Test(arguments: [false, true])
    func aTagCycleSendsNoFrameItDoesNotNeed(selectSetsCRC: Bool) async throws {
        let pn532 = try EmulatedPN532(count: 2, lineMode: true)
        pn532.emulator.withChip { $0.selectSetsCRC = selectSetsCRC }
        let reader = try await LibNFCReader.open(spec: pn532.spec)
        let frames = FrameCounter(pn532.emulator)
        let first = DetectedTag(uid: [0x04, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60])
        #expect(try await reader.poll(timeoutMilliseconds: 500) == .tag(first))
        #expect(frames.sinceLast() == 1, "InListPassiveTarget")
        let counts = try await reader.withTransceiver { tag in
            var counts: [Int] = []
            #expect(try tag.transceive([0xA2, 0x04, 1, 2, 3, 4], timeoutMilliseconds: 10) == [0x0A])
            counts.append(frames.sinceLast())  // WriteRegister (RX CRC off), InCommunicateThru
            _ = try tag.transceive([0x30, 0x04], timeoutMilliseconds: 5)
            counts.append(frames.sinceLast())  // InCommunicateThru
            try tag.reactivate()
            counts.append(frames.sinceLast())  // InDeselect (HLTA), InSelect (WUPA, SELECT)
            #expect(Array(try tag.transceive([0x30, 0x04], timeoutMilliseconds: 5).prefix(4)) == [1, 2, 3, 4])
            counts.append(frames.sinceLast())  // ReadRegister 6302 6303, [WriteRegister 6303], InCommunicateThru
            try tag.reactivate()
            _ = try tag.transceive([0x30, 0x04], timeoutMilliseconds: 5)
            counts.append(frames.sinceLast())  // InDeselect, InSelect, [WriteRegister 6303], InCommunicateThru
            return counts
        }
        #expect(counts == (selectSetsCRC ? [2, 1, 2, 3, 4] : [2, 1, 2, 2, 3]))
        #expect(try await reader.release(waitingForRemovalMilliseconds: 500))
        #expect(frames.sinceLast() == 4, "InDeselect, field off, field on, InListPassiveTarget")
        let second = DetectedTag(uid: [0x04, 0x10, 0x20, 0x30, 0x40, 0x50, 0x61])
        #expect(try await reader.poll(timeoutMilliseconds: 500) == .tag(second))
        #expect(frames.sinceLast() == 0, "the tag release selected")
        let page = try await reader.withTransceiver { tag in try tag.transceive([0x30, 0x03], timeoutMilliseconds: 5) }
        #expect(Array(page.prefix(4)) == [0xE1, 0x10, 0x3E, 0x00])
        #expect(frames.sinceLast() == (selectSetsCRC ? 2 : 1), "[WriteRegister 6303], InCommunicateThru")
        await reader.close()
    }

    /// Writes page `page` after a re-activation and returns the answer and the PN532 frames the
    /// write took (the re-activation's own frames not counted).
    private func writeAfterReactivation(
        _ tag: any Transceiver, _ emulator: PN532Emulator, page: UInt8
    ) throws -> (answer: [UInt8], frames: Int) {
        try tag.reactivate()
        let before = emulator.stats.frames
        let answer = try tag.transceive([0xA2, page, page, page, page, page], timeoutMilliseconds: 10)
        return (answer, emulator.stats.frames - before)
    }

    /// Writes page 4, then each of `pages` after a re-activation, on a fresh emulator set up by
    /// `configure`; returns the answers, the frames of each later write and the bytes of pages 4….
    private func writesAfterReactivations(
        _ pages: [UInt8], configure: @escaping @Sendable (PN532Chip) -> Void = { _ in }
    ) async throws -> (answers: [[UInt8]], frames: [Int], image: [UInt8]?) {
        let pn532 = try EmulatedPN532()
        pn532.emulator.withChip(configure)
        let reader = try await LibNFCReader.open(spec: pn532.spec)
        _ = try await reader.poll(timeoutMilliseconds: 500)
        let emulator = pn532.emulator
        let results = try await reader.withTransceiver { tag in
            let first = try tag.transceive([0xA2, 0x04, 4, 4, 4, 4], timeoutMilliseconds: 10)
            return [(first, 0)] + (try pages.map { try writeAfterReactivation(tag, emulator, page: $0) })
        }
        await reader.close()
        let image = pn532.withTag { $0.map { Array($0.image[16..<(20 + 4 * pages.count)]) } }
        return (results.map(\.0), results.dropFirst().map(\.1), image)
    }

    /// A chip whose selects keep the host's CRC bits: after the first re-activation one ReadRegister
    /// of TxMode and RxMode learns it; after every later select a tag command is one frame.
    @Test func crcBitsAreReadOnceWhenSelectsKeepThem() async throws {
        let (answers, frames, image) = try await writesAfterReactivations([5, 6, 7]) { $0.selectSetsCRC = false }
        #expect(answers == Array(repeating: [0x0A], count: 4))
        #expect(frames == [2, 1, 1], "ReadRegister + InCommunicateThru once, then InCommunicateThru")
        #expect(image == [4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7])
    }

    /// A chip whose selects switch CRC back on (`selectSetsCRC`, the default): learnt with one
    /// ReadRegister, then every select costs one WriteRegister of RxMode, and the tag commands still work.
    @Test func rxCRCASelectSetsIsSwitchedOffWithOneFrameAfterEverySelect() async throws {
        let (answers, frames, image) = try await writesAfterReactivations([5, 6, 7])
        #expect(answers == Array(repeating: [0x0A], count: 4))
        #expect(frames == [3, 2, 2], "ReadRegister, WriteRegister, InCommunicateThru; then the last two")
        #expect(image == [4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7])
    }

    /// A chip that starts switching CRC on after the backend learned it does not: the one exchange
    /// that fails (the tag's 4-bit answer fails the chip's CRC check: silence to libnfc) makes the
    /// backend read the bits again before the next command, and the retried write succeeds.
    @Test func crcBitsAreReadAgainAfterAnExchangeFails() async throws {
        let pn532 = try EmulatedPN532()
        pn532.emulator.withChip { $0.selectSetsCRC = false }
        let reader = try await LibNFCReader.open(spec: pn532.spec)
        _ = try await reader.poll(timeoutMilliseconds: 500)
        let emulator = pn532.emulator
        let (failure, retried) = try await reader.withTransceiver { tag in
            _ = try tag.transceive([0xA2, 0x04, 4, 4, 4, 4], timeoutMilliseconds: 10)
            _ = try writeAfterReactivation(tag, emulator, page: 5)
            emulator.withChip { $0.selectSetsCRC = true }
            try tag.reactivate()
            var failure: TransportError?
            do {
                _ = try tag.transceive([0xA2, 0x06, 6, 6, 6, 6], timeoutMilliseconds: 10)
            } catch let error as TransportError {
                failure = error
            }
            return (failure, try tag.transceive([0xA2, 0x06, 6, 6, 6, 6], timeoutMilliseconds: 10))
        }
        #expect(failure == .noAnswer, "the 4-bit ACK fails the chip's CRC check: silence, tag re-selected")
        #expect(retried == [0x0A])
        #expect(pn532.withTag { $0.map { Array($0.image[24..<28]) } } == [6, 6, 6, 6])
        await reader.close()
    }

    /// Every kind of answer maps to the same outcome on both select behaviours, each as the first tag
    /// command after a select (when a chip whose selects switch CRC on has it on): a NAK to a READ keeps
    /// its code (NAK 0 past the last page, and an injected NAK 4), a short answer (valid CRC_A) is
    /// passed on for the caller to judge, silence is no answer with the tag re-selected, and the tag
    /// still reads after.
    @Test(arguments: [false, true])
    func everyAnswerKeepsItsOutcomeOnBothSelectBehaviours(selectSetsCRC: Bool) async throws {
        let pn532 = try EmulatedPN532()
        pn532.emulator.withChip { $0.selectSetsCRC = selectSetsCRC }
        // Exchanges count every tag command: 1 is the READ past the end, then one fault each.
        pn532.withTag { tag in
            tag?.faults.answerFaults = [2: .nak(0x4), 3: .short(1)]
            tag?.faults.noAnswerExchanges = [4]
        }
        let reader = try await LibNFCReader.open(spec: pn532.spec)
        _ = try await reader.poll(timeoutMilliseconds: 500)
        let (outcomes, page) = try await reader.withTransceiver { tag in
            var outcomes: [Result<Int, TransportError>] = []
            for page: UInt8 in [0x90, 0x04, 0x04, 0x04] {
                if !outcomes.isEmpty { try tag.reactivate() }
                do throws(TransportError) {
                    outcomes.append(.success(try tag.transceive([0x30, page], timeoutMilliseconds: 5).count))
                } catch {
                    outcomes.append(.failure(error))
                }
            }
            return (outcomes, try tag.transceive([0x30, 0x03], timeoutMilliseconds: 5))
        }
        #expect(outcomes == [.failure(.nak(0x0)), .failure(.nak(0x4)), .success(15), .failure(.noAnswer)])
        #expect(Array(page.prefix(4)) == [0xE1, 0x10, 0x3E, 0x00])
        await reader.close()
    }

    /// A chip that starts switching CRC on after the backend learned it does not, seen by a READ: the
    /// chip strips the answer's CRC_A, the host's check fails (an invalid response), and the next
    /// command reads the bits first and succeeds without a new select.
    @Test func aCRCMismatchMakesTheBitsReadAgain() async throws {
        let pn532 = try EmulatedPN532()
        pn532.emulator.withChip { $0.selectSetsCRC = false }
        let reader = try await LibNFCReader.open(spec: pn532.spec)
        _ = try await reader.poll(timeoutMilliseconds: 500)
        let frames = FrameCounter(pn532.emulator)
        let emulator = pn532.emulator
        let (failure, page, retryFrames) = try await reader.withTransceiver { tag in
            _ = try tag.transceive([0x30, 0x04], timeoutMilliseconds: 5)
            try tag.reactivate()
            _ = try tag.transceive([0x30, 0x04], timeoutMilliseconds: 5)  // learns: selects keep the bits
            emulator.withChip { $0.selectSetsCRC = true }
            try tag.reactivate()
            var failure: TransportError?
            do {
                _ = try tag.transceive([0x30, 0x04], timeoutMilliseconds: 5)
            } catch let error as TransportError {
                failure = error
            }
            _ = frames.sinceLast()
            let page = try tag.transceive([0x30, 0x03], timeoutMilliseconds: 5)
            return (failure, page, frames.sinceLast())
        }
        if case .invalidResponse? = failure {
        } else {
            Issue.record("expected invalidResponse, got \(String(describing: failure))")
        }
        #expect(Array(page.prefix(4)) == [0xE1, 0x10, 0x3E, 0x00])
        #expect(retryFrames == 3, "ReadRegister, WriteRegister, InCommunicateThru")
        await reader.close()
    }
}
