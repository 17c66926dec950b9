import Ledger
import NFCTags
import Provisioning

/// How `verify-url` and `serve` set up a job's verification, one way for both: for a keyed job the master key and the
/// verifier the manifest and template give (`TapJobVerifier(manifest:template:master:)`), for an NTAG21x job the
/// `MACMirrorVerifier` over its loaded keys; then the ledger and its key binding.
extension VerifyURLCommand {
    /// A keyed job's master key: from `--key MASTER=…` when given (`keys`), else from the manifest's `keys`
    /// (environment, owner-only file or token, as every command loads it).
    ///
    /// - Throws: `CLIError` 64 for a `--key` naming another id, 65 for a master the manifest does not define, and
    ///   `KeyLoader`'s 66/77/65.
    static func masterKey(
        _ id: String, keys: [KeyArgument], job: JobContext, context: CommandContext, allowExtractable: Bool
    ) throws(CLIError) -> SecretKey {
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
                custody: context.keyCustody(allowExtractable: allowExtractable))
        } catch {
            throw JobContext.cliError(error)
        }
    }

    /// The job's verifier, its ledger (opened as `station`; no ledger yet is 66) and its public fields, after
    /// checking that `master` is the key the job was made under (`JobKeyBinding`).
    ///
    /// - Throws: `CLIError` 65 for a template the URL layout cannot be read from or a master key that is not
    ///   AES-128, and the ledger's exit codes.
    static func tapServiceJob(
        _ job: JobContext, master: SecretKey, station: String, insecureLedger: Bool, context: CommandContext
    ) async throws(CLIError) -> TapServiceJob {
        let verifier: TapJobVerifier
        do {
            verifier = try TapJobVerifier(manifest: job.manifest, template: job.template, master: master)
        } catch {
            if case .layout(let problem) = error { throw ErrorTable.cliError(problem, message: problem.description) }
            throw CLIError.data(error.message)
        }
        let ledger = try await JobContext.openLedger(
            job.manifest.ledger, create: false, station: station, notes: context.output.diagnostics,
            tls: LedgerTLS(allowInsecure: insecureLedger, job: job.manifest.job))
        try await JobKeyBinding.check([master], job: job.manifest.job, in: ledger)
        return TapServiceJob(verifier: verifier, ledger: ledger, publicFields: [])
    }

    /// An NTAG21x job's verifier over its loaded keys (`MACMirrorVerifier`: the MAC in the URL, its mirrors and
    /// `counterWindow`), its ledger (opened as `station`; no ledger yet is 66) and no public fields, after checking
    /// that the keys are the ones the job was made under (`JobKeyBinding`).
    ///
    /// - Throws: `CLIError` 65 for a template without a MAC or one naming no UID, 66 for a MAC key not loaded, and
    ///   the ledger's exit codes.
    static func macMirrorServiceJob(
        _ job: JobContext, counterWindow: Int, revealsUnknownUIDs: Bool, station: String, insecureLedger: Bool,
        context: CommandContext
    ) async throws(CLIError) -> TapServiceJob {
        let verifier: MACMirrorVerifier
        do {
            verifier = try MACMirrorVerifier(
                job: job.manifest.job, template: job.template, keys: job.keys, counterWindow: counterWindow,
                revealsUnknownUIDs: revealsUnknownUIDs)
        } catch {
            if case .keyNotLoaded = error { throw CLIError(.noInput, error.message) }
            throw CLIError.data(error.message)
        }
        let ledger = try await JobContext.openLedger(
            job.manifest.ledger, create: false, station: station, notes: context.output.diagnostics,
            tls: LedgerTLS(allowInsecure: insecureLedger, job: job.manifest.job))
        try await JobKeyBinding.check(Array(job.keys.values), job: job.manifest.job, in: ledger)
        return TapServiceJob(verifier: verifier, ledger: ledger, publicFields: [])
    }
}
