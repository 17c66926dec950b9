import Foundation
import NDEF
import NFCTags
import Provisioning
import Reports

/// `provision validate MANIFEST [--json]`: pre-flight a job without touching a tag or creating a file.
struct ValidateCommand: Command {
    static let name = "validate"
    static let summary = "check a job manifest, its template and every row before a run"
    static let help = """
        Usage: provision validate MANIFEST [--json]

        Parses the manifest, the template and every row; renders and encodes each row's NDEF
        message (uid and timestamp sized at their maximum); checks that it fits the chip and that
        'unique' values do not repeat. Prints the row count, message sizes and capacity headroom,
        or every problem (the first 100, then a count) with its file, line, column and row.
        Creates no ledger and no reports folder. Warns (on stderr) when the job's readers are simulated
        (as by default) and its signature policy refuses every simulated tag: "require" without the
        repository's test signing key in signature.trust.

        Options:
          --json   print a stable, versioned JSON document on stdout (version 2)

        Exit: 0 valid, 65 data errors, 66 a file is missing, 64 usage.

        Example: provision validate jobs/batch.json

        """

    /// The manifest to check.
    var manifest: String
    /// `--json`: print the versioned document (also when the job is invalid or a file is missing).
    var json = false

    static func parse(_ arguments: [String]) throws(CLIError) -> ValidateCommand {
        let args = try Arguments(arguments, flags: ["json"], options: [])
        try args.requirePositionals(1...1, usage: "provision validate MANIFEST [--json]")
        return ValidateCommand(manifest: args.positionals[0], json: args.flag("json"))
    }

    func run(context: CommandContext) async throws -> ExitCode {
        let output = context.output
        let url = context.url(forPath: manifest)
        let summary: PreFlightSummary
        do {
            let loaded = try Manifest.load(from: url, currentDirectory: context.currentDirectory)
            summary = try PreFlight.run(loaded)
            if let warning = Self.simulatorWarning(loaded) { output.diagnostics.line("warning: \(warning)") }
        } catch {
            // validate's own input: its v1 document says what is wrong, not an error document.
            if json { output.document(json: ValidateReport(fatal: error).jsonText()) }
            throw ErrorTable.cliError(error, message: error.description)
        }
        if json {
            output.document(json: ValidateReport(summary).jsonText())
        } else if summary.isValid {
            output.write(Self.text(summary))
        }
        guard summary.isValid else { throw PreFlightOutput.failure(summary, context: context, printProblems: !json) }
        return .success
    }

    /// Why a job cannot pass a single simulated tag, when its readers (default: the simulator) are all
    /// simulated and its signature policy refuses the simulator's tags; else `nil`.
    static func simulatorWarning(_ manifest: Manifest) -> String? {
        guard manifest.readers.allSatisfy({ $0.scheme == "sim" }),
            manifest.security.refusesSimulatedTags(of: manifest.tag)
        else { return nil }
        return "the job's readers are simulated and its signature mode is \"require\" without the repository's "
            + "test signing key in signature.trust: every simulated tag will be refused (signatureInvalid). For a "
            + "rehearsal, add that key to signature.trust or use \"signature\": \"record\""
    }

    /// The human-readable summary (not a stable format; use `--json` for scripts).
    static func text(_ summary: PreFlightSummary) -> String {
        let mean = String(format: "%.1f", summary.messageBytesMean)
        var lines = [
            "job \(summary.job): \(summary.rows) rows valid for \(summary.tag.displayName)",
            "  message size: min \(summary.messageBytesMin), mean \(mean), max \(summary.messageBytesMax) bytes"
                + (summary.tag.holdsNDEFFile
                    ? " (NDEF file up to \(summary.messageBytesMax + 2) bytes with NLEN)"
                    : " (TLV area up to \(summary.tlvBytesMax) bytes)"),
            "  capacity: \(summary.capacity) bytes, headroom \(summary.headroom) bytes at the largest message",
        ]
        if summary.hasLateBoundValues { lines.append("  uid and timestamp sized at their maximum") }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The `--json` document of `provision validate` (docs/json.md, version 2).
struct ValidateReport: Encodable {
    struct Sizes: Encodable {
        var min: Int
        var mean: Double
        var max: Int
    }

    struct Problem: Encodable {
        var code: String
        var file: String
        var line: Int?
        var column: Int?
        var row: Int?
        var message: String
        var text: String
    }

    var version = JSONDocument.version
    var valid: Bool
    var job: String?
    var tag: String?
    var capacity: Int?
    var rows: Int?
    var validRows: Int?
    var messageBytes: Sizes?
    var tlvBytesMax: Int?
    var headroom: Int?
    var problems: [Problem]
    var problemCount: Int

    init(_ summary: PreFlightSummary) {
        valid = summary.isValid
        job = summary.job
        tag = summary.tag.rawValue
        capacity = summary.capacity
        rows = summary.rows
        validRows = summary.validRows
        messageBytes = Sizes(
            min: summary.messageBytesMin, mean: (summary.messageBytesMean * 10).rounded() / 10,
            max: summary.messageBytesMax)
        // The Type 2 TLV area; a Type 4 NDEF file holds NLEN and the message instead.
        tlvBytesMax = summary.tag.holdsNDEFFile ? nil : summary.tlvBytesMax
        headroom = summary.headroom
        problems = summary.problems.map(Self.problem)
        problemCount = summary.problemCount
    }

    init(fatal error: JobInputError) {
        valid = false
        problems = [Self.problem(error)]
        problemCount = 1
    }

    static func problem(_ error: JobInputError) -> Problem {
        Problem(
            code: error.code.description, file: error.file, line: error.position?.line, column: error.position?.column,
            row: error.row, message: error.message, text: error.description)
    }

    /// One line through the one document encoder.
    func jsonText() -> String {
        (try? JSONDocument.text(self, pretty: false)) ?? "{\"version\":\(JSONDocument.version),\"valid\":false}\n"
    }
}

extension TagTarget {
    /// Whether the target's message sits in an NDEF file behind its NLEN (the family's write unit), not in a TLV area.
    fileprivate var holdsNDEFFile: Bool { tagFamily?.writeUnit.holdsNDEFFile ?? false }
}
