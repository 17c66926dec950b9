import Foundation
import NFCTags
import TagEmulator
import TestSupport
import Testing

@testable import ReaderLibNFC

/// A PN532 emulator on a pty with one stand-in NTAG215, and a reader spec pointing at it.
final class EmulatedPN532 {
    let field: PN532TagPopulation
    let emulator: PN532Emulator
    var spec: ReaderSpec { get throws { try ReaderSpec("nfc:pn532_uart:" + emulator.slavePath + "?slack=1000") } }

    init(count: Int = 1, lineMode: Bool = false) throws {
        var options = SimulationOptions(chip: .ntag215)
        options.count = count
        options.firstUID = [0x04, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60]
        field = PN532TagPopulation(options: options, lineMode: lineMode)
        emulator = try PN532Emulator(field: field)
        emulator.start()
    }

    deinit { emulator.stop() }

    /// Runs `body` on the tag in the field while the emulator is held off.
    func withTag<R>(_ body: (NTAGEmulator?) -> R) -> R {
        emulator.withChip { _ in body(field.currentTag as? NTAGEmulator) }
    }
}

@Suite(.serialized)
struct LibNFCReaderTests {
    @Test func pollSelectsTheEmulatedTag() async throws {
        let pn532 = try EmulatedPN532()
        let reader = try await LibNFCReader.open(spec: pn532.spec)
        #expect(reader.name == "nfc:pn532_uart:" + pn532.emulator.slavePath)
        let state = try await reader.poll(timeoutMilliseconds: 500)
        #expect(state == .tag(DetectedTag(uid: [0x04, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60], atqa: 0x0044, sak: 0x00)))
        await reader.close()
    }

    @Test func pollWithNoTagReturnsEmptyWithinTheTimeout() async throws {
        let pn532 = try EmulatedPN532(count: 0)
        let reader = try await LibNFCReader.open(spec: pn532.spec)
        let start = ContinuousClock.now
        let state = try await reader.poll(timeoutMilliseconds: 200)
        let elapsed = ContinuousClock.now - start
        #expect(state == .empty)
        #expect(elapsed >= .milliseconds(200) && elapsed < .seconds(30), "bounded, not a speed check")
        await reader.close()
    }

    @Test func tagCommandsGoThroughTheTransceiver() async throws {
        let pn532 = try EmulatedPN532()
        let reader = try await LibNFCReader.open(spec: pn532.spec)
        _ = try await reader.poll(timeoutMilliseconds: 500)
        let image = try #require(pn532.withTag { $0?.image })
        let (page0, writeAnswer, fastRead, version, signature) = try await reader.withTransceiver { tag in
            let page0 = try tag.transceive([0x30, 0x00], timeoutMilliseconds: 5)
            let write = try tag.transceive([0xA2, 0x04, 0xDE, 0xAD, 0xBE, 0xEF], timeoutMilliseconds: 10)
            let fast = try tag.transceive([0x3A, 0x04, 0x07], timeoutMilliseconds: 5)
            let version = try tag.transceive([0x60], timeoutMilliseconds: 5)
            let signature = try tag.transceive([0x3C, 0x00], timeoutMilliseconds: 5)
            // PWD_AUTH with the factory password FF FF FF FF answers the factory PACK 00 00.
            #expect(try tag.transceive([0x1B, 0xFF, 0xFF, 0xFF, 0xFF], timeoutMilliseconds: 5) == [0x00, 0x00])
            return (page0, write, fast, version, signature)
        }
        #expect(page0 == Array(image[0..<16]))
        #expect(writeAnswer == [0x0A])
        #expect(fastRead == [0xDE, 0xAD, 0xBE, 0xEF] + Array(image[20..<32]))
        #expect(version == [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03])
        #expect(signature == pn532.withTag { $0?.signature })
        #expect(pn532.withTag { $0.map { Array($0.image[16..<20]) } } == [0xDE, 0xAD, 0xBE, 0xEF])
        await reader.close()
    }

