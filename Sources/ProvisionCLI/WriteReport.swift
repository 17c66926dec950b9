import Foundation
import NDEF
import NFCTags
import Reports

/// The stable `provision write --json` object (`version` 1; keys are only ever added, optional keys
/// are left out when they do not apply).
struct WriteReport: Codable, Sendable {
    /// One acknowledged WRITE of the lock sequence.
    struct LockWrite: Codable, Sendable {
        var page: Int
        /// The 4 data bytes as hex.
        var data: String
    }

    var version = 1
    var reader: String
    var uid: String
    /// `ntag213` … `mf0ul21`; absent for a generic Type 2 tag.
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
    /// Pages written in order (the length page appears twice), pages left unchanged.
    var writtenPages: [Int]
    var unchangedPages: [Int]
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
        writtenPages = outcome.writtenPages
        unchangedPages = outcome.skippedPages
        lockWrites = outcome.lockWrites.map { LockWrite(page: $0.page, data: Hex.string($0.data)) }
        let phases = outcome.phases
        self.phases = phases + [PhaseCost.sum(phases)]
        self.wallSeconds = wallSeconds.rounded(.seconds)
    }

    /// Pretty-printed JSON with sorted keys.
    func encoded() throws(CLIError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { throw CLIError(.software, "cannot encode the report") }
        return String(decoding: data, as: UTF8.self)
    }
}
