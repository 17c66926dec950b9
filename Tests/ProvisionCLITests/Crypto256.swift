import Foundation
import Testing

/// SHA-256 and HMAC-SHA256 for assertions, computed outside this project's code: Python's `hashlib` and
/// `hmac` (python3 is a test dependency, for nfcpy), so a fault in our libcrypto wrapper cannot hide.
enum Crypto256 {
    /// SHA-256 of `bytes`.
    static func sha(_ bytes: [UInt8]) -> [UInt8] {
        python("import hashlib,sys; sys.stdout.write(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())", bytes)
    }

    /// HMAC-SHA256 under `key` (for recomputing URL MACs independently of the Provisioning module).
    static func hmac(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        let hexKey = key.map { String(format: "%02x", $0) }.joined()
        return python(
            "import hmac,hashlib,sys; sys.stdout.write(hmac.new(bytes.fromhex('\(hexKey)'), "
                + "sys.stdin.buffer.read(), hashlib.sha256).hexdigest())", message)
    }

    /// Runs `python3 -c code` with `input` on stdin; its hex output as bytes (empty on failure, which
    /// then fails the comparison it feeds).
    private static func python(_ code: String, _ input: [UInt8]) -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", code]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        do {
            try process.run()
            try stdin.fileHandleForWriting.write(contentsOf: Data(input))
            try stdin.fileHandleForWriting.close()
        } catch {
            return []
        }
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let hex = Array(String(decoding: data, as: UTF8.self).utf8)
        guard process.terminationStatus == 0, hex.count == 64 else { return [] }
        return stride(from: 0, to: hex.count, by: 2).compactMap {
            UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)
        }
    }
}

/// Known answers (FIPS 180-2 "abc", RFC 4231 test case 2), so `Crypto256` itself is checked.
@Test func crypto256GivesTheKnownAnswers() {
    let hex: ([UInt8]) -> String = { $0.map { String(format: "%02x", $0) }.joined() }
    #expect(hex(Crypto256.sha(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
        hex(Crypto256.hmac(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8)))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
}
