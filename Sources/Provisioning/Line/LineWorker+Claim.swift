import Foundation
import Ledger
import NDEF
import NFCTags
import Support

/// One tag between its claim and its removal: what the line's steps (claim, attempts, commit, removal) hand on.
struct ClaimedTag: Sendable {
    /// The tag as selected.
    let detected: DetectedTag
    /// Its row.
    let claim: ClaimedRow
    /// When the tag was selected (its first attempt's start).
    let started: Date
    /// Holds the tag's first change until the claim is durable and the lease valid, when either is in doubt.
    let gate: WriteGate?
    /// The durations of the attempt in progress (the first one's detect included).
    var durations: AttemptRecord.PhaseDurations
    /// Ledger time so far: the claim, the waits for its sync, the key journal's synced commits.
    var ledgerTime: Duration

    /// The tag's UID.
    var uid: [UInt8] { detected.uid }
    /// The UID as the operator sees it.
    var uidText: String { Hex.compact(detected.uid) }
}

extension LineWorker {
    /// The claim step: binds the tag's UID to its held row or the lowest pending one, in one transaction that
    /// also refuses a UID already provisioned (no separate look-up, and queue hop, before every tag).
    ///
    /// `ClaimSyncPolicy` decides whether the claim's sync runs under identify (a deferred claim whose first
    /// change waits at the `WriteGate`) or before the claim returns (docs/ledger.md, "Durability").
    ///
    /// - Returns: the claimed tag, or `nil` when it was refused and released here (already provisioned, or no
    ///   row left for it).
    /// - Throws: `WorkerStop` when no row is left to claim; ledger and reader errors.
    /// - Parameter afterOutage: the tag was in the field when the ledger server went away.
    func claimStep(_ detected: DetectedTag, detect: Duration, afterOutage: Bool) async throws -> ClaimedTag? {
        let started = Date()
        let uid = detected.uid
        let durations = AttemptRecord.PhaseDurations(detect: detect.wholeMicroseconds)
        let overlap = claimSync.overlaps
        let claimStart = clock.now
        let claimed = await claimRow(uid: uid, durability: overlap ? .deferred : .immediate)
        let claimDuration = clock.now - claimStart
        switch claimed {
        case .success(let claim?):
            // A deferred claim is committed, not yet synced: its sync runs under render, identify and detection,
            // and the tag's first page-changing command waits for it (docs/ledger.md, "Durability").
            let gated = overlap || settings.lease != nil
            let gate = gated ? WriteGate(ledger.syncInBackground(), lease: settings.lease) : nil
            return ClaimedTag(
                detected: detected, claim: claim, started: started, gate: gate, durations: durations,
                ledgerTime: claimDuration)
        case .success(nil):
            try await noRow(for: uid)
            return nil
        case .failure(let error):
            guard error.code == .alreadyProvisioned else { throw error }
            let previous = try await ledger.isProvisioned(uid: uid)
            if afterOutage, let previous, previous.job == job.name {
                try await finishedBeforeOutage(uid: uid, row: previous.row)
            } else {
                try await refuseDuplicate(uid: uid, previous: previous, started: started, durations: durations)
            }
            return nil
        }
    }

    /// Claims a row for `uid` (the ledger's atomic claim), keeping the error for the caller to sort.
    private func claimRow(uid: [UInt8], durability: Durability) async -> Result<ClaimedRow?, LedgerError> {
        do {
            return .success(try await ledger.claim(job: job.name, reader: readerName, uid: uid, durability: durability))
        } catch {
            return .failure(error)
        }
    }

    /// A tag that finds every row done or held: it is refused and released, unless the job is complete or every
    /// open row is another station's (the run then ends with the tag on the reader).
    private func noRow(for uid: [UInt8]) async throws {
        let uidText = Hex.compact(uid)
        events(.noRowForTag(reader: readerName, uid: uidText))
        usable.refused()
        await signal(.fail)
        do {
            if let end = try await leftToClaim() {
                if end == .jobComplete { events(.jobCompleteTagLeft(reader: readerName, uid: uidText)) }
                throw end
            }
        } catch is OthersFinishing {}
        try await remove(uidText)
    }
}
