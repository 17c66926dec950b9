import Foundation
import JSONReader
import NDEF
import Provisioning
import Testing

private func template(_ text: String, serial: SerialNumbering = SerialNumbering()) throws(JobInputError) -> Template {
    try Template(parsing: Array(text.utf8), file: "t.json", job: "line-7", serial: serial)
}

/// Renders one string value `"{{…}}"` for a row and returns the decoded string.
private func render(
    _ value: String, fields: [String: String] = [:], row: Int = 1, late: LateBound? = nil,
    serial: SerialNumbering = SerialNumbering()
) throws -> String {
    let body = try template("{\"v\": \"\(value)\"}", serial: serial)
    let json = try body.renderRecordJSON(row: JobRow(row: row, line: 1, fields: fields), late: late)
    let node = try JSONScanner.parse(json)
    return try #require(node["v"]?.string)
}

private let tag = LateBound(
    uid: [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6], timestamp: Date(timeIntervalSince1970: 1_764_691_200))

@Test func builtInsRender() throws {
    let serial = SerialNumbering(start: 100, step: 10, width: 5, prefix: "B-")
    #expect(try render("{{serial}}", row: 3, serial: serial) == "B-00120")
    #expect(try render("{{row}}", row: 42) == "42")
    #expect(try render("{{job}}") == "line-7")
    #expect(try render("{{uid}}", late: tag) == "04A1B2C3D4E5F6")
    #expect(try render("{{timestamp}}", late: tag) == "2025-12-02T16:00:00Z")
    #expect(try render("{{ sku }}/{{name}}", fields: ["sku": "A-1", "name": "Bolt"]) == "A-1/Bolt")
}

@Test func filtersRender() throws {
    let fields = ["v": "Zoë & Co/1 ~x", "n": "7", "empty": ""]
    #expect(try render("{{v|upper}}", fields: fields) == "ZOË & CO/1 ~X")
    #expect(try render("{{v|lower}}", fields: fields) == "zoë & co/1 ~x")
    #expect(try render("{{v|urlencode}}", fields: fields) == "Zo%C3%AB%20%26%20Co%2F1%20~x")
    #expect(try render("{{n|pad:3}}", fields: fields) == "007")
    #expect(try render("{{v|pad:2}}", fields: fields) == "Zoë & Co/1 ~x")
    #expect(try render("{{n|hex}}", fields: fields) == "37")
    #expect(try render("{{v|hex}}", fields: ["v": "é"]) == "C3A9")
    #expect(try render("{{empty|default:none}}", fields: fields) == "none")
    #expect(try render("{{n|default:none}}", fields: fields) == "7")
    #expect(try render("{{missing|default:a b:c}}", fields: fields) == "a b:c")
    #expect(try render("{{n | pad:4 | hex}}", fields: fields) == "30303037")
    #expect(try render("{{uid | lower | urlencode}}", late: tag) == "04a1b2c3d4e5f6")
    #expect(try render("{{timestamp|urlencode}}", late: tag) == "2025-12-02T16%3A00%3A00Z")
}

@Test func valuesAreEscapedIntoTheRecordJSON() throws {
    let text = "say \"hi\"\\\n\t\u{1}"
    #expect(try render("<{{v}}>", fields: ["v": text]) == "<\(text)>")
}

@Test func lateBoundValuesAreSizedAtTheirMaximum() throws {
    #expect(LateBound.sizing.uidText == "04FFFFFFFFFFFF")
    #expect(LateBound.sizing.timestampText == "9999-12-31T23:59:59Z")
    let body = try template(#"{"u": "{{uid}}", "t": "{{timestamp|urlencode}}", "h": "{{uid|hex}}"}"#)
    #expect(body.hasLateBoundValues)
    let row = JobRow(row: 1, line: 1, fields: [:])
    let sized = try body.renderRecordJSON(row: row, late: nil)
    for uid in [[0x04, 0, 0, 0, 0, 0, 0], [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]] as [[UInt8]] {
        for seconds in [0.0, 1_764_691_200, 4_102_444_799] {
            let real = try body.renderRecordJSON(
                row: row, late: LateBound(uid: uid, timestamp: Date(timeIntervalSince1970: seconds)))
            #expect(real.count == sized.count)
        }
    }
}

@Test func placeholdersAreListedWithPositions() throws {
    let body = try template("{\n  \"a\": \"x{{sku|upper}}y\",\n  \"b\": [\"\\u00e9{{serial}}\"]\n}")
    #expect(body.placeholders.map(\.name) == ["sku", "serial"])
    #expect(
        body.placeholders.map(\.position) == [TextPosition(line: 2, column: 10), TextPosition(line: 3, column: 16)])
    #expect(body.placeholders[0].filters == [.upper])
    #expect(body.placeholders[1].source == .serial)
}

