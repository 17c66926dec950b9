import Foundation
import NDEF
import NFCTags

/// `provision ndef encode|decode`: the NDEF codec on the command line.
///
/// `encode` turns record JSON into message bytes (upper-case hex, raw with `--binary`, wrapped in a
/// Type 2 NDEF TLV with `--tlv`); `decode` does the reverse and prints one line per record, or record
/// JSON with `--json` (stable output; the one-line text form is for people and may change).
struct NDEFCommand: Command {
    static let name = "ndef"
    static let summary = "encode record JSON to NDEF bytes, or decode NDEF bytes"
    static let help = """
        Usage: provision ndef encode [FILE|-] [--binary] [--tlv]
               provision ndef decode [FILE|-] [--binary] [--tlv] [--json]

        encode  reads record JSON ({"records": [...]} or a bare array) from FILE or standard input
                and prints the NDEF message as upper-case hex.
                --binary  write the raw bytes instead of hex
                --tlv     wrap the message in a Type 2 NDEF TLV (03 LL or 03 FF hi lo) and a
                          Terminator (FE)

        decode  reads an NDEF message as hex (spaces, newlines, 0x prefixes allowed) from FILE or
                standard input and prints one line per record: index, TNF name and number, type,
                ID, a payload summary and the payload size.
                --binary  read raw bytes instead of hex
                --tlv     the input is a Type 2 TLV area: skip NULL, Lock Control, Memory Control
                          and proprietary TLVs up to the NDEF TLV
                --json    print the message as record JSON (stable, sorted keys; feeding it back to
                          encode gives the same bytes)

        Record JSON, one object per record:
          {"type": "uri", "uri": "https://example.com"}
          {"type": "text", "text": "Hello", "lang": "en", "encoding": "utf8"}
          {"type": "text", "text": "Hello", "encoding": "utf16", "byteOrder": "le-bom"}
              (byteOrder of UTF-16 text: "be-bom" = FE FF then big-endian, the default;
               "le-bom" = FF FE then little-endian; "be" = big-endian without a BOM)
          {"type": "smartposter", "uri": "…", "titles": [{"text": "…", "lang": "en"}],
           "action": "exec", "size": 1024, "mediaType": "text/html"}
          {"type": "mime", "mediaType": "application/json", "text": "{}"}     (or "hex", "base64")
          {"type": "absoluteURI", "uri": "urn:example:1"}
          {"type": "external", "name": "example.com:auth", "hex": "0102"}     (or "text")
          {"type": "wellknown", "name": "Hc", "hex": "…"}
          {"type": "unknown", "hex": "…"}
          {"type": "empty"}
          Any record but empty may add "id": "…" (text) or "idHex": "…".

        Examples:
          echo '[{"type":"uri","uri":"https://example.com"}]' | provision ndef encode -
              D1 01 0C 55 04 65 78 61 6D 70 6C 65 2E 63 6F 6D
          provision ndef encode message.json --tlv
          echo 'D1 01 0C 55 04 65 78 61 6D 70 6C 65 2E 63 6F 6D' | provision ndef decode
          provision ndef decode dump.bin --binary --tlv --json

        Exit codes: 0 ok, 64 usage, 65 bad input (the error names the JSON path or byte offset),
        66 missing input file.

        """

    /// What to do.
    enum Action: Sendable, Hashable {
        /// Record JSON in, message bytes out.
        case encode
        /// Message bytes in, one line per record (or record JSON) out.
        case decode
    }

    var action: Action
    /// The input file; `nil` or `-` for standard input.
    var input: String?
    /// `--binary`: raw bytes instead of hex (output of encode, input of decode).
    var binary = false
    /// `--tlv`: a Type 2 NDEF TLV (output of encode, input area of decode).
    var tlv = false
    /// `--json` (decode only): record JSON instead of the one-line form.
    var json = false