    @Test func nakFiveSurfacesAsNakFive() async throws {
        let pn532 = try EmulatedPN532()
        pn532.withTag { $0?.faults.eepromErrorPages = [5] }
        let reader = try await LibNFCReader.open(spec: pn532.spec)
        _ = try await reader.poll(timeoutMilliseconds: 500)
        await #expect(throws: TransportError.nak(5)) {
            try await reader.withTransceiver { tag in
                try tag.transceive([0xA2, 0x05, 1, 2, 3, 4], timeoutMilliseconds: 10)
            }
        }
        // After a NAK the session is over; reactivation brings the tag back.
        let page = try await reader.withTransceiver { tag in
            try tag.reactivate()
            return try tag.transceive([0x30, 0x05], timeoutMilliseconds: 5)
        }
        #expect(Array(page.prefix(4)) == [0, 0, 0, 0])
        await reader.close()
    }

    @Test func silenceSurfacesAsNoAnswerWhileTheTagStays() async throws {
        let pn532 = try EmulatedPN532()
        pn532.withTag { $0?.faults.noAnswerExchanges = [1] }
        let reader = try await LibNFCReader.open(spec: pn532.spec)
        _ = try await reader.poll(timeoutMilliseconds: 500)
        await #expect(throws: TransportError.noAnswer) {
            try await reader.withTransceiver { tag in try tag.transceive([0x30, 0x04], timeoutMilliseconds: 5) }
        }
        let page = try await reader.withTransceiver { tag in try tag.transceive([0x30, 0x03], timeoutMilliseconds: 5) }
        #expect(Array(page.prefix(4)) == [0xE1, 0x10, 0x3E, 0x00])
        await reader.close()
    }

    @Test func tearSurfacesAsTagLost() async throws {
        let pn532 = try EmulatedPN532()
        pn532.withTag { $0?.faults.removedAfterExchanges = 0 }
        let reader = try await LibNFCReader.open(spec: pn532.spec)
        _ = try await reader.poll(timeoutMilliseconds: 500)
        await #expect(throws: TransportError.tagLost) {
            try await reader.withTransceiver { tag in
                try tag.transceive([0xA2, 0x06, 9, 8, 7, 6], timeoutMilliseconds: 10)
            }
        }
        await #expect(throws: TransportError.tagLost) {
            try await reader.withTransceiver { tag in try tag.transceive([0x30, 0x00], timeoutMilliseconds: 5) }
        }
        #expect(pn532.emulator.withChip { _ in pn532.field.field.departures } == 1)
        #expect(try await reader.poll(timeoutMilliseconds: 100) == .empty)
        await reader.close()
    }

    @Test func releaseInLineModeSeesTheTagLeaveAndTheNextArrive() async throws {
        let pn532 = try EmulatedPN532(count: 2, lineMode: true)
        let reader = try await LibNFCReader.open(spec: pn532.spec)
        #expect(
            try await reader.poll(timeoutMilliseconds: 500)
                == .tag(DetectedTag(uid: [0x04, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60])))
        #expect(try await reader.release(waitingForRemovalMilliseconds: 500))
        #expect(
            try await reader.poll(timeoutMilliseconds: 500)
                == .tag(DetectedTag(uid: [0x04, 0x10, 0x20, 0x30, 0x40, 0x50, 0x61])))
        await reader.close()
    }

    /// A firmware whose InSelect sends REQA (a halted tag stays silent): the first re-activation
    /// falls back to a field cycle and teaches the device; later ones cycle the field at once.
    @Test func reactivationFallsBackToAFieldCycleWhenInSelectDoesNotWakeTheTag() async throws {
        let pn532 = try EmulatedPN532()
        pn532.emulator.withChip { $0.inSelectWakesHalted = false }
        let reader = try await LibNFCReader.open(spec: pn532.spec)
        _ = try await reader.poll(timeoutMilliseconds: 500)
        let emulator = pn532.emulator
        let frames = try await reader.withTransceiver { tag in
            _ = try tag.transceive([0xA2, 0x04, 4, 4, 4, 4], timeoutMilliseconds: 10)
            var frames: [Int] = []
            for page: UInt8 in [5, 6] {
                let before = emulator.stats.frames
                try tag.reactivate()
                frames.append(emulator.stats.frames - before)
                #expect(try tag.transceive([0xA2, page, page, page, page, page], timeoutMilliseconds: 10) == [0x0A])
            }
            return frames
        }
        #expect(
            frames == [5, 3],
            "InDeselect, InSelect (fails), field off, on, InListPassiveTarget; then the field cycle only")
        #expect(pn532.withTag { $0.map { Array($0.image[16..<28]) } } == [4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6])
        await reader.close()
    }

    /// `baud=921600`: SetSerialBaudRate at 115200 before libnfc opens the port at the new speed.
    @Test func baudOptionRaisesTheUARTBeforeLibNFCOpensIt() async throws {
        let pn532 = try EmulatedPN532()
        #expect(pn532.emulator.stats.baud == 115_200)
        let spec = try ReaderSpec("nfc:pn532_uart:" + pn532.emulator.slavePath + "?slack=1000&baud=921600")
        let reader = try await LibNFCReader.open(spec: spec)
        #expect(await reader.linkBaud == 921_600)
        #expect(pn532.emulator.stats.baud == 921_600)
        _ = try await reader.poll(timeoutMilliseconds: 500)
        let page = try await reader.withTransceiver { tag in try tag.transceive([0x30, 0x03], timeoutMilliseconds: 5) }
        #expect(Array(page.prefix(4)) == [0xE1, 0x10, 0x3E, 0x00])
        await reader.close()
        for bad in ["?baud=12345", "?baud=fast", ":115200?baud=921600"] {
            let error = await #expect(throws: LibNFCError.self) {
                try await LibNFCReader.open(spec: try ReaderSpec("nfc:pn532_uart:" + pn532.emulator.slavePath + bad))
            }
            #expect(error?.code == .badSpec, "\(bad)")
        }
    }

    @Test func releaseOfATagThatStaysTimesOut() async throws {
        let pn532 = try EmulatedPN532()
        let reader = try await LibNFCReader.open(spec: pn532.spec)
        _ = try await reader.poll(timeoutMilliseconds: 500)
        #expect(try await reader.release(waitingForRemovalMilliseconds: 150) == false)
        await reader.close()
    }

    @Test func secondOpenOfTheSameDeviceIsBusyAndTheFirstIsUnaffected() async throws {
        let pn532 = try EmulatedPN532()
        let first = try await LibNFCReader.open(spec: pn532.spec)
        let error = await #expect(throws: LibNFCError.self) { try await LibNFCReader.open(spec: pn532.spec) }
        #expect(error?.code == .deviceBusy)
        #expect(error?.message.contains("process \(getpid())") == true)
        _ = try await first.poll(timeoutMilliseconds: 500)
        let page = try await first.withTransceiver { tag in try tag.transceive([0x30, 0x03], timeoutMilliseconds: 5) }
        #expect(Array(page.prefix(4)) == [0xE1, 0x10, 0x3E, 0x00])
        await first.close()
        // Closed: the lock is gone and the device opens again.
        let again = try await LibNFCReader.open(spec: pn532.spec)
        await again.close()
    }

    @Test func deviceHeldByAnotherProcessIsBusyNamingItsPID() async throws {
        let pn532 = try EmulatedPN532()
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        // The lock is a per-reader lock file, never the device node (docs/reference/pn532-libnfc.md §9 pitfall 3).
        let lockFile = DeviceLock.lockPath(for: "pn532_uart:" + pn532.emulator.slavePath)
        #expect(lockFile.hasPrefix("/run/lock/") && lockFile.hasSuffix(".lock"))
        holder.arguments = ["--exclusive", "--no-fork", lockFile, "sleep", "5"]
        try holder.run()
        defer {
            // SIGKILL: a child started from a dispatch thread inherits a mask that blocks SIGTERM.
            kill(holder.processIdentifier, SIGKILL)
            holder.waitUntilExit()
        }
        var error: LibNFCError?
        for _ in 0..<50 {  // wait until flock(1) holds the lock
            do {
                let reader = try await LibNFCReader.open(spec: pn532.spec)
                await reader.close()
                try await Task.sleep(for: .milliseconds(20))
            } catch let caught as LibNFCError {
                error = caught
                break
            }
        }
        #expect(error?.code == .deviceBusy)
        #expect(error?.message.contains("process \(holder.processIdentifier)") == true, "\(String(describing: error))")
    }

    @Test func cancellingAPollEndsItPromptly() async throws {
        let pn532 = try EmulatedPN532(count: 0)
        let reader = try await LibNFCReader.open(spec: pn532.spec)
        let start = ContinuousClock.now
        let task = Task { try await reader.poll(timeoutMilliseconds: 10_000) }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        #expect(try await task.value == .empty)
        #expect(ContinuousClock.now - start < .seconds(30), "bounded, not a speed check")
        // The reader still works afterwards.
        _ = try pn532.emulator.withChip { chip in try chip.field.insert(uid: [0x04, 1, 2, 3, 4, 5, 6]) }
        #expect(try await reader.poll(timeoutMilliseconds: 500) == .tag(DetectedTag(uid: [0x04, 1, 2, 3, 4, 5, 6])))
        await reader.close()
    }

    @Test func closedReaderRefusesWork() async throws {
        let pn532 = try EmulatedPN532()
        let reader = try await LibNFCReader.open(spec: pn532.spec)
        await reader.close()
        await #expect(throws: TransportError.self) { try await reader.poll(timeoutMilliseconds: 10) }
    }

    @Test func listedDevicesAreConnstrings() {
        let devices = LibNFCReader.listDevices()
        #expect(devices.allSatisfy { $0.contains(":") && !$0.contains("\0") }, "\(devices)")
    }

    @Test func badSpecsAreRefused() async throws {
        let error = await #expect(throws: LibNFCError.self) {
            try await LibNFCReader.open(spec: try ReaderSpec("pcsc:#1"))
        }
        #expect(error?.code == .badSpec)
    }
}

