import Ledger
import NFCTags
import Support
import Synchronization

/// The ledger's key journal (`key_changes`) as the `KeyJournal` of a family's keyed plan, which runs synchronously
/// on a reader's queue: each call waits until the ledger has committed (an intent with a full sync), so no key
/// change leaves before its intent is on disk.
///
/// The wait blocks the calling thread, never the ledger's own executor, so it cannot deadlock with it; do not
/// call it from inside the ledger actor.
public final class LedgerKeyJournal: KeyJournal, Sendable {
    /// The ledger.
    public let ledger: any LedgerStore
    /// The job whose tags the journal entries belong to.
    public let job: String
    /// Time spent waiting for the ledger's synced commits, all calls together.
    private let waited = Mutex(Duration.zero)

    /// Microseconds spent waiting for the ledger so far (a tag's journal time, reported apart from its radio time).
    public var waitedMicroseconds: Double { waited.withLock { Double($0.wholeMicroseconds) } }

    /// A journal for `job` in `ledger`.
    public init(ledger: any LedgerStore, job: String) {
        self.ledger = ledger
        self.job = job
    }

    public func intend(_ change: KeyChange) throws {
        let (ledger, job) = (ledger, job)
        try timed { try waitBlocking { try await ledger.intendKeyChange(job: job, change) } }
    }

    public func resolve(uid: [UInt8], keyNumber: Int, as state: KeyChange.State) throws {
        let (ledger, job) = (ledger, job)
        try timed {
            try waitBlocking { try await ledger.resolveKeyChange(job: job, uid: uid, keyNumber: keyNumber, as: state) }
        }
    }

    private func timed(_ body: () throws -> Void) throws {
        let start = ContinuousClock.now
        defer { waited.withLock { $0 += ContinuousClock.now - start } }
        try body()
    }
}
