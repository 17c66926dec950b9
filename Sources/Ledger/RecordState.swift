/// Where a row of a job stands; the raw value is what the `records.state` column holds.
///
/// ```
/// pending ──claim──▶ claimed ──markDone──▶ done
///    ▲                 │  │
///    └─returnToPending─┘  └─markFailed──▶ failed | burned
///    └──────────── release (operator, recorded) ◀── claimed | failed | burned
/// ```
public enum RecordState: String, Sendable, CaseIterable, Codable {
    /// Not yet given to any tag.
    case pending
    /// Given to one UID; unresolved until done, failed, burned, returned or released.
    case claimed
    /// Written, verified (and locked if configured) on the recorded UID.
    case done
    /// Given up after retries; the row is not reissued.
    case failed
    /// Given up and its tag discarded (`onFailure` = burn); the row is not reissued.
    case burned
}
