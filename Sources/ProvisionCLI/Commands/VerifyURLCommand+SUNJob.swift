import Foundation
import Ledger
import NDEF
import NFCTags
import Provisioning
import Reports

/// `verify-url`'s keyed job mode: a manifest with its chip's keyed section, its master key and its ledger; the tap
/// carries the chip's dynamic message.
extension VerifyURLCommand {
    /// Checks the URL's dynamic message with the job's tag keys, looks the UID up in the job's ledger and records a
    /// valid counter (`TapJobVerifier`); exits 0 for `valid`, 1 for `invalid`, `unknown` and `replayed`.
    ///
    /// - Throws: `CLIError` 64 for NTAG21x-only options, 65 for a template the URL layout cannot be read from or
    ///   a master key that is not AES-128, 66/77/65 for key failures (`KeyLoader`), and the ledger's exit codes
    ///   (66 no ledger yet). `run` has refused a URL over `TapURL.maximumLength` before loading the job.
    func runKeyedJob(_ job: JobContext, context: CommandContext) async throws -> ExitCode {
        let manifest = job.manifest
        guard let keyed = manifest.keyed, let scheme = manifest.dynamicMessage,
            let options = manifest.dynamicMessageOptions
        else { return .failure }
        if counterWindow != nil {
            throw CLIError.usage(
                "--counter-window is for NTAG21x counter mirrors; a \(scheme.name) counter is inside the MAC, so "
                    + "every rise is accepted", option: "counter-window")
        }
        let layout: any TapLayout
        do {
            layout = try job.template.tapLayout(scheme: scheme, options: options)
        } catch {
            throw ErrorTable.cliError(error, message: error.description)
        }
        let master = try masterKey(keyed.options.masterKeyID, job: job, context: context)
        var verifier: TapJobVerifier
        do {
            verifier = try TapJobVerifier(
                job: manifest.job, scheme: scheme, keys: keyed.tagKeys(master: master), layout: layout)
            let render = job.lineJob().render
            verifier.rowURIs = { row, fields, uid in
                try NDEFMessage(bytes: try render(row, fields, uid, Date())).records.compactMap { record in
                    if case .uri(let uri) = try record.content() { uri } else { nil }
                }
            }
        } catch {
            let field = manifest.keyedMasterField ?? "master"
            let chip = manifest.tag.displayName
            throw CLIError.data(
                "the master key '\(master.id)' (\(field)) must be AES-128, 16 bytes, for an \(chip) job")
        }
        let ledger = try await JobContext.openLedger(
            job.manifest.ledger, create: false, station: "verify-url", notes: context.output.diagnostics,
            tls: LedgerTLS(allowInsecure: insecureLedger, job: job.manifest.job))
        try await JobKeyBinding.check([master], job: manifest.job, in: ledger)
        let verdict: TapJobVerdict
        do {
            verdict = try await verifier.verify(url: url, ledger: ledger)
        } catch {
            throw JobContext.cliError(error)
        }
        return try report(verdict, context: context)
    }

    /// The job's master key: from `--key MASTER=…` when given, else from the manifest's `keys` (environment or an
    /// owner-only file, as every command loads it).
    private func masterKey(_ id: String, job: JobContext, context: CommandContext) throws(CLIError) -> SecretKey {
        if let other = keys.first(where: { $0.id != id }) {
            throw CLIError.usage(
                "--key names '\(other.id)'; a keyed job verifies with its master key '\(id)' only",
                option: "key")
        }
        guard let source = keys.last?.source ?? job.manifest.security.keys[id] else {
            throw CLIError.data("the manifest's keys do not define the master key '\(id)'")
        }
        do {
            return try KeyLoader.load(
                id: id, from: source, environment: context.environment, kind: .aes,
                custody: context.keyCustody(allowExtractable: allowExtractableKey))
        } catch {
            throw JobContext.cliError(error)
        }
    }

    /// Prints the verdict: one line `word: detail`, then indented details (text), or the document.
    ///
    /// An `invalid` verdict holds nothing it decrypted (UID, counter, row); `--operator` adds its `explanation`.
    private func report(_ verdict: TapJobVerdict, context: CommandContext) throws(CLIError) -> ExitCode {
        let word = verdict.kind.rawValue
        let uid = verdict.uid.map(Hex.compact)
        let counter = verdict.counter
        let explanation = operatorMode ? verdict.explanation : nil
        let versions = verdict.keyVersions.map { versions in
            DataKeyed(Dictionary(uniqueKeysWithValues: versions.enumerated().map { ("K\($0.offset)", $0.element) }))
        }
        if json {
            try context.output.document(
                Document(
                    verdict: word, valid: verdict.kind == .valid,
                    detail: verdict.detail + (explanation.map { " (operator: \($0))" } ?? ""), uid: uid,
                    counter: counter,
                    row: verdict.row, keyVersions: versions))
        } else {
            context.output.line("\(word): \(verdict.detail)")
            if let versions = verdict.keyVersions {
                let listed = versions.enumerated().map { "K\($0.offset) \(Hex.compact([UInt8(clamping: $0.element)]))" }
                context.output.line("  key versions (the ledger's key journal): " + listed.joined(separator: ", "))
            }
            if verdict.kind == .valid || verdict.kind == .replayed {
                let before = verdict.previousCounter.map { "\($0)" } ?? "none (first verified tap)"
                context.output.line("  highest counter verified before: \(before)")
            }
            if let explanation { context.output.line("  operator: \(explanation)") }
        }
        return verdict.kind == .valid ? .success : .failure
    }
}
