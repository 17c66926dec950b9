import Ledger

extension LineWorker {
    /// The keyed personalisation of `claim`'s row for the tag `uid`, with what the ledger's key journal holds for
    /// the tag so far (one query; a tag seen before may hold some of the job's keys, or a change whose answer
    /// was lost).
    ///
    /// - Throws: ledger errors; the row's settings or keys failing to derive (pre-flight checked every row, so
    ///   reaching that means the row data changed under the run: the row goes back to pending first).
    func personalisation(
        _ options: NTAG424LineOptions, claim: ClaimedRow, uid: [UInt8], retry: Bool
    ) async throws -> NTAG424Personalisation {
        let history = try await ledger.keyChanges(job: job.name, uid: uid)
        do {
            return try NTAG424Personalisation(
                keys: options.keys, uid: uid, settings: options.settings(claim.renderedRow, claim.fields, uid),
                permanent: options.permanent, journal: LedgerKeyJournal(ledger: ledger, job: job.name),
                history: history, resumed: claim.resumed || retry)
        } catch {
            try await ledger.returnToPending(
                job: job.name, row: claim.row, detail: "NTAG 424 DNA plan failed: \(error)")
            throw error
        }
    }
}
