import Foundation
import ProvisionCLI
import TestSupport
import Testing

/// Sends one line to a unix socket and returns the answer line.
func controlRequest(_ path: String, _ line: String) throws -> String {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    try #require(fd >= 0)
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
    }
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
    try #require(connected == 0)
    let request = Array((line + "\n").utf8)
    _ = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    var answer: [UInt8] = []
    var byte: UInt8 = 0
    while read(fd, &byte, 1) == 1, byte != 0x0A { answer.append(byte) }
    return String(decoding: answer, as: UTF8.self)
}

@Suite(.serialized)
struct EmulateCommandTests {
    @Test func usageErrorsExit64() async {
        for arguments in [
            ["emulate"], ["emulate", "toaster"], ["emulate", "pn532", "--timing", "slow"],
            ["emulate", "pn532", "--tags", "sim:ntag215?count=x"], ["emulate", "pn532", "extra"],
            ["emulate", "pn532", "--select-sets-crc", "--select-keeps-crc"],
        ] {
            let context = CommandContext.buffered()
            #expect(await ProvisionCLI.run(arguments, context: context) == 64, "\(arguments)")
            #expect(context.err.text.hasPrefix("error: "))
        }
    }

    @Test func emulatorProcessServesLibnfcAndTheControlSocketUntilSIGTERM() async throws {
        let directory = try Fixtures.temporaryDirectory("emulate")
        let pathFile = directory.appendingPathComponent("pty")
        let socketPath = directory.appendingPathComponent("control.sock").path
        let process = Process()
        process.executableURL = ProvisionProcess.executableURL
        process.arguments = [
            "emulate", "pn532", "--tags", "sim:ntag215?uid=04C0FFEE000001", "--timing", "datasheet",
            "--path-file", pathFile.path, "--control", socketPath,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var slave = ""
        for _ in 0..<1_000 where slave.isEmpty {
            try await Task.sleep(for: .milliseconds(10))
            slave =
                (try? String(contentsOf: pathFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
                ?? ""
        }
        try #require(slave.hasPrefix("/tmp/pn532."))

        let device = "pn532_uart:" + slave
        let listed = try await onThread {
            let list = Process()
            list.executableURL = URL(fileURLWithPath: "/usr/bin/nfc-list")
            list.environment = ["LIBNFC_LOG_LEVEL": "0", "LIBNFC_DEVICE": device, "LIBNFC_AUTO_SCAN": "false"]
            let listOutput = Pipe()
            list.standardOutput = listOutput
            try list.run()
            let listed = String(decoding: listOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            list.waitUntilExit()
            return listed
        }
        #expect(listed.contains("UID (NFCID1): 04  c0  ff  ee  00  00  01"), "\(listed)")

        #expect(try controlRequest(socketPath, "stats").hasPrefix("ok frames="))
        let dump = directory.appendingPathComponent("tag.bin").path
        #expect(try controlRequest(socketPath, "dump \(dump)") == "ok 540 bytes")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: dump)).prefix(3)) == [0x04, 0xC0, 0xFF])
        #expect(try controlRequest(socketPath, "remove") == "ok")
        #expect(try controlRequest(socketPath, "dump \(dump)") == "error no tag in the field")
        #expect(try controlRequest(socketPath, "insert 04:11:22:33:44:55:66") == "ok 04112233445566")
        #expect(try controlRequest(socketPath, "insert 0411").hasPrefix("error "))

        kill(process.processIdentifier, SIGTERM)
        let child = UncheckedProcess(process)
        try await onThread { child.process.waitUntilExit() }
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(printed == slave + "\n")
        #expect(!FileManager.default.fileExists(atPath: pathFile.path))
        #expect(!FileManager.default.fileExists(atPath: socketPath))
    }
}

/// Carries a `Process` to the thread that waits for it.
/// `@unchecked Sendable`: only `waitUntilExit` runs there while the test awaits it.
struct UncheckedProcess: @unchecked Sendable {
    let process: Process
    init(_ process: Process) { self.process = process }
}
