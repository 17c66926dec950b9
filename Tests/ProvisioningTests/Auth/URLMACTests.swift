import Crypto
import Foundation
import NDEF
import NFCTags
import Provisioning
import TestSupport
import Testing

private let key = SecretKey(id: "brand", bytes: Array(0..<32))

@Test func messageEncodingIsLengthPrefixedAndLabelled() throws {
    let message = URLMAC.message(job: "j", fields: ["ab", "c"])
    #expect(
        Hex.compact(message) == Hex.compact(Array("provision/url-mac/v1".utf8)) + "00"
            + "00000001" + "6A" + "00000002" + "6162" + "00000001" + "63")
    #expect(URLMAC.message(job: "j", fields: ["ab", "c"]) != URLMAC.message(job: "j", fields: ["a", "bc"]))
}

@Test func macIsTruncatedHMACAndVerifies() throws {
    let mac = URLMAC(bytes: 8, rendering: .hex)
    let full = Digest.hmacSHA256(key: Array(0..<32), message: URLMAC.message(job: "j", fields: ["04A1", "7"]))
    let rendered = try mac.render(key: key, job: "j", fields: ["04A1", "7"])
    #expect(rendered == Hex.compact(full.prefix(8)))
    #expect(try mac.matches(rendered.lowercased(), key: key, job: "j", fields: ["04A1", "7"]))
    #expect(try !mac.matches(rendered, key: key, job: "j", fields: ["04A1", "8"]))
    let b64 = try URLMAC(bytes: 8, rendering: .base64url).render(key: key, job: "j", fields: ["04A1", "7"])
    #expect(b64.count == URLMAC(bytes: 8, rendering: .base64url).renderedLength)
    #expect(!b64.contains("=") && !b64.contains("+") && !b64.contains("/"))
}

@Test func passwordIsHMACOfUIDSplitIntoPWDAndPACK() throws {
    let uid: [UInt8] = [0x04, 0x51, 0x7C, 0xE1, 0xED, 0x25, 0x80]
    let mac = Digest.hmacSHA256(key: Array(0..<32), message: uid)
    let password = try TagPassword(key: key, uid: uid)
    #expect(password.pwd == Array(mac[0..<4]))
    #expect(password.pack == Array(mac[4..<6]))
}

@Test func keyDescriptionNeverContainsKeyBytes() {
    let text = "\(key)"
    #expect(!text.contains(Hex.compact(Array(UInt8(0)..<32))))
    #expect(text.contains(key.fingerprint))
}

@Test func keyFilesReadableByOthersAreRefused() throws {
    let folder = try Fixtures.temporaryDirectory("keys")
    let file = folder.appendingPathComponent("brand.key")
    try Data(Hex.compact(Array(UInt8(0)..<32)).utf8).write(to: file)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
    #expect(throws: KeyError.self) { try KeyLoader.load(id: "brand", from: .file(file), environment: [:]) }
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    let loaded = try KeyLoader.load(id: "brand", from: .file(file), environment: [:])
    #expect(loaded.fingerprint == key.fingerprint)
    let fromEnv = try KeyLoader.load(
        id: "brand", from: .environment("K"),
        environment: ["K": "base64:" + Data(Array(UInt8(0)..<32)).base64EncodedString()])
    #expect(fromEnv.fingerprint == key.fingerprint)
    #expect(throws: KeyError.self) { try KeyLoader.load(id: "b", from: .environment("K"), environment: ["K": "abcd"]) }
}
