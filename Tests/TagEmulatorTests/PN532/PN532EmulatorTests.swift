import Foundation
import NFCTags
import TagEmulator
import TestSupport
import Testing

/// A population of `count` NTAG215s numbered from `uid`.
func population(count: Int, uid: [UInt8], lineMode: Bool = false) -> PN532TagPopulation {
    var options = SimulationOptions(chip: .ntag215)
    options.count = count
    options.firstUID = uid
    return PN532TagPopulation(options: options, lineMode: lineMode)
}

@Suite(.serialized)
struct PN532EmulatorTests {
    let uid: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]

    @Test func nfcListFindsExactlyTheEmulatedTag() async throws {
        let field = population(count: 1, uid: uid)
        let emulator = try PN532Emulator(field: field)
        emulator.start()
        defer { emulator.stop() }
        let (status, text) = try await onThread {
            try runTool("nfc-list", [], connstring: "pn532_uart:" + emulator.slavePath)
        }
        #expect(status == 0)
        #expect(text.contains("NFC device: user defined device opened"))
        #expect(text.components(separatedBy: "ISO/IEC 14443A (106 kbps) target:").count == 2, "\(text)")
        #expect(text.contains("ATQA (SENS_RES): 00  44"))
        #expect(text.contains("UID (NFCID1): 04  11  22  33  44  55  66"))
        #expect(text.contains("SAK (SEL_RES): 00"))
        #expect(text.contains("1 ISO14443A passive target(s) found"), "\(text)")
    }

    @Test func nfcMfultralightReadDumpsTheTagImage() async throws {
        let field = population(count: 1, uid: uid)
        let emulator = try PN532Emulator(field: field)
        emulator.start()
        defer { emulator.stop() }
        let directory = try Fixtures.temporaryDirectory("pn532")
        let dump = directory.appendingPathComponent("dump.mfd")
        let (status, text) = try await onThread {
            try runTool("nfc-mfultralight", ["r", dump.path], connstring: "pn532_uart:" + emulator.slavePath)
        }
        #expect(status == 0, "\(text)")
        // The image as a reader sees it: PWD (page 85h) and PACK (page 86h) read as zeros.
        var image = try #require(emulator.withChip { $0.field.image() })
        #expect(image[133 * 4..<134 * 4].elementsEqual([0xFF, 0xFF, 0xFF, 0xFF]))
        image.replaceSubrange(133 * 4..<135 * 4, with: [UInt8](repeating: 0, count: 8))
        let dumped = try [UInt8](Data(contentsOf: dump))
        #expect(dumped == image, "\(text)")
    }

    @Test func nfcMfultralightWriteMakesTheTagExactlyTheImage() async throws {
        let field = population(count: 1, uid: uid)
        let emulator = try PN532Emulator(field: field)
        emulator.start()
        defer { emulator.stop() }
        // Prepared image: the tag's own pages 0–3 and configuration, new user data.
        var image = try #require(emulator.withChip { $0.field.image() })
        for index in 16..<(130 * 4) { image[index] = UInt8(truncatingIfNeeded: index * 7 + 3) }
        let directory = try Fixtures.temporaryDirectory("pn532")
        let file = directory.appendingPathComponent("image.mfd")
        try Data(image).write(to: file)
        let (status, text) = try await onThread {
            try runTool("nfc-mfultralight", ["w", file.path], connstring: "pn532_uart:" + emulator.slavePath)
        }
        #expect(status == 0, "\(text)")
        let written = try #require(emulator.withChip { $0.field.image() })
        #expect(written == image, "\(text)")
    }

    /// 34 READs of 16 bytes at 115200 baud: each costs at least the ACK (6 bytes) and the 26-byte
    /// reply frame on the wire, ≈ 2.8 ms, so the whole dump cannot take less than ≈ 95 ms.
    @Test func datasheetTimingDelaysRepliesAndLibnfcStillWorks() async throws {
        let field = population(count: 1, uid: uid)
        let emulator = try PN532Emulator(field: field, configuration: .init(timing: .datasheet, baud: 115_200))
        emulator.start()
        defer { emulator.stop() }
        let dump = try Fixtures.temporaryDirectory("pn532").appendingPathComponent("dump.mfd")
        let start = ContinuousClock.now
        let (status, text) = try await onThread {
            try runTool("nfc-mfultralight", ["r", dump.path], connstring: "pn532_uart:" + emulator.slavePath)
        }
        let elapsed = ContinuousClock.now - start
        #expect(status == 0, "\(text)")
        #expect(try Data(contentsOf: dump).count == 540)
        #expect(elapsed > .milliseconds(95), "\(elapsed)")
        #expect(emulator.stats.replies > 34)
        // The modelled radio and UART time the stats add up (not measured time): each READ's answer is
        // 18 bytes at 106 kbit/s (≥ 1.5 ms), each exchange at least 32 UART bytes at 115200 baud.
        #expect(emulator.stats.airtimeMicroseconds > 34 * 1_500)
        #expect(emulator.stats.uartMicroseconds > 34 * 32 * 86)
    }

    @Test func lineModeMovesOnAfterEachReleaseSoNfcListSeesEveryTag() async throws {
        let field = population(count: 3, uid: uid, lineMode: true)
        let emulator = try PN532Emulator(field: field)
        emulator.start()
        defer { emulator.stop() }
        let (status, text) = try await onThread {
            try runTool("nfc-list", ["-t", "1"], connstring: "pn532_uart:" + emulator.slavePath)
        }
        #expect(status == 0)
        #expect(text.contains("3 ISO14443A passive target(s) found"), "\(text)")
        #expect(text.contains("04  11  22  33  44  55  68"))
        #expect(emulator.withChip { _ in field.current == nil && field.field.departures == 3 })
    }
}
