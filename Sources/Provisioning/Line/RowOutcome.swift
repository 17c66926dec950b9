import Foundation
import Ledger
import NFCTags

/// Called with a row's outcome at one reader once the ledger holds it durably, never before (`OutcomeDelivery`).
///
/// It runs on the thread that made the outcome durable (a ledger's queue, or the worker's), one outcome at a
/// time per worker and in the order the worker recorded them: keep it short and hand long work off.
public typealias RowOutcomeObserver = @Sendable (RowOutcome) -> Void

/// What a reader did with a tag's row, as the ledger records it: what the run display, the run's statistics and
/// any later subscriber (an outbox) learn through `RowOutcomeObserver`. It never carries key bytes.
public struct RowOutcome: Sendable {
    /// What became of the row (of the tag, for a duplicate).
    public enum Resolution: String, Sendable, Hashable {
        /// The row was committed done with this tag.
        case done
        /// The last try failed; the row is pending again for the next tag (nothing was written, or `reuse`).
        case returnedToPending
        /// The last try failed after a write and the job burns such rows (`onFailure: burn`).
        case burned
        /// The last try failed and the claim stays with the UID: the tag left mid-write, or holds some of the
        /// row's keys; it finishes the row when presented again.
        case held
        /// The UID was provisioned before: the skip is recorded, no row was touched.
        case duplicate
    }

    /// The job.
    public var job: String
    /// The job's row (`nil` for a duplicate, which touches none: `previous` names the row it was).
    public var row: Int?
    /// The tag's UID.
    public var uid: [UInt8]
    /// The reader as the ledger records it (`station/reader` on a line of stations).
    public var reader: String
    /// What became of the row.
    public var resolution: Resolution
    /// Whether the UID already held the row's claim when it was presented (after a tear, a crash or an outage).
    public var resumed = false
    /// Tries of the tag at this presentation (0 when none ran: a duplicate, a done commit found after an outage).
    public var tries = 0
    /// The last try's failure (class, phase, detail), `nil` for a done tag.
    public var failure: CycleFailure?
    /// The last attempt as recorded (durations in µs, exchanges, modelled airtime, start and end), when one was.
    public var attempt: AttemptRecord?
    /// The chip, when the tag was identified.
    public var chip: TagChip?
    /// The family that handled the tag (`type2`), when one did.
    public var family: String?
    /// The key the job programs with: its id and fingerprint, never its bytes.
    public var keyID: String?, keyFingerprint: String?
    /// The row a duplicate was provisioned as.
    public var previous: RowReference?
    /// A done tag's ledger time in µs: its claim, the waits for the claim's sync, the key journal and the commit.
    public var ledgerMicroseconds: Int?

    /// The failure's class, if the tag failed.
    public var failureClass: FailureClass? { failure?.failureClass }

    init(job: String, row: Int?, uid: [UInt8], reader: String, resolution: Resolution) {
        self.job = job
        self.row = row
        self.uid = uid
        self.reader = reader
        self.resolution = resolution
    }
}
