import Foundation
import NDEF
import NFCTags
import Provisioning
import Testing

private let cwd = URL(fileURLWithPath: "/work/line")
private let manifestURL = URL(fileURLWithPath: "/work/line/jobs/x.json")
private let base = #""job": "a", "template": "t.json", "records": "r.csv", "tag": "ntag215""#

private func parse(_ extra: String) throws(JobInputError) -> Manifest {
    try Manifest(parsing: Array("{\(base), \(extra)}".utf8), manifestURL: manifestURL, currentDirectory: cwd)
}

private func problem(_ extra: String) -> String {
    do {
        _ = try parse(extra)
        return "no error"
    } catch {
        return error.description
    }
}

@Test func securitySectionsDecode() throws {
    let manifest = try parse(
        """
        "keys": {"brand": {"env": "BRAND_KEY"}, "k2": {"file": "../keys/k2.key"}},
        "signature": {"mode": "require", "trust": ["04\(String(repeating: "AB", count: 32))"]},
        "protect": {"key": "brand", "auth0": "ndef", "prot": "readwrite", "authlim": 3, "cfglck": true}
        """)
    let security = manifest.security
    #expect(security.keys["brand"] == .environment("BRAND_KEY"))
    #expect(security.keys["k2"] == .file(URL(fileURLWithPath: "/work/line/keys/k2.key")))
    #expect(security.signature == .require)
    #expect(security.trustedKeys == [[0x04] + Array(repeating: 0xAB, count: 32)])
    #expect(
        security.protection
            == ManifestSecurity.Protection(
                key: "brand", auth0: .ndef, access: .readwrite, authLimit: 3, configLock: true))
}

/// Both accepted trust-key forms, as the manifest writes them and as the decoder returns them.
@Test(arguments: [
    ("04" + String(repeating: "AB", count: 32), 33),
    ("04" + String(repeating: "cd", count: 56), 57),
])
func trustKeysOfEitherCurveDecode(hex: String, bytes: Int) throws {
    let manifest = try parse(#""signature": {"mode": "require", "trust": ["\#(hex)"]}"#)
    let key = try #require(manifest.security.trustedKeys.first)
    #expect(key.count == bytes && key[0] == 0x04 && Hex.compact(key) == hex.uppercased())
}

@Test func securityDefaultsAndShortForms() throws {
    let plain = try parse(#""lock": "none""#)
    #expect(plain.security.keys.isEmpty && plain.security.signature == .off && plain.security.protection == nil)
    let short = try parse(#""keys": {"b": {"env": "B"}}, "signature": "record", "protect": {"key": "b", "auth0": 16}"#)
    #expect(short.security.signature == .record)
    #expect(short.security.protection == ManifestSecurity.Protection(key: "b", auth0: .page(16)))
    let end = try parse(#""keys": {"b": {"env": "B"}}, "protect": {"key": "b", "auth0": "end"}"#)
    #expect(end.security.protection?.auth0 == .end)
}

@Test(arguments: [
    (#""keys": {"b": {"env": "B", "file": "k"}}"#, "keys.b: needs exactly one of"),
    (#""keys": {"a:b": {"env": "B"}}"#, "keys.a:b: 'a:b' is not a key id"),
    (#""keys": {"b": {"path": "k"}}"#, "keys.b.path: unknown key"),
    (#""keys": []"#, "keys: must be an object"),
    (#""signature": "maybe""#, "signature: unknown value 'maybe'"),
    (#""signature": {"mode": "require", "trust": ["0411"]}"#, "signature.trust[0]: must be an uncompressed"),
    (
        #""signature": {"mode": "require", "trust": ["04\#(String(repeating: "AB", count: 40))"]}"#,
        // Issue 41 item 2: the targets of each curve are generated from the descriptors.
        "signature.trust[0]: must be an uncompressed public key starting with 04: secp128r1 for Type 2 tags (ntag213, "
            + "ntag215, ntag216, ultralight-ev1, mf0ul11, mf0ul21, type2), 66 hex digits, or secp224r1 for Type 4 "
            + "tags (ntag424), 114 hex digits"
    ),
    (
        #""signature": {"mode": "record", "trust": ["03\#(String(repeating: "AB", count: 56))"]}"#,
        "signature.trust[0]: must be an uncompressed public key starting with 04"
    ),
    (#""signature": {"mode": "record", "trust": ["04AB", 7]}"#, "signature.trust[0]: must be an uncompressed"),
    (#""signature": {"trust": []}"#, "signature.mode: missing"),
    (#""protect": {"key": "nope", "auth0": 4}"#, "protect.key: 'nope' is not in keys"),
    (
        #""keys": {"b": {"env": "B"}}, "protect": {"key": "b", "auth0": 2}"#,
        "protect.auth0: must be a whole number in 4...255"
    ),
    (
        #""keys": {"b": {"env": "B"}}, "protect": {"key": "b", "auth0": "start"}"#,
        "protect.auth0: must be a page number"
    ),
    (
        #""keys": {"b": {"env": "B"}}, "protect": {"key": "b", "auth0": 4, "authlim": 8}"#,
        "protect.authlim: must be a whole number in 0...7"
    ),
    (
        #""keys": {"b": {"env": "B"}}, "protect": {"key": "b", "auth0": 4, "prot": "read"}"#,
        "protect.prot: unknown value 'read'"
    ),
    (
        #""keys": {"b": {"env": "B"}}, "protect": {"key": "b", "auth0": 4, "cfglck": 1}"#,
        "protect.cfglck: must be true or false"
    ),
    (#""keys": {"b": {"env": "B"}}, "protect": {"auth0": 4}"#, "protect.key: missing"),
])
func securityProblemsNameTheirJSONPath(extra: String, expected: String) {
    let message = problem(extra)
    #expect(message.contains(expected), "\(message)")
    #expect(message.contains("jobs/x.json"), "\(message)")
}

@Test func keysLoadFromTheEnvironmentWithoutLeakingThem() throws {
    let manifest = try parse(#""keys": {"brand": {"env": "BRAND_KEY"}}"#)
    let keys = try manifest.security.loadKeys(environment: ["BRAND_KEY": "00112233445566778899AABBCCDDEEFF"])
    let key = try #require(keys["brand"])
    #expect(key.description.contains("brand"))
    #expect(!key.description.contains("00112233"))
    #expect(throws: KeyError.self) { try manifest.security.loadKeys(environment: [:]) }
}
