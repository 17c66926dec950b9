import Ledger
import NFCTags

extension LineWorker {
    /// The keyed plan of `claim`'s row for the tag `uid`, made by the job's scheme with what the ledger's key
    /// journal holds for the tag so far (one query; a tag seen before may hold some of the job's keys, or a change
    /// whose answer was lost).
    ///
    /// - Throws: ledger errors; the row's layout or keys failing to derive (pre-flight checked every row, so
    ///   reaching that means the row data changed under the run: the row goes back to pending first).
    func personalisation(
        _ options: KeyedLineOptions, claim: ClaimedRow, uid: [UInt8], retry: Bool
    ) async throws -> any KeyedPlan {
        let history = try await ledger.keyChanges(job: job.name, uid: uid)
        do {
            let request = KeyedPlanRequest(
                keys: options.keys, uid: uid, layout: try options.layout(claim.renderedRow, claim.fields, uid),
                permanent: options.permanent, journal: LedgerKeyJournal(ledger: ledger, job: job.name),
                history: history, resumed: claim.resumed || retry)
            return try options.job.scheme.plan(request)
        } catch {
            try await ledger.returnToPending(
                job: job.name, row: claim.row, detail: "\(options.job.scheme.displayName) plan failed: \(error)")
            throw error
        }
    }
}
