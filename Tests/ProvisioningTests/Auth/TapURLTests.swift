import Foundation
import NFCTags
import Provisioning
import Synchronization
import Testing

private func template(_ uri: String) throws -> Template {
    try Template(
        parsing: Array("{\"records\": [{\"type\": \"uri\", \"uri\": \"\(uri)\"}]}".utf8), file: "t.json", job: "j",
        serial: .init())
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

@Test(arguments: [
    ("04AFCD1D7B39A8x000007", true), ("04AFCD1D7B39A8x00000a", false), ("04AFCD1D7B39A8xZZZZZZ", false),
    ("04AFCD1D7B39A8x+00001", false), ("04AFCD1D7B39A8x 00001", false), ("04afcd1d7b39a8x000007", false),
    ("04AFCD1D7B39A8X000007", false), ("04AFCD1D7B39A8xFFFFFF", true),
])
func aMirrorWindowMustBeTheChipsExactForm(window: String, matches: Bool) throws {
    let body = try template("https://ex.com/a?m={{uidCounterMirror}}&c={{mac:brand | bytes:4}}")
    let tap = body.matchTapURL("https://ex.com/a?m=\(window)&c=0102ABCD")
    #expect((tap != nil) == matches, "\(window)")
    if let tap {
        #expect(tap.uid == "04AFCD1D7B39A8" && tap.counter == Int(window.suffix(6), radix: 16))
    }
}

/// Shortest-run semantics as before: earlier placeholders take the shortest run that lets the rest match.
@Test func variablePlaceholdersTakeTheShortestRunThatLetsTheRestMatch() throws {
    let body = try template("https://ex.com/{{a}}/{{b}}?u={{uid}}&m={{mac:brand | bytes:4}}")
    let tap = try #require(body.matchTapURL("https://ex.com/x/y/z?u=04A1B2C3D4E5F6&m=0102ABCD"))
    #expect(tap.others.first { $0.key.name == "a" }?.value == "x")
    #expect(tap.others.first { $0.key.name == "b" }?.value == "y/z")
}

/// A hostile URL of 2 KiB (runs of the separators, no match) costs linear steps: doubling its length at
/// most doubles the work (the backtracking matcher took 10 s on 800 characters).
@Test func hostileURLsAreMatchedInLinearSteps() throws {
    let body = try template("https://ex.com/{{a}}/{{b}}/{{c}}/{{d}}?u={{uid}}&m={{mac:brand | bytes:4}}")
    func hostile(_ count: Int) -> String {
        let head = "https://ex.com/"
        return head + String(repeating: "/", count: count - head.count - 1) + "?"
    }
    let half = body.matchTapURLCounting(hostile(TapURL.maximumLength / 2))
    let full = body.matchTapURLCounting(hostile(TapURL.maximumLength))
    #expect(half.tap == nil && full.tap == nil)
    #expect(full.steps > 0)
    #expect(Double(full.steps) <= 2.1 * Double(half.steps), "\(half.steps) -> \(full.steps)")
    // At most a bounded number of steps per character (the program has well under 100 instructions).
    #expect(full.steps <= TapURL.maximumLength * 200, "\(full.steps)")
    // One byte over the cap is not examined at all.
    #expect(body.matchTapURLCounting(hostile(TapURL.maximumLength + 1)).steps == 0)
}

/// A key whose HMACs are counted (the seam `TapURL.macMatches` is observed through), computed as a loaded key would.
private final class CountingCustodian: KeyCustodian {
    let kind = SecretKey.Kind.hmac
    let fingerprint = "v1:0000000000000000"
    let location = "test"
    let key: [UInt8] = Array(0..<32)
    let calls = Atomic(0)

    func an10922(input: [UInt8]) throws -> [UInt8] { [] }
    func hmacSHA256(_ message: [UInt8]) throws -> [UInt8] {
        calls.add(1, ordering: .relaxed)
        return try SecretKey(id: "brand", bytes: key, kind: .hmac).hmac(message)
    }
}

/// A UID outside the job costs the same HMAC as a tag of the job before the answer (issue 44 item 4, finding 2):
/// NTAG21x verify-url used to answer it before computing any MAC, so its time told which UIDs a job holds.
@Test func aUIDOutsideTheJobComputesTheMACToo() throws {
    let body = try template("https://ex.com/{{sku}}?u={{uid}}&m={{mac:brand:uid,sku | bytes:4}}")
    let custodian = CountingCustodian()
    let key = SecretKey(id: "brand", heldBy: custodian)
    let mac = try URLMAC(bytes: 4).render(key: key, job: "j", fields: ["04A1B2C3D4E5F6", "A1"])
    #expect(custodian.calls.load(ordering: .relaxed) == 1)
    let tap = try #require(body.matchTapURL("https://ex.com/A1?u=04A1B2C3D4E5F6&m=\(mac)"))
    #expect(try tap.macMatches(key: key, job: "j", inputs: ["04A1B2C3D4E5F6", "A1"]))
    #expect(custodian.calls.load(ordering: .relaxed) == 2)
    #expect(try !tap.macMatches(key: key, job: "j", inputs: ["04A1B2C3D4E5F6", "A2"]))
    #expect(custodian.calls.load(ordering: .relaxed) == 3)
    // Outside the job: no inputs, the same one HMAC, and never a match (even were the stand-in to collide).
    #expect(try !tap.macMatches(key: key, job: "j", inputs: nil))
    #expect(custodian.calls.load(ordering: .relaxed) == 4)
}
