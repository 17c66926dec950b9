import Foundation
import NDEF
import NFCTags
import Reports

/// The stable `provision write --json` object (docs/json.md, version 2; optional keys are left out when they
/// do not apply). Units are neutral: `unit_kind` says what `written_units`, `unchanged_units` and a lock
/// write's `unit` number (Type 2 and Type 3 pages, Type 4 NDEF file offsets, Type 5 blocks).
struct WriteReport: Codable, Sendable {
    /// One acknowledged WRITE of the lock sequence.
    struct LockWrite: Codable, Sendable {
        var unit: Int
        /// The 4 data bytes as hex.
        var data: String
    }

    var version = JSONDocument.version
    var reader: String
    var uid: String
    /// The chip's id (`TagChip.id`); absent for a generic tag of the family.
    var chip: String?
    /// The message written, as hex, and its length.
    var messageHex: String
    var messageBytes: Int
    /// With --append: the message the tag held before (hex; empty string for an empty tag).
    var originalMessageHex: String?
    /// The tag's NDEF capacity as checked.
    var capacity: Int
    /// `written` (verified, and locked when asked) or `failed`.
    var outcome: String
    /// The failure class (`readOnly`, `capacity`, …) and message when `outcome` is `failed`.
    var failureClass: String?
    var failureMessage: String?
    /// Whether `--lock` was asked and confirmed.
    var locked: Bool
    /// What a unit is: `page`, `offset` or `block` (`TagWriteUnit.kind`).
    var unitKind: String
    /// Units written in order (Type 2: the length page appears twice), units left unchanged.
    var writtenUnits: [Int]
    var unchangedUnits: [Int]
    var lockWrites: [LockWrite]
    /// Per phase: name, exchanges, writes, reactivations, airtimeMicroseconds (absent on real
    /// readers), wallSeconds; the last entry is the total.
    var phases: [PhaseCost]
    /// Wall time from the start of the wait for the tag to its release (1 µs, `JSONPrecision.seconds`).
    var wallSeconds: Double

    /// The report of one `write` run.
    init(
        message: [UInt8], session: TagSession, outcome: WriteCommand.Outcome, lock: Bool, wallSeconds: Double
    ) {
        reader = session.reader.name
        uid = session.uidHex
        chip = outcome.chip?.id ?? session.chip?.id
        messageHex = Hex.string(message)
        messageBytes = message.count
        originalMessageHex = outcome.original.map { Hex.string($0) }
        capacity = outcome.capacity
        self.outcome = outcome.failure == nil ? "written" : "failed"
        failureClass = outcome.failure?.failureClass
        failureMessage = outcome.failure?.message
        locked = lock && outcome.failure == nil
        unitKind = TagWriteUnit.of(session.detected).kind
        writtenUnits = outcome.writtenPages
        unchangedUnits = outcome.skippedPages
        lockWrites = outcome.lockWrites.map { LockWrite(unit: $0.page, data: Hex.string($0.data)) }
        let phases = outcome.phases
        self.phases = phases + [PhaseCost.sum(phases)]
        self.wallSeconds = wallSeconds.rounded(.seconds)
    }

}

extension TagWriteUnit {
    /// The documents' `unit_kind`: `page`, `offset` (a Type 4 NDEF file offset) or `block`.
    var kind: String {
        switch self {
        case .page: "page"
        case .fileOffset: "offset"
        case .block: "block"
        }
    }

    /// The write unit of the family that handles `detected` (a page when no family claims it).
    static func of(_ detected: DetectedTag, families: TagFamilies = .standard) -> TagWriteUnit {
        families.family(for: detected)?.writeUnit ?? .page
    }
}
