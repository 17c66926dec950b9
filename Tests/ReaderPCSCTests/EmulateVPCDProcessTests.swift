import Foundation
import NDEF
import NFCTags
import ReaderPCSC
import TagEmulator
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `provision emulate vpcd` as a separate process with the real chip model, read through pcscd.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct EmulateVPCDProcessTests {
    /// Sends one control line over the Unix socket and reads the answer up to `ok` / `error:`.
    private func control(_ path: String, _ line: String) throws -> String {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else { throw HarnessError("cannot connect to \(path)") }
        let request = Array((line + "\n").utf8)
        _ = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let text = String(decoding: answer, as: UTF8.self)
            if text.hasSuffix("ok\n") || text.contains("error:") && text.hasSuffix("\n") { return text }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return text }
            answer += buffer.prefix(count)
        }
    }

    @Test func emulateVPCDPresentsTheChipModelToPcscd() async throws {
        let daemon = try await PCSCDaemon.start(slots: 1) { try PCSCReader.listReaders().count }
        let socketPath = daemon.directory.appendingPathComponent("vpcd.sock").path
        let process = Process()
        process.executableURL = ProvisionProcess.executableURL
        process.arguments = [
            "emulate", "vpcd", "--port", String(daemon.ports[0]), "--reader-style", "acr122u",
            "--tags", "sim:ntag216?uid=04585969D29C39&count=3", "--control", socketPath,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        do {
            let reader = try #require(try await PCSCReader.open("pcsc:#0?style=acr122u").first)
            let state = try await reader.poll(timeoutMilliseconds: 5000)
            #expect(state == .tag(DetectedTag(uid: [0x04, 0x58, 0x59, 0x69, 0xD2, 0x9C, 0x39])))
            let (version, cc, written) = try await reader.withTransceiver { link in
                let version = try link.transceive([0x60], timeoutMilliseconds: 5)
                let cc = try link.transceive([0x30, 0x03], timeoutMilliseconds: 5)
                _ = try link.transceive([0xA2, 0x10, 0x01, 0x02, 0x03, 0x04], timeoutMilliseconds: 10)
                return (version, cc, try link.transceive([0x3A, 0x10, 0x10], timeoutMilliseconds: 5))
            }
            #expect(version == ChipModel.ntag216.version)
            #expect(cc.prefix(4) == [0xE1, 0x10, 0x6D, 0x00])
            #expect(written == [0x01, 0x02, 0x03, 0x04])
            let stats = try control(socketPath, "stats")
            #expect(stats.contains("tag=04585969D29C39"))
            #expect(stats.contains("raw=2"))
            #expect(stats.contains("update=1"))
            let dump = try control(socketPath, "dump")
            #expect(dump.contains("10: 01 02 03 04"))
        } catch {
            process.terminate()
            process.waitUntilExit()
            await daemon.stop()
            throw error
        }
        process.terminate()
        process.waitUntilExit()
        await daemon.stop()
        #expect(process.terminationStatus == 0)
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(printed.hasPrefix("vpcd: card for 127.0.0.1:\(daemon.ports[0])"))
    }

    @Test func badStyleAndTagSpecsAreUsageErrors() throws {
        let style = try ProvisionProcess.run(["emulate", "vpcd", "--reader-style", "acr999"])
        #expect(style.status == 64)
        #expect(style.stderr.contains("--reader-style"))
        let tags = try ProvisionProcess.run(["emulate", "vpcd", "--tags", "sim:ntag999"])
        #expect(tags.status == 64)
        #expect(tags.stderr.contains("--tags"))
        let host = try ProvisionProcess.run(["emulate", "vpcd", "--host", "localhost"])
        #expect(host.status == 64)
        #expect(host.stderr.contains("--host"))
        let device = try ProvisionProcess.run(["emulate", "vpcd2"])
        #expect(device.status == 64)
    }
}
