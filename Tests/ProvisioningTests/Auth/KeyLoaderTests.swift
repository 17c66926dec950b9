import Foundation
import NDEF
import NFCTags
import TestSupport
import Testing

@testable import Provisioning

private let keyBytes = Array(UInt8(0x10)..<0x30)
private let keyHex = Hex.compact(keyBytes)
private let reference = SecretKey(id: "k", bytes: keyBytes)

private func loadEnv(_ value: String, encoding: KeyEncoding? = nil) throws(KeyError) -> SecretKey {
    try KeyLoader.load(id: "k", from: .environment("K", encoding: encoding), environment: ["K": value])
}

@Test(arguments: [
    keyHex, keyHex.lowercased(), "hex:" + keyHex, " \(keyHex)\n",
    "base64:" + Data(keyBytes).base64EncodedString(),
    "base64:"
        + Data(keyBytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: ""),
])
func explicitOrPlainHexKeysLoad(_ value: String) throws {
    #expect(try loadEnv(value).fingerprint == reference.fingerprint)
}

/// The mistypes of issue 27: a letter O for a zero, a dropped digit, and base64 without its prefix
/// (all once decoded silently as base64 under another key).
@Test(arguments: [
    String(keyHex.dropFirst(2)) + "O0", String(keyHex.dropLast()), Data(keyBytes).base64EncodedString(),
    "hex:" + String(keyHex.dropLast()), "base64:***", String(keyHex.prefix(30)), String(repeating: "A", count: 130),
])
func ambiguousKeysAreRefusedWithoutEchoingThem(_ value: String) {
    do {
        _ = try loadEnv(value)
        Issue.record("accepted \(value)")
    } catch {
        #expect(error.reason == .malformed)
        let core = value.replacingOccurrences(of: "hex:", with: "").replacingOccurrences(of: "base64:", with: "")
        #expect(!error.description.contains(core), "\(error)")
    }
}

/// Issue 40: `hex:base64:…` was read as base64 (the second prefix silently won); a key takes one prefix.
@Test(arguments: [
    "hex:base64:" + Data(keyBytes).base64EncodedString(), "base64:hex:" + keyHex, "hex:hex:" + keyHex,
    "base64:base64:" + Data(keyBytes).base64EncodedString(), "hex:RAW:" + keyHex,
])
func aDoublePrefixIsRefusedWithoutEchoingTheKey(_ value: String) {
    do {
        _ = try loadEnv(value)
        Issue.record("accepted \(value)")
    } catch {
        #expect(error.reason == .malformed && error.message.contains("two encoding prefixes"), "\(error)")
        #expect(
            !error.description.contains(keyHex) && !error.description.contains(Data(keyBytes).base64EncodedString()))
    }
}

@Test func theEntrysEncodingDecidesAndMustAgreeWithAPrefix() throws {
    let base64 = Data(keyBytes).base64EncodedString()
    #expect(try loadEnv(base64, encoding: .base64).fingerprint == reference.fingerprint)
    #expect(try loadEnv(keyHex, encoding: .hex).fingerprint == reference.fingerprint)
    #expect(throws: KeyError.self) { try loadEnv("hex:" + keyHex, encoding: .base64) }
    #expect(throws: KeyError.self) { try loadEnv(keyHex, encoding: .raw) }
}

@Test func rawByteKeyFilesKeepWorkingAndTextFilesFollowTheTextRules() throws {
    let folder = try Fixtures.temporaryDirectory("keys")
    defer { try? FileManager.default.removeItem(at: folder) }
    let raw = folder.appendingPathComponent("raw.key")
    let binary: [UInt8] = [0x00, 0xFF, 0x80] + keyBytes
    try Data(binary).write(to: raw)
    chmod(raw.path, 0o600)
    #expect(
        try KeyLoader.load(id: "k", from: .file(raw), environment: [:]).fingerprint
            == SecretKey(id: "k", bytes: binary).fingerprint)
    // Printable text that is not plain hex is refused, unless the entry says raw.
    let text = folder.appendingPathComponent("text.key")
    try Data("correct horse battery staple!!".utf8).write(to: text)
    chmod(text.path, 0o600)
    #expect(throws: KeyError.self) { try KeyLoader.load(id: "k", from: .file(text), environment: [:]) }
    #expect(
        try KeyLoader.load(id: "k", from: .file(text, encoding: .raw), environment: [:]).fingerprint
            == SecretKey(id: "k", bytes: Array("correct horse battery staple!!".utf8)).fingerprint)
    let hexFile = folder.appendingPathComponent("hex.key")
    try Data((keyHex + "\n").utf8).write(to: hexFile)
    chmod(hexFile.path, 0o600)
    #expect(try KeyLoader.load(id: "k", from: .file(hexFile), environment: [:]).fingerprint == reference.fingerprint)
}

@Test func manifestKeyEntriesTakeAnEncoding() throws {
    let folder = try JobFolder(
        rows: 1, lock: false, extra: #", "keys": {"a": {"env": "A", "encoding": "base64"}, "b": {"env": "B"}}"#)
    let manifest = try Manifest.load(from: folder.url.appendingPathComponent("job.json"), currentDirectory: folder.url)
    #expect(manifest.security.keys["a"] == .environment("A", encoding: .base64))
    #expect(manifest.security.keys["b"] == .environment("B"))
    let bad = try JobFolder(rows: 1, lock: false, extra: #", "keys": {"a": {"env": "A", "encoding": "latin1"}}"#)
    #expect(throws: JobInputError.self) {
        try Manifest.load(from: bad.url.appendingPathComponent("job.json"), currentDirectory: bad.url)
    }
}
