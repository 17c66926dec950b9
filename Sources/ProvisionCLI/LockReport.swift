import NDEF
import NFCTags
import Reports

/// The stable `provision lock --json` object (docs/json.md, version 2; optional keys are left out when they
/// do not apply).
struct LockReport: Encodable, Sendable {
    /// One write unit (`unit_kind`): its number and bytes as hex.
    struct Unit: Encodable, Sendable {
        var unit: Int
        var data: String
    }

    var version = JSONDocument.version
    var reader: String
    var uid: String
    /// What `unit` numbers in `writes` and `read_back`: `page` or `block` (`TagWriteUnit.kind`).
    var unitKind: String
    /// `locked` (written and confirmed by read-back), `failed`, or `notConfirmed` (nothing written).
    var outcome: String
    /// The failure class (`lockFailed`, `tagLost`, …) and message when `outcome` is `failed`.
    var failureClass: String?
    var failureMessage: String?
    /// The acknowledged WRITEs of the lock sequence, in order.
    var writes: [Unit]
    /// The lock units read back after re-activation.
    var readBack: [Unit]
    /// Per phase, as `write --json` gives them; the last entry is the total (empty when not confirmed).
    var phases: [PhaseCost]

    /// The report of one `lock` run; `outcome` is `nil` when the operator did not confirm.
    init(reader: String, uid: String, unit: TagWriteUnit, outcome: LockCommand.Outcome?) {
        self.reader = reader
        self.uid = uid
        unitKind = unit.kind
        self.outcome = outcome == nil ? "notConfirmed" : outcome?.failure == nil ? "locked" : "failed"
        failureClass = outcome?.failure?.failureClass
        failureMessage = outcome?.failure?.message
        writes = (outcome?.writes ?? []).map { Unit(unit: $0.page, data: Hex.string($0.data)) }
        readBack = (outcome?.readBack ?? []).map { Unit(unit: $0.page, data: Hex.string($0.data)) }
        let phases = outcome?.phases ?? []
        self.phases = phases.isEmpty ? [] : phases + [PhaseCost.sum(phases)]
    }
}