@Test func unknownNamesAgainstTheHeaderAreErrors() throws {
    let body = try template(#"{"a": "{{sku}} {{nmae}}"}"#)
    do {
        try body.check(columns: ["sku", "name"], dataFile: "rows.csv")
        Issue.record("no error")
    } catch {
        #expect(
            error.description
                == "t.json:1:16: unknown name 'nmae' (columns of rows.csv: sku, name; "
                + "built-ins: serial, row, job, uid, timestamp)"
        )
    }
    try template(#"{"a": "{{sku}} {{serial}} {{uid}}"}"#).check(columns: ["sku"], dataFile: "rows.csv")
}

@Test func missingFieldForAJSONRowIsARowError() throws {
    let body = try template(#"{"a": "{{sku}}"}"#)
    do {
        _ = try body.renderRecordJSON(row: JobRow(row: 4, line: 9, fields: [:]), late: nil)
        Issue.record("no error")
    } catch {
        #expect(error.description == "t.json:1:8: row 4: no field 'sku' in this row")
        #expect(error.code == .renderFailed)
    }
}

@Test(arguments: [
    (#"{"a": "{{x"}"#, "t.json:1:8: unclosed '{{' (no matching '}}')"),
    (#"{"a": "{{}}"}"#, "t.json:1:8: empty placeholder '{{}}'"),
    (
        #"{"a": "{{x|bold}}"}"#,
        "t.json:1:12: unknown filter 'bold' (known: upper, lower, urlencode, pad:N, hex, default:TEXT)"
    ),
    (#"{"a": "{{x|pad:0}}"}"#, "t.json:1:12: pad needs a width 1 to 64, found '0'"),
    (#"{"a": "{{x|default}}"}"#, "t.json:1:12: filter 'default' needs an argument ('default:…')"),
    (#"{"a": "{{sha:k1:uid}}"}"#, "t.json:1:10: unknown function 'sha' in '{{sha:k1:uid}}'"),
    (#"{"a": "ok", "a": "again"}"#, "t.json:1:13: duplicate key 'a'"),
])
func templateErrorsNameLineAndColumn(_ text: String, _ message: String) {
    do {
        _ = try template(text)
        Issue.record("no error")
    } catch {
        #expect(error.description == message)
    }
}

@Test func recordPathsMapBackToTemplatePositions() throws {
    let body = try template(
        "{\n \"records\": [\n  {\"type\": \"uri\"},\n  {\"type\": \"text\", \"text\": \"x\"}\n ]\n}")
    #expect(body.position(ofPath: "records[1].text") == TextPosition(line: 4, column: 28))
    #expect(body.position(ofPath: "records[0]") == TextPosition(line: 3, column: 3))
    let bare = try template("[\n {\"type\": \"uri\", \"uri\": \"x\"}\n]")
    #expect(bare.position(ofPath: "records[0].uri") == TextPosition(line: 2, column: 25))
    #expect(bare.position(ofPath: "[0].uri") == TextPosition(line: 2, column: 25))
}

@Test func filtersApplyDirectly() {
    #expect(TemplateFilter.urlencode.apply("AZaz09-._~") == "AZaz09-._~")
    #expect(TemplateFilter.urlencode.apply("?#[]@!$'()*+,;=") == "%3F%23%5B%5D%40%21%24%27%28%29%2A%2B%2C%3B%3D")
    #expect(TemplateFilter.pad(5).apply("") == "00000")
    #expect(TemplateFilter.defaultValue("d").apply("") == "d")
}

@Test func renderProducesTheNDEFMessageForATag() throws {
    let body = try template(
        #"{"records": [{"type": "uri", "uri": "https://example.com/p/{{sku}}/{{serial|pad:4}}?u={{uid}}"},"#
            + #" {"type": "text", "text": "{{name}}", "lang": "en"}]}"#)
    let row = JobRow(row: 3, line: 4, fields: ["sku": "A-1", "name": "Bolt"])
    let message = try body.render(row: row, late: tag)
    #expect(message.records.count == 2)
    #expect(
        message.records[0].wellKnownTypeURIPayload()?.absoluteString
            == "https://example.com/p/A-1/0003?u=04A1B2C3D4E5F6")
    #expect(message.records[1].wellKnownTypeTextPayload().0 == "Bolt")
    // 04 = "https://", then the rest of the URI (NFC Forum URI RTD prefix code).
    #expect(message.records[0].payload == [0x04] + Array("example.com/p/A-1/0003?u=04A1B2C3D4E5F6".utf8))
    let sizes = try body.encodedSizes(row: row, late: nil)
    #expect(sizes.message == message.bytes.count)
    #expect(sizes.tlv == message.bytes.count + 3)
}

@Test func codecErrorsFromRowValuesNameTheRowAndTemplatePosition() throws {
    let body = try template(
        "{\"records\": [\n  {\"type\": \"external\", \"name\": \"example.com:x\", \"hex\": \"{{v}}\"}\n]}")
    #expect(body.structuralProblem() == nil)
    do {
        _ = try body.render(row: JobRow(row: 9, line: 10, fields: ["v": "zz"]), late: nil)
        Issue.record("no error")
    } catch {
        #expect(error.description == "t.json:2:56: row 9: records[0].hex: not hex")
    }
}

@Test func structuralProblemsAreFoundOnceWithoutRows() throws {
    let missing = try template("{\"records\": [\n  {\"type\": \"uri\"}\n]}")
    #expect(missing.structuralProblem()?.description == "t.json:2:3: records[0].uri: missing")
    let fine = try template(#"{"records": [{"type": "uri", "uri": "https://x.example/{{v}}"}]}"#)
    #expect(fine.structuralProblem() == nil)
}
