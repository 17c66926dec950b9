import Foundation
import NDEF
import NFCTags
import Provisioning
import Testing

@Test func workedExampleLandsOnPage9Byte3() throws {
    // docs/reference/type2.md §6: https://example.com/p?u= + 21-character placeholder → page 09h, byte 3.
    let body = try Template(
        parsing: Array(#"{"records": [{"type": "uri", "uri": "https://example.com/p?u={{uidCounterMirror}}"}]}"#.utf8),
        file: "t.json", job: "j", serial: .init())
    let row = JobRow(row: 1, line: 1, fields: [:])
    let plan = try #require(try body.mirrorPlan(row: row, late: nil))
    #expect(plan == MirrorPlan(kind: .uidAndCounter, page: 9, byte: 3))
    #expect(plan.lastPage == 0x0E)
    let bytes = try body.render(row: row, late: nil).bytes
    #expect(bytes.count == 0x2A)
    #expect(String(decoding: bytes.suffix(21), as: UTF8.self) == "00000000000000x000000")
}

@Test func mirrorASCIIMatchesTheDatasheetExample() {
    let uid: [UInt8] = [0x04, 0xE1, 0x41, 0x12, 0x4C, 0x28, 0x80]
    #expect(MirrorKind.uidAndCounter.ascii(uid: uid, counter: 0x3F31) == "04E141124C2880x003F31")
    #expect(MirrorKind.counter.ascii(uid: uid, counter: 1) == "000001")
    #expect(MirrorKind.uid.ascii(uid: uid, counter: 1) == "04E141124C2880")
    #expect(
        MirrorKind.uidAndCounter.configuration == 0b11 && MirrorKind.counter.usesCounter && !MirrorKind.uid.usesCounter)
}
