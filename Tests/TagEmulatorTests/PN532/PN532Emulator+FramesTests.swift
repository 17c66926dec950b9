import Foundation
import NFCTags
import TagEmulator
import TestSupport
import Testing

/// Talks to the emulator's pty slave byte by byte, as a host driver would.
private final class RawHost: @unchecked Sendable {
    // @unchecked: the only state is an immutable descriptor; reads and writes are serialised by the test.
    let fd: Int32
    init(path: String) throws {
        fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK)
        try #require(fd >= 0)
    }
    deinit { close(fd) }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// `receive` on its own thread, off the cooperative pool.
    func next(milliseconds: Int32, expected: [UInt8]? = nil) async throws -> [UInt8] {
        try await onThread { [self] in receive(milliseconds: milliseconds, expected: expected) }
    }

    /// What arrives until `expected` (generous time for a loaded machine; returns as soon as the
    /// bytes are there) or, with `expected` nil, everything within `milliseconds`.
    func receive(milliseconds: Int32, expected: [UInt8]? = nil) -> [UInt8] {
        var bytes: [UInt8] = []
        let wait = expected == nil ? Int(milliseconds) : 2_000
        let deadline = ContinuousClock.now + .milliseconds(wait)
        while ContinuousClock.now < deadline, expected.map({ bytes.count < $0.count }) ?? true {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 5)
            var buffer = [UInt8](repeating: 0, count: 512)
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 { bytes += buffer.prefix(count) }
        }
        return bytes
    }
}

@Suite(.serialized)
struct PN532EmulatorFramingTests {
    private let wakeUp: [UInt8] = [0x55, 0x55] + [UInt8](repeating: 0, count: 14)

