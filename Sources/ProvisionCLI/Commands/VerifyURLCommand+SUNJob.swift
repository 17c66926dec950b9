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
        guard let keyed = job.manifest.keyed, let scheme = job.manifest.dynamicMessage else { return .failure }
        if counterWindow != nil {
            throw CLIError.usage(
                "--counter-window is for NTAG21x counter mirrors; a \(scheme.name) counter is inside the MAC, so "
                    + "every rise is accepted", option: "counter-window")
        }
        let master = try Self.masterKey(
            keyed.options.masterKeyID, keys: keys, job: job, context: context, allowExtractable: allowExtractableKey)
        let service = TapService(jobs: [
            try await Self.tapServiceJob(
                job, master: master, station: "verify-url", insecureLedger: insecureLedger, context: context)
        ])
        let verdict: TapJobVerdict
        do {
            verdict = try await service.verify(url: url).verdict
        } catch {
            throw JobContext.cliError(error)
        }
        return try report(verdict, context: context)
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
