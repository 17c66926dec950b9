import Foundation
import NDEF
import NFCTags
import ReaderLibNFC
import TestSupport
import Testing

/// `provision emulate pn532` as a child process; stopped with SIGTERM.
final class EmulatorProcess: @unchecked Sendable {
    // @unchecked: `process` is only started here and waited for by one caller at a time.
    let process = Process()
    private(set) var slavePath = ""
    private let pathFile: URL

    /// Starts the child and waits (off the cooperative pool) until it has published its pty.
    static func start(_ arguments: [String]) async throws -> EmulatorProcess {
        let child = try EmulatorProcess(arguments)
        for _ in 0..<1_000 where child.slavePath.isEmpty {
            try await Task.sleep(for: .milliseconds(10))
            child.slavePath =
                (try? String(contentsOf: child.pathFile, encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        }
        return child
    }

    private init(_ arguments: [String]) throws {
        let directory = try Fixtures.temporaryDirectory("pn532-child")
        pathFile = directory.appendingPathComponent("pty")
        process.executableURL = ProvisionProcess.executableURL
        process.arguments = ["emulate", "pn532", "--path-file", pathFile.path] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// SIGTERM, then the exit status.
    func stop() async throws -> Int32 {
        kill(process.processIdentifier, SIGTERM)
        return try await onThread { [self] in
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

@Suite(.serialized)
struct LibNFCLineTests {
    /// What a line worker does per tag: select, write, read back, release and wait for the next.
    @Test func aLineOfTagsRunsThroughTheEmulatorProcess() async throws {
        let store = try Fixtures.temporaryDirectory("pn532-store")
        let child = try await EmulatorProcess.start([
            "--tags", "sim:ntag215?count=5&uid=04A00000000000&store=\(store.path)", "--line",
        ])
        try #require(child.slavePath.hasPrefix("/tmp/pn532."))
        let reader = try await LibNFCReader.open(spec: ReaderSpec("nfc:pn532_uart:" + child.slavePath + "?slack=1000"))
        var uids: [[UInt8]] = []
        for row in 0..<5 {
            guard case .tag(let tag) = try await reader.poll(timeoutMilliseconds: 1_000) else {
                Issue.record("no tag for row \(row)")
                break
            }
            uids.append(tag.uid)
            let data: [UInt8] = [0x03, 0x02, UInt8(row), 0xFE]
            let readBack = try await reader.withTransceiver { tag in
                #expect(try tag.transceive([0xA2, 0x04] + data, timeoutMilliseconds: 10) == [0x0A])
                return try tag.transceive([0x30, 0x04], timeoutMilliseconds: 5)
            }
            #expect(Array(readBack.prefix(4)) == data)
            #expect(try await reader.release(waitingForRemovalMilliseconds: 1_000))
        }
        #expect(try await reader.poll(timeoutMilliseconds: 100) == .empty)
        await reader.close()
        #expect(try await child.stop() == 0)
        #expect(uids == (0..<5).map { [0x04, 0xA0, 0, 0, 0, 0, UInt8($0)] })
        for (row, uid) in uids.enumerated() {
            let image = try [UInt8](Data(contentsOf: store.appendingPathComponent(Hex.compact(uid) + ".bin")))
            #expect(Array(image[16..<20]) == [0x03, 0x02, UInt8(row), 0xFE])
        }
    }

    /// A `nak5` fault from the spec reaches the reader as NAK 5 on exactly one page.
    @Test func specFaultNakFiveReachesTheReader() async throws {
        let child = try await EmulatorProcess.start(["--tags", "sim:ntag215?count=1&faults=nak5:1"])
        try #require(child.slavePath.hasPrefix("/tmp/pn532."))
        let reader = try await LibNFCReader.open(spec: ReaderSpec("nfc:pn532_uart:" + child.slavePath + "?slack=1000"))
        var naks: [UInt8] = []
        for page in UInt8(4)...15 {
            guard case .tag = try await reader.poll(timeoutMilliseconds: 500) else { break }
            do {
                _ = try await reader.withTransceiver { tag in
                    try tag.transceive([0xA2, page, 1, 2, 3, 4], timeoutMilliseconds: 10)
                }
            } catch TransportError.nak(let code) {
                #expect(code == 5)
                naks.append(page)
            }
        }
        #expect(naks.count == 1)
        await reader.close()
        #expect(try await child.stop() == 0)
    }
}
