import Foundation
import Ledger
import NDEF
import Provisioning

/// `provision verify-url URL --manifest M`: what a brand's back end does with a tap URL.
struct VerifyURLCommand: Command {
    static let name = "verify-url"
    static let summary = "check a tap URL's MAC against the job's key and ledger"
    static let help = """
        Usage: provision verify-url URL --manifest MANIFEST [--key KEYID=VALUE]

        Takes URL apart along the job's template (the string holding {{mac:…}}), looks the UID up in
        the job's ledger, recomputes the MAC over the template's inputs with the job's key and prints
        one word: valid, invalid (the MAC or the URL's shape does not match: tampered), unknown
        (the UID is not a tag of this job), or replayed (with a counter mirror: the counter is not above
        the last one accepted, which the ledger keeps). Keys come from the manifest's `keys` section, or from
        --key KEYID=VALUE (hex or base64) when the back end holds them elsewhere.

        Exit: 0 valid, 1 invalid, unknown or replayed, 64 usage, 65 bad job, 66 missing file or key,
        77 a key file readable by group or others.

        Example:
          provision verify-url 'https://example.com/t?u=04A1B2C3D4E5F6&m=1F2E3D4C5B6A7988' --manifest jobs/auth.json

        """

    static func run(_ arguments: [String], context: CommandContext) async throws -> ExitCode {
        let args = try Arguments(arguments, flags: [], options: ["manifest", "key"])
        try args.requirePositionals(1...1, usage: "provision verify-url URL --manifest MANIFEST")
        guard let manifestPath = args.value("manifest") else {
            throw CLIError.usage("verify-url needs --manifest MANIFEST")
        }
        var job = try JobContext.load(manifestPath, context: context)
        if args.all("key").isEmpty {
            try job.loadKeys(environment: context.environment)
        } else {
            for text in args.all("key") {
                let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { throw CLIError.usage("--key takes KEYID=VALUE") }
                do {
                    job.keys[parts[0]] = try KeyLoader.load(
                        id: parts[0], from: .environment("--key"), environment: ["--key": parts[1]])
                } catch {
                    throw CLIError(.usage, error.description)
                }
            }
        }
        let url = args.positionals[0]
        guard let tap = job.template.matchTapURL(url) else {
            return verdict("invalid", "the URL does not match the template", context: context)
        }
        guard let uidText = tap.uid, let uid = Hex.bytes(uidText) else {
            throw CLIError.data("the template has no {{uid}} next to its {{mac:…}}; cannot look the tag up")
        }
        guard let key = job.keys[tap.keyID] else {
            throw CLIError(.noInput, "key '\(tap.keyID)' is not loaded")
        }
        let ledger = try await JobContext.openLedger(at: job.manifest.ledgerURL, create: false, notes: context.err)
        let name = job.manifest.job
        let row: JobRow
        do {
            guard let tag = try await ledger.tags(uid: uid).first(where: { $0.job == name }),
                let stored = try await ledger.rowFields(job: name, row: tag.row)
            else {
                return verdict("unknown", "UID \(uidText) is not a tag of job \(name)", context: context)
            }
            row = JobRow(row: tag.row, line: 0, fields: stored)
        } catch {
            throw JobContext.cliError(error)
        }
        var inputs: [String] = []
        for input in tap.inputs {
            if input == "uid" {
                inputs.append(uidText)
            } else if let value = job.template.value(named: input, row: row) {
                inputs.append(value)
            } else {
                throw CLIError.data("the mac input '\(input)' cannot be recomputed after writing")
            }
        }
        guard tap.setting.matches(tap.mac, key: key, job: name, fields: inputs) else {
            return verdict("invalid", "the MAC does not match (tampered URL or another key)", context: context)
        }
        // Every other value in the URL must be what the template renders for this tag's row.
        let late = LateBound(uid: uid, timestamp: Date())
        for (placeholder, value) in tap.others where placeholder.source != .timestamp {
            guard let expected = try? job.template.value(of: placeholder, row: row, late: late), expected == value else {
                return verdict("invalid", "'\(placeholder.name)' does not match the tag's row", context: context)
            }
        }
        if let counter = tap.counter {
            do {
                guard try await ledger.acceptCounter(job: name, uid: uid, counter: counter) else {
                    return verdict("replayed", "counter \(counter) of UID \(uidText) is not above the last one seen", context: context)
                }
            } catch {
                throw JobContext.cliError(error)
            }
        }
        return verdict("valid", "UID \(uidText), row \(row.row) of job \(name)", context: context)
    }

    private static func verdict(_ word: String, _ detail: String, context: CommandContext) -> ExitCode {
        context.out.line("\(word): \(detail)")
        return word == "valid" ? .success : .failure
    }
}
