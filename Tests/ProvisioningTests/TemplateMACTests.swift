import Crypto
import Foundation
import JSONReader
import NDEF
import NFCTags
import Provisioning
import Testing

private let key = SecretKey(id: "brand", bytes: Array(0..<32))
private let tag = LateBound(
    uid: [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6], timestamp: Date(timeIntervalSince1970: 1_764_691_200))

private func render(_ value: String, keys: [String: SecretKey] = ["brand": key], late: LateBound? = tag) throws
    -> String
{
    var body = try Template(
        parsing: Array("{\"v\": \"\(value)\"}".utf8), file: "t.json", job: "line-7", serial: .init())
    body.keys = keys
    let json = try body.renderRecordJSON(row: JobRow(row: 2, line: 1, fields: ["sku": "A-1"]), late: late)
    return try #require(try JSONScanner.parse(json)["v"]?.string)
}

/// The documented encoding, built independently: label 00, then each value with a 4-byte BE length.
private func expectedMAC(_ values: [String], bytes: Int) -> [UInt8] {
    var message = Array("provision/url-mac/v1".utf8) + [0]
    for value in values {
        let utf8 = Array(value.utf8)
        message += [0, 0, UInt8(utf8.count >> 8), UInt8(utf8.count & 0xFF)] + utf8
    }
    return Array(Digest.hmacSHA256(key: Array(0..<32), message: message).prefix(bytes))
}

@Test func macDefaultsToEightBytesOfHexOverJobAndUID() throws {
    let text = try render("{{mac:brand}}")
    #expect(text == Hex.compact(expectedMAC(["line-7", "04A1B2C3D4E5F6"], bytes: 8)))
    #expect(text.count == 16)
}

@Test func macOverNamedInputsWithBytesAndBase64url() throws {
    let text = try render("{{mac:brand:uid,sku,serial | bytes:12 | base64url}}")
    let raw = expectedMAC(["line-7", "04A1B2C3D4E5F6", "A-1", "2"], bytes: 12)
    let b64 = Data(raw).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    #expect(text == b64 && text.count == 16)
    // Another UID gives another MAC.
    let other = LateBound(uid: [0x04, 0, 0, 0, 0, 0, 1], timestamp: tag.timestamp)
    #expect(try render("{{mac:brand:uid,sku,serial | bytes:12 | base64url}}", late: other) != text)
}

@Test func macSizesWithoutAKeyButRefusesToWriteWithoutOne() throws {
    #expect(try render("{{mac:brand | bytes:6}}", keys: [:], late: nil) == "000000000000")
    #expect(throws: JobInputError.self) { try render("{{mac:brand}}", keys: [:], late: tag) }
}

@Test(arguments: [
    ("{{mac:brand | upper}}", "a mac takes only 'bytes:N'"),
    ("{{mac:brand | bytes:2}}", "a mac takes only 'bytes:N'"),
    ("{{mac:}}", "must be {{mac:KEYID}}"),
    ("{{mac:brand:uid,}}", "must be {{mac:KEYID}}"),
])
func macSyntaxErrors(text: String, expected: String) {
    do {
        _ = try Template(parsing: Array("{\"v\": \"\(text)\"}".utf8), file: "t.json", job: "j", serial: .init())
        Issue.record("no error")
    } catch {
        #expect(error.description.contains(expected), "\(error)")
    }
}