    static func parse(_ arguments: [String]) throws(CLIError) -> NDEFCommand {
        guard let verb = arguments.first else {
            throw CLIError.usage("missing subcommand; usage: provision ndef encode|decode [FILE|-]")
        }
        let rest = Array(arguments.dropFirst())
        switch verb {
        case "encode":
            let args = try Arguments(rest, flags: ["binary", "tlv"], options: [])
            try args.requirePositionals(0...1, usage: "provision ndef encode [FILE|-] [--binary] [--tlv]")
            return NDEFCommand(
                action: .encode, input: args.positionals.first, binary: args.flag("binary"), tlv: args.flag("tlv"))
        case "decode":
            let args = try Arguments(rest, flags: ["binary", "tlv", "json"], options: [])
            try args.requirePositionals(0...1, usage: "provision ndef decode [FILE|-] [--binary] [--tlv] [--json]")
            return NDEFCommand(
                action: .decode, input: args.positionals.first, binary: args.flag("binary"), tlv: args.flag("tlv"),
                json: args.flag("json"))
        default:
            throw CLIError.usage("unknown subcommand '\(verb)'; usage: provision ndef encode|decode [FILE|-]")
        }
    }

    func run(context: CommandContext) async throws -> ExitCode {
        let output = context.output
        let data = try Self.readInput(input, context: context)
        switch action {
        case .encode:
            let message = try Self.encode(input: data)
            let bytes = tlv ? NDEFTLV.wrap(message.bytes) : message.bytes
            if binary {
                output.write(bytes: bytes)
            } else {
                output.line(Hex.string(bytes))
            }
        case .decode:
            let bytes = binary ? Array(data) : try Self.parseHex(String(decoding: data, as: UTF8.self))
            let message = try Self.decode(bytes, tlv: tlv)
            if json {
                output.document(json: String(decoding: RecordJSON.encode(message), as: UTF8.self))
            } else {
                for (index, record) in message.records.enumerated() {
                    output.line(record.summaryLine(index: index))
                }
            }
        }
        return .success
    }

    /// Reads a file, or standard input for `-` or no argument.
    static func readInput(_ path: String?, context: CommandContext) throws(CLIError) -> Data {
        guard let path, path != "-" else { return context.readStandardInput() }
        let url = context.url(forPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw CLIError(.noInput, "cannot read '\(path)': no such file", file: path)
        }
        guard !isDirectory.boolValue, let data = try? Data(contentsOf: url) else {
            throw CLIError(.noInput, "cannot read '\(path)'", file: path)
        }
        return data
    }

    static func encode(input: Data) throws(CLIError) -> NDEFMessage {
        do {
            return try RecordJSON.decode(input)
        } catch {
            throw ErrorTable.cliError(error, message: error.description)
        }
    }

    static func decode(_ bytes: [UInt8], tlv: Bool) throws(CLIError) -> NDEFMessage {
        var base = 0
        var message = bytes
        if tlv {
            do {
                let range = try NDEFTLV.locateMessage(inArea: bytes)
                base = range.lowerBound
                message = Array(bytes[range])
            } catch {
                throw ErrorTable.cliError(error, message: "byte \(error.offset): \(error.code): \(error.message)")
            }
        }
        if tlv && message.isEmpty {
            throw CLIError.data("byte \(base - 1): the NDEF TLV is empty (a formatted tag with no message)")
        }
        do {
            return try NDEFMessage(bytes: message)
        } catch {
            throw ErrorTable.cliError(error, message: "byte \(error.offset + base): \(error.code): \(error.message)")
        }
    }

    /// Parses hex text, naming the first offending character (1-based) when it is not hex.
    static func parseHex(_ text: String) throws(CLIError) -> [UInt8] {
        if let bytes = Hex.bytes(text) { return bytes }
        let allowed = Set("0123456789abcdefABCDEFxX \n\r\t:,".unicodeScalars)
        for (index, scalar) in text.unicodeScalars.enumerated() where !allowed.contains(scalar) {
            throw CLIError.data("character \(index + 1): '\(scalar.escaped(asASCII: true))' is not a hex digit")
        }
        throw CLIError.data("input: not hex (an odd number of digits or a misplaced 0x)")
    }
}
