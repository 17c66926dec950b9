import NDEF

/// The stable `provision lock --json` object (`version` 1; keys are only ever added, optional keys are
/// left out when they do not apply).
struct LockReport: Encodable, Sendable {
    /// One page: its number and 4 bytes as hex.
    struct Page: Encodable, Sendable {
        var page: Int
        var data: String
    }

    var version = 1
    var reader: String
    var uid: String
    /// `locked` (written and confirmed by read-back), `failed`, or `notConfirmed` (nothing written).
    var outcome: String
    /// The failure class (`lockFailed`, `tagLost`, …) and message when `outcome` is `failed`.
    var failureClass: String?
    var failureMessage: String?
    /// The acknowledged WRITEs of the lock sequence, in order.
    var writes: [Page]
    /// The lock pages read back after re-activation.
    var readBack: [Page]
    /// Per phase, as `write --json` gives them; the last entry is the total (empty when not confirmed).
    var phases: [PhaseCost]

    /// The report of one `lock` run; `outcome` is `nil` when the operator did not confirm.
    init(reader: String, uid: String, outcome: LockCommand.Outcome?) {
        self.reader = reader
        self.uid = uid
        self.outcome = outcome == nil ? "notConfirmed" : outcome?.failure == nil ? "locked" : "failed"
        failureClass = outcome?.failure?.failureClass
        failureMessage = outcome?.failure?.message
        writes = (outcome?.writes ?? []).map { Page(page: $0.page, data: Hex.string($0.data)) }
        readBack = (outcome?.readBack ?? []).map { Page(page: $0.page, data: Hex.string($0.data)) }
        let phases = outcome?.phases ?? []
        self.phases = phases.isEmpty ? [] : phases + [PhaseCost.sum(phases)]
    }
}
