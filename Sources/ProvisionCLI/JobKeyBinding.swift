import Ledger
import NFCTags
import Provisioning

/// Binds a job to its keys (issue 42 item 5): `run` records each loaded key id's fingerprint when the job starts,
/// and every later `run`, `audit` and `verify-url` of the job refuses a key id loaded with another fingerprint
/// (65), before any tag is touched or any ledger row changes. File, environment and token keys alike: a
/// fingerprint is computed where the key lives, so the same key from a file, a variable or a token passes.
enum JobKeyBinding {
    /// `run`: records the bindings the job lacks (a first start, or a job started before bindings existed) and
    /// refuses a key whose fingerprint differs from the recorded one; a refusal records nothing. A dropped server
    /// connection pauses the step and runs it again (`outage`; the step is one transaction).
    ///
    /// - Throws: `CLIError` 65 naming each key id and both fingerprints; the ledger's exit codes.
    static func bind(_ job: JobContext, in ledger: any LedgerStore, outage: OutageRetry) async throws(CLIError) {
        let keys = fingerprints(Array(job.keys.values))
        let conflicts = try await outage.runForCommand("start-up", on: ledger) {
            try await ledger.bindKeys(job: job.manifest.job, keys: keys)
        }
        try refuse(conflicts, job: job.manifest.job)
    }

    /// `audit`, `verify-url`: refuses a loaded key whose fingerprint differs from the one the job recorded;
    /// records nothing (a job without bindings is not checked).
    ///
    /// - Throws: `CLIError` 65 naming each key id and both fingerprints; the ledger's exit codes.
    static func check(_ keys: [SecretKey], job: String, in ledger: any LedgerStore) async throws(CLIError) {
        let conflicts: [KeyBindingConflict]
        do {
            conflicts = try await ledger.keyBindingConflicts(job: job, keys: fingerprints(keys))
        } catch {
            throw JobContext.cliError(error)
        }
        try refuse(conflicts, job: job)
    }

    /// Key id → fingerprint of `keys` (never their bytes).
    static func fingerprints(_ keys: [SecretKey]) -> [String: String] {
        Dictionary(keys.map { ($0.id, $0.fingerprint) }, uniquingKeysWith: { first, _ in first })
    }

    /// Throws the refusal of `conflicts`, if any.
    static func refuse(_ conflicts: [KeyBindingConflict], job: String) throws(CLIError) {
        guard !conflicts.isEmpty else { return }
        let listed = conflicts.map { "key '\($0.keyID)' is \($0.presented), but the job recorded \($0.recorded)" }
        throw CLIError.data(
            "job \(job) was started under other keys: " + listed.joined(separator: "; ")
                + ". A job is made under one key per id: use the key it started with (same fingerprint, from a file, "
                + "the environment or a token), or a new job name for the new key. Nothing was touched")
    }
}
