/// The one-publisher-a-job rule on a ledger server (docs/events.md, "Publishing").
extension PostgresLedger {
    /// Takes job `job`'s publisher lock without waiting: a session advisory lock
    /// (`pg_try_advisory_lock(hashtextextended('provision publisher ' || job, 0))`) on this connection, or `nil`
    /// when another session holds it. A publisher's login may take it (the functions are `PUBLIC`'s); the lock
    /// goes with the session, so a connection that drops and is reset no longer holds it.
    public func acquirePublisherLock(job: String) async throws(LedgerError) -> PublisherLock? {
        let taken = try await perform { () throws(LedgerError) -> Bool in
            try connection.queryFirst(
                "SELECT pg_try_advisory_lock(hashtextextended('provision publisher ' || ?1, 0))::text AS taken",
                [.text(job)]
            ) {
                $0.text("taken") == "true"
            } ?? false
        }
        guard taken else { return nil }
        return PublisherLock(job: job, holder: "advisory lock on \(location)") { [self] in
            try? await releasePublisherLock(job: job)
        }
    }

    /// Gives job `job`'s publisher lock up.
    private func releasePublisherLock(job: String) async throws(LedgerError) {
        try await perform { () throws(LedgerError) in
            _ = try connection.query(
                "SELECT pg_advisory_unlock(hashtextextended('provision publisher ' || ?1, 0))", [.text(job)]
            ) { _ in 0 }
        }
    }
}
