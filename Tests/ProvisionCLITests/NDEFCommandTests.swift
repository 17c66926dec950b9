import Foundation
import NDEF
import ProvisionCLI
import TestSupport
import Testing

/// `provision ndef` end to end through the built binary.
@Suite struct NDEFCommandTests {
    static let json = """
        {"records": [
          {"type": "uri", "uri": "https://example.com", "id": "a"},
          {"type": "text", "text": "Grüße", "lang": "de", "encoding": "utf16"},
          {"type": "smartposter", "uri": "tel:+123", "titles": [{"text": "Call", "lang": "en"}], "action": "exec"},
          {"type": "mime", "mediaType": "application/json", "text": "{}"},
          {"type": "external", "name": "example.com:auth", "hex": "0102"},
          {"type": "unknown", "hex": "FF"},
          {"type": "empty"}
        ]}
        """

    @Test func encodePrintsUpperCaseHex() throws {
        let outcome = try ProvisionProcess.run(
            ["ndef", "encode", "-"], stdin: Data(#"[{"type":"uri","uri":"https://example.com"}]"#.utf8))
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "D1 01 0C 55 04 65 78 61 6D 70 6C 65 2E 63 6F 6D\n")
        #expect(outcome.stderr.isEmpty)
    }

    @Test func encodeWrapsInATLVAndWritesBinary() throws {
        let input = Data(#"[{"type":"empty"}]"#.utf8)
        #expect(try ProvisionProcess.run(["ndef", "encode", "--tlv"], stdin: input).stdout == "03 03 D0 00 00 FE\n")
        #expect(
            try rawOutput(["ndef", "encode", "--binary", "--tlv"], stdin: input) == [
                0x03, 0x03, 0xD0, 0x00, 0x00, 0xFE,
            ])
        let long = Data(#"[{"type":"unknown","hex":"\#(String(repeating: "AB", count: 300))"}]"#.utf8)
        let bytes = try rawOutput(["ndef", "encode", "--binary"], stdin: long)
        #expect(Array(bytes.prefix(6)) == [0xC5, 0x00, 0x00, 0x00, 0x01, 0x2C])
        #expect(bytes.count == 306)
    }

    /// Runs the built binary and returns stdout as raw bytes (`ProvisionProcess` decodes it as text).
    private func rawOutput(_ arguments: [String], stdin: Data) throws -> [UInt8] {
        let directory = try Fixtures.temporaryDirectory("ndef-cli")
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in")
        let output = directory.appendingPathComponent("out")
        try stdin.write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\"$0\" \"$@\" < in > out", ProvisionProcess.executableURL.path] + arguments
        process.currentDirectoryURL = directory
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return Array(try Data(contentsOf: output))
    }

    @Test func fileRoundTripThroughHexAndJSONIsStable() throws {
        let directory = try Fixtures.temporaryDirectory("ndef-cli")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.json.utf8).write(to: directory.appendingPathComponent("in.json"))
        let encoded = try ProvisionProcess.run(["ndef", "encode", "in.json"], directory: directory)
        #expect(encoded.status == 0)
        let message = try NDEFMessage(bytes: try #require(Hex.bytes(encoded.stdout)))
        #expect(message == (try RecordJSON.decode(Data(Self.json.utf8))))

        let decoded = try ProvisionProcess.run(["ndef", "decode", "--json"], stdin: Data(encoded.stdout.utf8))
        #expect(decoded.status == 0)
        #expect(decoded.stdout == String(decoding: RecordJSON.encode(message), as: UTF8.self))
        let again = try ProvisionProcess.run(["ndef", "encode"], stdin: Data(decoded.stdout.utf8))
        #expect(again.stdout == encoded.stdout)
        let twice = try ProvisionProcess.run(["ndef", "decode", "--json"], stdin: Data(again.stdout.utf8))
        #expect(twice.stdout == decoded.stdout)
    }

    @Test(arguments: [
        ("D1 01 0B 54 82 65 6E FE FF 00 E9 D8 3D DE 00", "be-bom"),
        ("D1 01 0B 54 82 65 6E FF FE E9 00 3D D8 00 DE", "le-bom"),
        ("D1 01 09 54 82 65 6E 00 E9 D8 3D DE 00", "be"),
    ])
    func decodeShowsUTF16TextInEveryByteOrderAndEncodeGivesTheBytesBack(hex: String, byteOrder: String) throws {
        let decoded = try ProvisionProcess.run(["ndef", "decode", "--json"], stdin: Data(hex.utf8))
        #expect(decoded.status == 0, "\(decoded.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(decoded.stdout.utf8)) as? [String: Any])
        let records = try #require(document["records"] as? [[String: String]])
        #expect(
            records == [["type": "text", "text": "é😀", "lang": "en", "encoding": "utf16", "byteOrder": byteOrder]])
        let encoded = try ProvisionProcess.run(["ndef", "encode"], stdin: Data(decoded.stdout.utf8))
        #expect(encoded.status == 0, "\(encoded.stderr)")
        #expect(encoded.stdout == hex + "\n")
        let line = try ProvisionProcess.run(["ndef", "decode"], stdin: Data(hex.utf8))
        #expect(line.stdout.contains(#"text "é😀" (en, utf16 \#(byteOrder))"#), "\(line.stdout)")
    }

