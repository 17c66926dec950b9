import Foundation
import Provisioning
import Testing

private func template(_ uri: String) throws -> Template {
    try Template(parsing: Array("{\"records\": [{\"type\": \"uri\", \"uri\": \"\(uri)\"}]}".utf8), file: "t.json", job: "j", serial: .init())
}

@Test func tapURLsSplitAlongTheTemplate() throws {
    let body = try template("https://ex.com/{{sku}}/x?u={{uid}}&m={{mac:brand | bytes:4}}")
    let tap = try #require(body.matchTapURL("https://ex.com/A/B/x?u=04A1B2C3D4E5F6&m=0102ABCD"))
    #expect(tap.uid == "04A1B2C3D4E5F6" && tap.mac == "0102ABCD" && tap.keyID == "brand" && tap.inputs == ["uid"])
    #expect(tap.setting.bytes == 4)
    #expect(tap.others.first { $0.key.name == "sku" }?.value == "A/B")
    #expect(body.matchTapURL("https://ex.com/A/x?u=04A1B2C3D4E5F6&m=0102ABC") == nil)
    #expect(body.matchTapURL("https://ex.org/A/x?u=04A1B2C3D4E5F6&m=0102ABCD") == nil)
    #expect(body.matchTapURL("https://ex.com/A/x?u=04A1B2C3D4E5F6&m=0102ABCDEF") == nil)
}