/// The lock file's trust rules (`DeviceLock`): a planted symlink or a stranger's file is refused.
@Suite struct DeviceLockFileTests {
    @Test func aSymlinkPlantedAtTheLockPathIsRefused() throws {
        let connstring = "pn532_uart:/dev/provision-test-\(UUID().uuidString.prefix(8))"
        let path = DeviceLock.lockPath(for: connstring)
        let target = FileManager.default.temporaryDirectory.appendingPathComponent("victim-\(UUID().uuidString)")
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target.path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: LibNFCError.self) { _ = try DeviceLock(connstring: connstring) }
        #expect(
            !FileManager.default.fileExists(atPath: target.path), "the lock followed the link and created its target")
    }

    @Test func aLockFileOwnedByAnotherUserIsRefusedAndOurOwnIsTaken() throws {
        let connstring = "pn532_uart:/dev/provision-test-\(UUID().uuidString.prefix(8))"
        let path = DeviceLock.lockPath(for: connstring)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let lock = try DeviceLock(connstring: connstring)
            #expect(lock.path == path)
        }
        // A stranger's file (uid 65534, nobody) could block the reader for ever: refused.
        guard chown(path, 65534, 65534) == 0 else {
            Issue.record("chown needs root (CI runs as root); errno \(errno)")
            return
        }
        #expect(throws: LibNFCError.self) { _ = try DeviceLock(connstring: connstring) }
    }

    /// The holder records its PID in the lock file, so a second open names it even where `/proc/locks`
    /// cannot (overlay file systems report another device there).
    @Test func theHolderRecordsItsPIDAndASecondOpenNamesIt() throws {
        let connstring = "pn532_uart:/dev/provision-test-\(UUID().uuidString.prefix(8))"
        let path = DeviceLock.lockPath(for: connstring)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let lock = try DeviceLock(connstring: connstring)
        let recorded = try String(contentsOfFile: path, encoding: .utf8)
        #expect(recorded == "\(getpid())\n")
        do {
            _ = try DeviceLock(connstring: connstring)
            Issue.record("the same lock was taken twice")
        } catch {
            #expect(error.code == .deviceBusy)
            #expect(error.message.contains("in use by process \(getpid())"))
        }
        withExtendedLifetime(lock) {}
    }
}
