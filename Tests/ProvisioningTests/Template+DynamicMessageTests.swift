import Foundation
import NDEF
import NFCTags
import Provisioning
import TestSupport
import Testing

/// `{{sun.…}}` tokens: where they land in the NTAG 424 DNA's NDEF file, the file settings that follow, and the
/// pre-flight rules that refuse what the chip or the line cannot honour (issue 25, "SUN / SDM").
@Suite struct TemplateDynamicMessageTests {
    static let section = #", "keys": {"brand": {"env": "BRAND_KEY"}}, "ntag424": {"master": "brand"}"#

    /// A job folder whose template is one URI record `uri`, on `tag` with `extra` manifest keys.
    static func folder(uri: String, tag: String = "ntag424", lock: Bool = true, extra: String = section) throws
        -> JobFolder
    {
        let folder = try JobFolder(rows: 2, tag: tag, lock: lock, extra: extra)
        let template = #"{"records": [{"type": "uri", "uri": "\#(uri)"}]}"#
        try Data(template.utf8).write(to: folder.url.appendingPathComponent("template.json"))
        return folder
    }

    static func preflight(_ folder: JobFolder) throws -> PreFlightSummary {
        try PreFlight.run(manifestAt: folder.url.appendingPathComponent("job.json"), currentDirectory: folder.url)
    }

    static func problem(uri: String, tag: String = "ntag424", lock: Bool = true, extra: String = section) -> String {
        do {
            let summary = try preflight(try folder(uri: uri, tag: tag, lock: lock, extra: extra))
            return summary.problems.first?.description ?? "accepted"
        } catch {
            return "\(error)"
        }
    }

    @Test func piccAndMacLandAfterNLENAndGiveK1K2Settings() throws {
        let folder = try Self.folder(uri: "https://example.com/t?p={{sun.picc}}&m={{sun.mac}}")
        #expect(try Self.preflight(folder).problems.isEmpty)
        let manifest = try Manifest.load(
            from: folder.url.appendingPathComponent("job.json"), currentDirectory: folder.url)
        let template = try Template.load(for: manifest)
        let row = JobRow(row: 1, line: 2, fields: ["sku": "SKU-1", "name": "Item 1"])
        // D1 01 len 55 04 "example.com/t?p=" → PICC data at message byte 5 + 16, the file's byte 2 + 21.
        let layout = try #require(try template.dynamicLayout(row: row, late: nil, manifest: manifest) as? SUNLayout)
        #expect(layout.offsets == [.picc: 23, .mac: 23 + 32 + 3])
        let settings = layout.fileSettings
        let sdm = try #require(settings.sdm)
        #expect(sdm.metaRead == .key(1) && sdm.fileRead == .key(2) && sdm.piccDataOffset == 23)
        #expect(sdm.macInputOffset == 23 && sdm.macOffset == 58)
        #expect(settings.write == .never && settings.readWrite == .never && settings.change == .never)
        #expect(settings.read == .free && sdm.mirrorsUID && sdm.mirrorsReadCounter)
        // The message written holds 0s where the chip mirrors.
        let message = try template.render(row: row, late: .sizing).bytes
        #expect(Array(message[21..<53]) == Array(repeating: UInt8(ascii: "0"), count: 32))
    }

    @Test func emptyMacInputAndPlainMirrorsAndTheKeysLock() throws {
        let extra = #", "keys": {"brand": {"env": "K"}}, "ntag424": {"master": "brand", "macInput": "empty"}"#
        let text = try Self.folder(
            uri: "https://e.io/{{sun.uid}}x{{sun.counter}}/{{sun.mac}}", lock: false, extra: extra)
        let job = text.url.appendingPathComponent("job.json")
        let keysLock = try String(contentsOf: job, encoding: .utf8).replacingOccurrences(
            of: #""lock": "none""#, with: #""lock": "keys""#)
        try Data(keysLock.utf8).write(to: job)
        let manifest = try Manifest.load(from: text.url.appendingPathComponent("job.json"), currentDirectory: text.url)
        let template = try Template.load(for: manifest)
        let row = JobRow(row: 1, line: 2, fields: [:])
        let layout = try template.dynamicLayout(row: row, late: nil, manifest: manifest)
        let settings = try #require(layout as? SUNLayout).fileSettings
        // D1 01 len 55 04 "e.io/" → UID at message 10, file 12; counter after "x"; MAC after "/".
        #expect(settings.sdm?.uidOffset == 12 && settings.sdm?.readCounterOffset == 12 + 14 + 1)
        #expect(
            settings.sdm?.macOffset == 12 + 14 + 1 + 6 + 1 && settings.sdm?.macInputOffset == settings.sdm?.macOffset)
        #expect(settings.sdm?.metaRead == .free && settings.write == .key(3) && settings.change == .key(0))
    }

    @Test(arguments: [
        ("https://e.io/?p={{sun.picc}}&u={{sun.uid}}&m={{sun.mac}}", "cannot be in one template with {{sun.picc}}"),
        ("https://e.io/?p={{sun.picc}}", "needs {{sun.mac}}"),
        ("https://e.io/?m={{sun.mac}}", "for its session key"),
        ("https://e.io/{{sun.uid}}/{{sun.uid}}", "appears twice"),
        ("https://e.io/{{sun.uid | lower}}", "takes no filters"),
        ("https://e.io/{{sun.foo}}", "unknown SUN token '{{sun.foo}}'"),
        ("https://e.io/{{uidMirror}}", "an NTAG 424 DNA mirrors with {{sun.uid}}"),
        // The MAC before the PICC data: the chip refuses SDMMACInputOffset > SDMMACOffset (91 9E).
        ("https://e.io/?m={{sun.mac}}&p={{sun.picc}}", "would refuse these SUN offsets: SDMMACInputOffset"),
    ])
    func layoutsTheChipOrTheLineCannotHonourAreRefused(uri: String, expected: String) {
        let text = Self.problem(uri: uri)
        #expect(text.contains(expected), "\(text)")
        #expect(text.contains("template.json:1:"), "\(text)")
    }

    @Test func sunTokensNeedAnNTAG424JobWithItsSection() {
        let type2 = Self.problem(uri: "https://e.io/{{sun.uid}}", tag: "ntag215", extra: "")
        #expect(type2.contains("needs an NTAG 424 DNA job"), "\(type2)")
        let plain = Self.problem(uri: "https://e.io/{{sun.uid}}", lock: false, extra: "")
        #expect(plain.contains("with an \"ntag424\" section"), "\(plain)")
    }
}