    @Test func hostAckAbortsAPendingSelectAndNackResendsTheLastReply() async throws {
        let field = population(count: 0, uid: [0x04, 1, 2, 3, 4, 5, 6])
        let emulator = try PN532Emulator(field: field)
        emulator.start()
        defer { emulator.stop() }
        let host = try RawHost(path: emulator.slavePath)
        host.send(wakeUp + PN532Frame.encode([0xD4, 0x14, 0x01]))
        #expect(
            try await host.next(milliseconds: 50, expected: PN532Frame.ackBytes + PN532Frame.encode([0xD5, 0x15]))
                == PN532Frame.ackBytes + PN532Frame.encode([0xD5, 0x15]))
        // No tag, infinite retries: only the ACK.
        host.send(PN532Frame.encode([0xD4, 0x4A, 0x01, 0x00]))
        #expect(try await host.next(milliseconds: 50, expected: PN532Frame.ackBytes) == PN532Frame.ackBytes)
        // The host aborts; a tag arriving afterwards produces no late answer.
        host.send(PN532Frame.ackBytes)
        for _ in 0..<200 where emulator.stats.hostAcks == 0 { try await Task.sleep(for: .milliseconds(5)) }
        _ = try emulator.withChip { chip in try chip.field.insert(uid: [0x04, 9, 9, 9, 9, 9, 9]) }
        #expect(try await host.next(milliseconds: 150).isEmpty)
        #expect(emulator.stats.hostAcks == 1)
        // NACK: the last reply again.
        host.send(PN532Frame.encode([0xD4, 0x02]))
        let version = PN532Frame.encode([0xD5, 0x03, 0x32, 0x01, 0x06, 0x07])
        #expect(
            try await host.next(milliseconds: 50, expected: PN532Frame.ackBytes + version) == PN532Frame.ackBytes
                + version)
        host.send(PN532Frame.nackBytes)
        #expect(try await host.next(milliseconds: 50, expected: version) == version)
    }

    @Test func pendingSelectIsAnsweredWhenATagArrives() async throws {
        let field = population(count: 0, uid: [0x04, 1, 2, 3, 4, 5, 6])
        let emulator = try PN532Emulator(field: field)
        emulator.start()
        defer { emulator.stop() }
        let host = try RawHost(path: emulator.slavePath)
        host.send(wakeUp + PN532Frame.encode([0xD4, 0x14, 0x01]))
        _ = try await host.next(milliseconds: 50, expected: PN532Frame.ackBytes + PN532Frame.encode([0xD5, 0x15]))
        host.send(PN532Frame.encode([0xD4, 0x4A, 0x01, 0x00]))
        #expect(try await host.next(milliseconds: 50, expected: PN532Frame.ackBytes) == PN532Frame.ackBytes)
        _ = try emulator.withChip { chip in try chip.field.insert(uid: [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]) }
        #expect(
            try await host.next(
                milliseconds: 100,
                expected: PN532Frame.encode([
                    0xD5, 0x4B, 0x01, 0x01, 0x00, 0x44, 0x00, 0x07, 0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6,
                ]))
                == PN532Frame.encode([
                    0xD5, 0x4B, 0x01, 0x01, 0x00, 0x44, 0x00, 0x07, 0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6,
                ]))
    }

    @Test func badChecksumGetsNoAckAndFramesBeforeWakeUpAreRefused() async throws {
        let emulator = try PN532Emulator(field: population(count: 1, uid: [0x04, 1, 2, 3, 4, 5, 6]))
        emulator.start()
        defer { emulator.stop() }
        let host = try RawHost(path: emulator.slavePath)
        // Strict mode: GetFirmwareVersion before SAMConfiguration is refused.
        host.send(PN532Frame.encode([0xD4, 0x02]))
        #expect(try await host.next(milliseconds: 150).isEmpty)
        host.send(wakeUp + PN532Frame.encode([0xD4, 0x14, 0x01]))
        _ = try await host.next(milliseconds: 50, expected: PN532Frame.ackBytes + PN532Frame.encode([0xD5, 0x15]))
        var corrupt = PN532Frame.encode([0xD4, 0x02])
        corrupt[6] ^= 0xFF
        host.send(corrupt)
        #expect(try await host.next(milliseconds: 150).isEmpty)
        #expect(emulator.stats.checksumErrors == 1)
        #expect(emulator.stats.refused == 1)
        host.send(PN532Frame.encode([0xD4, 0x7E]))
        #expect(
            try await host.next(milliseconds: 50, expected: PN532Frame.ackBytes + PN532Frame.errorBytes) == PN532Frame
                .ackBytes + PN532Frame.errorBytes)
    }

    @Test func lenientPowerAndSetSerialBaudRateAsNfcpyOpensTheChip() async throws {
        let configuration = PN532Emulator.Configuration(timing: .datasheet, strictPower: false)
        let emulator = try PN532Emulator(
            field: population(count: 1, uid: [0x04, 1, 2, 3, 4, 5, 6]), configuration: configuration)
        emulator.start()
        defer { emulator.stop() }
        let host = try RawHost(path: emulator.slavePath)
        // nfcpy's pn532.init: ten 00 bytes, then GetFirmwareVersion (no 55 wake-up, no SAMConfiguration).
        let firmware = PN532Frame.ackBytes + PN532Frame.encode([0xD5, 0x03, 0x32, 0x01, 0x06, 0x07])
        host.send([UInt8](repeating: 0, count: 10) + PN532Frame.encode([0xD4, 0x02]))
        #expect(try await host.next(milliseconds: 50, expected: firmware) == firmware)
        // SetSerialBaudRate 921600: answered at 115200, switched once the host ACKs.
        let baudReply = PN532Frame.ackBytes + PN532Frame.encode([0xD5, 0x11])
        host.send(PN532Frame.encode([0xD4, 0x10, 0x07]))
        #expect(try await host.next(milliseconds: 50, expected: baudReply) == baudReply)
        #expect(emulator.stats.baud == 115_200)
        host.send(PN532Frame.ackBytes)
        _ = try await host.next(milliseconds: 100)
        #expect(emulator.stats.baud == 921_600)
        #expect(emulator.stats.refused == 0)
    }

    @Test func autoPollGivesUpAfterItsPolls() async throws {
        let emulator = try PN532Emulator(field: population(count: 0, uid: [0x04, 1, 2, 3, 4, 5, 6]))
        emulator.start()
        defer { emulator.stop() }
        let host = try RawHost(path: emulator.slavePath)
        host.send(wakeUp + PN532Frame.encode([0xD4, 0x14, 0x01]))
        _ = try await host.next(milliseconds: 50, expected: PN532Frame.ackBytes + PN532Frame.encode([0xD5, 0x15]))
        // One poll of one 150 ms period, type 10 (106 kbps type A), nothing in the field.
        let start = ContinuousClock.now
        host.send(PN532Frame.encode([0xD4, 0x60, 0x01, 0x01, 0x10]))
        let expected = PN532Frame.ackBytes + PN532Frame.encode([0xD5, 0x61, 0x00])
        #expect(try await host.next(milliseconds: 0, expected: expected) == expected)
        #expect(ContinuousClock.now - start >= .milliseconds(150))
    }

    /// Field off and on again: the next activation waits out the 5.1 ms field guard (ISO/IEC 14443-3,
    /// `docs/reference/rf-timing.md` §8.1); an activation with the field already on owes nothing.
    @Test func anActivationAfterFieldOnWaitsTheFieldGuard() async throws {
        let emulator = try PN532Emulator(
            field: population(count: 1, uid: [0x04, 1, 2, 3, 4, 5, 6]), configuration: .init(timing: .datasheet))
        emulator.start()
        defer { emulator.stop() }
        let host = try RawHost(path: emulator.slavePath)
        host.send(wakeUp + PN532Frame.encode([0xD4, 0x14, 0x01]))
        _ = try await host.next(milliseconds: 50, expected: PN532Frame.ackBytes + PN532Frame.encode([0xD5, 0x15]))
        let list = PN532Frame.encode([0xD4, 0x4A, 0x01, 0x00])
        let found =
            PN532Frame.ackBytes
            + PN532Frame.encode([0xD5, 0x4B, 0x01, 0x01, 0x00, 0x44, 0x00, 0x07, 0x04, 1, 2, 3, 4, 5, 6])
        let before = emulator.stats.airtimeMicroseconds
        host.send(list)
        #expect(try await host.next(milliseconds: 0, expected: found) == found)
        let plain = emulator.stats.airtimeMicroseconds - before
        #expect(plain > 0 && plain < RFTiming().fieldGuardMicroseconds, "field on since reset: \(plain) µs")
        let on = PN532Frame.ackBytes + PN532Frame.encode([0xD5, 0x33])
        host.send(PN532Frame.encode([0xD4, 0x32, 0x01, 0x00]))
        #expect(try await host.next(milliseconds: 50, expected: on) == on)
        let fieldOn = ContinuousClock.now
        host.send(PN532Frame.encode([0xD4, 0x32, 0x01, 0x01]))
        #expect(try await host.next(milliseconds: 50, expected: on) == on)
        let after = emulator.stats.airtimeMicroseconds
        let gap = ContinuousClock.now - fieldOn
        host.send(list)
        #expect(try await host.next(milliseconds: 0, expected: found) == found)
        #expect(ContinuousClock.now - fieldOn >= .microseconds(5_100), "the reply cannot come before the guard")
        // The guard owed is what the host left of the 5.1 ms between field on and the activation (none
        // if a loaded host took longer), counted as radio time: never more than the guard itself. How
        // much is owed depends on when the emulator got each frame, which a loaded machine delays by
        // an unknown amount, so wall-clock bounds on it would only measure the machine's load.
        let extra = emulator.stats.airtimeMicroseconds - after - plain
        #expect(extra >= 0 && extra <= RFTiming().fieldGuardMicroseconds + 1, "\(extra) µs after \(gap)")
    }
}