    @Test func binaryTLVAreaDecodes() throws {
        let directory = try Fixtures.temporaryDirectory("ndef-cli")
        defer { try? FileManager.default.removeItem(at: directory) }
        let area: [UInt8] = [0x01, 0x03, 0xA0, 0x0C, 0x34, 0x03, 0x06, 0xD1, 0x01, 0x02, 0x55, 0x04, 0x61, 0xFE, 0x00]
        try Data(area).write(to: directory.appendingPathComponent("dump.bin"))
        let outcome = try ProvisionProcess.run(
            ["ndef", "decode", "dump.bin", "--binary", "--tlv"], directory: directory)
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "record 0: nfcWellKnown (1), type \"U\", no id, URI \"https://a\", 2-byte payload\n")
    }

    @Test func decodePrintsOneLinePerRecord() throws {
        let hex = "0x99 0x01 0x02 0x01 0x55 0x31 0x03 0x61\n 11 01 03 54 02 65 6E 52 03 01 61 2F 62 7A"
        let outcome = try ProvisionProcess.run(["ndef", "decode"], stdin: Data(hex.utf8))
        #expect(outcome.status == 0)
        #expect(
            outcome.stdout == """
                record 0: nfcWellKnown (1), type "U", id "1", URI "http://a", 2-byte payload
                record 1: nfcWellKnown (1), type "T", no id, text "" (en, utf8), 3-byte payload
                record 2: media (2), type "a/b", no id, text "z", 1-byte payload

                """)
    }

    @Test(arguments: [
        (
            ["ndef", "decode"], "D1 01 05 55 04 61",
            "error: byte 4: truncatedPayload: the PAYLOAD needs 5 bytes, 2 remain\n"
        ),
        (["ndef", "decode"], "D1 01 01 55 30", "error: byte 4: invalidURIPrefix: URI prefix code 30 is above 23\n"),
        (["ndef", "decode"], "D1 0G", "error: character 5: 'G' is not a hex digit\n"),
        (["ndef", "decode"], "", "error: byte 0: emptyBuffer: no bytes to decode\n"),
        (
            ["ndef", "decode", "--tlv"], "01 03 A0 0C 34 03 03 D1 01 00 FE",
            "error: byte 10: truncatedType: the TYPE needs 1 bytes, 0 remain\n"
        ),
        (
            ["ndef", "decode", "--tlv"], "00 FE",
            "error: byte 1: terminatorBeforeNDEF: a Terminator TLV comes before the NDEF TLV\n"
        ),
        (
            ["ndef", "encode"], #"{"records": [{"type":"uri","uri":"a"},{"type":"uri","uri":"b"},{"type":"uri"}]}"#,
            "error: records[2].uri: missing\n"
        ),
        (["ndef", "encode"], "{", "error: not valid JSON at line 1, column 2: unclosed object\n"),
        (["ndef", "decode", "--tlv"], "01 03 A0 0C 34 03 00 FE", "error: byte 6: the NDEF TLV is empty"),
    ])
    func badInputExitsWithDataError(arguments: [String], input: String, error: String) throws {
        let outcome = try ProvisionProcess.run(arguments, stdin: Data(input.utf8))
        #expect(outcome.status == 65)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.hasPrefix(error))
    }

    @Test func missingFileExitsWithNoInput() throws {
        let outcome = try ProvisionProcess.run(["ndef", "decode", "/nonexistent/message.hex"])
        #expect(outcome.status == 66)
        #expect(outcome.stderr == "error: cannot read '/nonexistent/message.hex': no such file\n")
        #expect(try ProvisionProcess.run(["ndef", "encode", "/nonexistent/x.json"]).status == 66)
    }

    @Test(arguments: [["ndef"], ["ndef", "frobnicate"], ["ndef", "encode", "--json"], ["ndef", "decode", "a", "b"]])
    func usageErrorsExit64(arguments: [String]) throws {
        let outcome = try ProvisionProcess.run(arguments)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.hasPrefix("error: "))
    }

    @Test func helpShowsUsageAndExamples() async {
        let context = CommandContext.buffered()
        #expect(await ProvisionCLI.run(["ndef", "--help"], context: context) == 0)
        #expect(context.out.text.contains("provision ndef encode [FILE|-] [--binary] [--tlv]"))
        #expect(context.out.text.contains("Examples:"))
    }

    @Test func inProcessRunReadsStandardInput() async {
        let context = CommandContext.buffered(standardInput: Data("D0 00 00".utf8))
        #expect(await ProvisionCLI.run(["ndef", "decode", "--json"], context: context) == 0)
        #expect(context.out.text == "{\n  \"records\": [\n    {\n      \"type\": \"empty\"\n    }\n  ]\n}\n")
    }
}
