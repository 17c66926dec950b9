extension PostgresLedger {
    /// The event kind of a connection made without a verified TLS server (`--insecure-ledger`).
    public static let insecureConnectionEvent = "insecure-connection"

    /// Records on `job` that this station reached the server without a verified TLS connection, so an audit
    /// of the job shows it: the event's actor is the station, `detail` says how the connection travelled.
    public func recordInsecureConnection(job: String, detail: String) async throws(LedgerError) {
        try await write { () throws(LedgerError) in
            try insertEvent(job: job, row: nil, kind: Self.insecureConnectionEvent, actor: station, detail: detail)
        }
    }
}
