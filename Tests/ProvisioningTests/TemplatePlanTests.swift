import Foundation
import NDEF
import NFCTags
import Provisioning
import TestSupport
import Testing

private let root = Fixtures.repositoryRoot

private let tag = LateBound(
    uid: [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6], timestamp: Date(timeIntervalSince1970: 1_764_691_200))

private func template(_ text: String) throws -> Template {
    try Template(
        parsing: Array(text.utf8), file: "t.json", job: "line-7",
        serial: SerialNumbering(start: 7, step: 3, width: 5, prefix: "S-"))
}

/// A rendering's result: the message bytes or the error text.
private enum Outcome: Equatable {
    case message([UInt8])
    case failure(String)
}

/// The reference: record JSON text, decoded by the NDEF codec (the only path before the plan existed).
private func reference(_ body: Template, row: JobRow, late: LateBound?) -> Outcome {
    let json: [UInt8]
    do throws(JobInputError) {
        json = try body.renderRecordJSON(row: row, late: late)
    } catch {
        return .failure(error.description)
    }
    do throws(RecordJSONError) {
        return .message(try RecordJSON.decode(Data(json)).bytes)
    } catch {
        let problem = JobInputError(
            .renderFailed, file: body.file, position: body.position(ofPath: error.path), row: row.row,
            error.description)
        return .failure(problem.description)
    }
}

private func rendered(_ body: Template, row: JobRow, late: LateBound?) -> Outcome {
    do throws(JobInputError) {
        return .message(try body.render(row: row, late: late).bytes)
    } catch {
        return .failure(error.description)
    }
}

/// Pieces rows are built from: URI prefixes, quotes, escapes, controls, combining marks, a Kelvin
/// sign (canonically `K`), language codes and encodings, and a value long enough for a 3-byte length.
private let pieces = [
    "", "a", "Bolt", "www.", "https://", "http://www.", "tel:", "urn:epc:", "urn:epc:id:", "ftp://anonymous:anonymous@",
    "é", "e\u{301}", "\u{301}", "\u{212A}", "\"", "\\", "\n", "\r", "\t", "\u{7F}", "\u{0}", "\u{1F}", ":", "/", " ",
    "en", "de-DE", "utf8", "utf16", "UTF8", String(repeating: "x", count: 64), String(repeating: "y", count: 300),
    "日本", "%41",
]

private struct Corpus {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }
    mutating func value() -> String {
        (0..<Int(next() % 4)).map { _ in pieces[Int(next() % UInt64(pieces.count))] }.joined()
    }
}

private let templates = [
    #"{"records": [{"type": "uri", "uri": "https://example.com/p/{{sku}}/{{serial}}?u={{uid}}"}]}"#,
    #"[{"type": "uri", "uri": "{{a}}{{b}}", "id": "{{c}}"}, {"type": "text", "text": "{{b}}", "lang": "{{c}}"}]"#,
    #"{"records": [{"type": "text", "text": "{{a | upper}} {{b | urlencode}}", "encoding": "{{c}}", "#
        + #""id": "r{{row}}"}]}"#,
    #"{"records": [{"type": "uri", "uri": "{{a | default:tel:}}{{b | pad:3}}{{timestamp}}"}, "#
        + #"{"type": "text", "text": "{{c}}"}]}"#,
    #"{"records": [{"type": "uri", "uri": "{{a}}", "extra": "{{b}}"}]}"#,
]

@Test func commonShapesCompileAndOthersTakeTheRecordJSONPath() throws {
    for name in ["product-url.json", "auth-url.json"] {
        let text = try String(contentsOf: root.appendingPathComponent("templates/\(name)"), encoding: .utf8)
        #expect(try template(text).rendersDirectly, "\(name)")
    }
    let badge = try String(contentsOf: root.appendingPathComponent("templates/event-badge.json"), encoding: .utf8)
    #expect(try !template(badge).rendersDirectly)
    #expect(try template(templates[0]).rendersDirectly)
    #expect(try template(templates[1]).rendersDirectly)
    #expect(try !template(templates[4]).rendersDirectly)
    #expect(try !template(#"{"records": [{"type": "{{kind}}", "uri": "x"}]}"#).rendersDirectly)
    #expect(try !template(#"{"records": [{"type": "uri", "uri": "x", "id": 3}]}"#).rendersDirectly)
}

@Test(arguments: templates.indices)
func planRendersExactlyAsTheRecordJSONPath(index: Int) throws {
    let body = try template(templates[index])
    var corpus = Corpus(state: UInt64(index) &+ 0x9E37_79B9)
    var direct = 0
    var long = 0
    for number in 1...3_000 {
        var fields: [String: String] = [:]
        for name in ["a", "b", "c", "sku"] where corpus.next() % 8 != 0 { fields[name] = corpus.value() }
        let row = JobRow(row: number, line: number + 1, fields: fields)
        for late in [nil, tag] {
            let expected = reference(body, row: row, late: late)
            #expect(rendered(body, row: row, late: late) == expected, "row \(number): \(fields)")
            if case .message(let bytes) = expected {
                direct += 1
                // Pre-flight's sizes are computed, not encoded: they match the bytes and NDEFTLV.wrap.
                let sizes = try body.encodedSizes(row: row, late: late)
                #expect(sizes.message == bytes.count)
                #expect(sizes.tlv == NDEFTLV.wrap(bytes).count)
                if bytes.count >= 0xFF { long += 1 }
            }
        }
    }
    // The corpus reaches messages, not only errors (the uncompiled template gives errors only).
    #expect(direct > 50 || !body.rendersDirectly)
    // Messages of 255 bytes and more (3-byte TLV length) are in the corpus too.
    #expect(long > 0 || !body.rendersDirectly)
}

@Test func sampleJobsRenderAsTheRecordJSONPath() throws {
    for job in ["batch.json", "event-badges.json", "auth.json"] {
        let manifest = try Manifest.load(from: root.appendingPathComponent("jobs/\(job)"), currentDirectory: root)
        let body = try Template.load(for: manifest)
        var count = 0
        for case .success(let row) in try manifest.rows() {
            for late in [nil, tag] {
                #expect(
                    rendered(body, row: row, late: late) == reference(body, row: row, late: late),
                    "\(job) row \(row.row)")
            }
            count += 1
        }
        #expect(count > 0, "\(job)")
    }
}

/// Hex vectors pinned for the bench template (one URI record, sized late-bound UID).
@Test func benchTemplatePinnedBytes() throws {
    let body = try template(templates[0])
    let row = JobRow(row: 2, line: 3, fields: ["sku": "SKU-10002"])
    let message = try body.render(row: row, late: nil)
    let bytes = message.bytes
    // Decoding the vector gives the same message and URI back.
    let decoded = try NDEFMessage(bytes: bytes)
    #expect(decoded == message)
    #expect(
        decoded.records[0].wellKnownTypeURIPayload()?.absoluteString
            == "https://example.com/p/SKU-10002/S-00010?u=04FFFFFFFFFFFF")
    #expect(
        Hex.string(bytes)
            == "D1 01 31 55 04 65 78 61 6D 70 6C 65 2E 63 6F 6D 2F 70 2F 53 "
            + "4B 55 2D 31 30 30 30 32 2F 53 2D 30 30 30 31 30 3F 75 3D 30 "
            + "34 46 46 46 46 46 46 46 46 46 46 46 46"
    )
}
