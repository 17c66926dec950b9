/// The phases of one tag's cycle on the line, in order; per-phase times are reported with these names.
public enum Phase: String, Sendable, Hashable, CaseIterable, Codable {
    /// From "place tag" (or the previous removal) until a tag is selected.
    case detect
    /// GET_VERSION, signature, NDEF detection and the pre-write checks.
    case identify
    /// The tear-safe NDEF write.
    case write
    /// Re-activation and byte-for-byte read-back.
    case verify
    /// The permanent lock and its read-back.
    case lock
    /// Time in the ledger for the tag: the claim (synced) and the commit of the done tag.
    case ledger
    /// From release until the tag left the field.
    case removal

    /// The phases whose time is spent with the tag on the antenna doing work (not waiting for people).
    public static let tagWork: [Phase] = [.identify, .write, .verify, .lock, .ledger]
}

/// Why a tag attempt did not end in `done`: stable names used in the ledger, `failures.csv` and
/// `summary.json` (documented in docs/ledger.md). Never rename a case.
public enum FailureClass: String, Sendable, Hashable, CaseIterable, Codable {
    /// The tag left the field mid-cycle; the claim stays attached to its UID.
    case tagLost
    /// The tag stopped answering (silence) and retries ran out.
    case timeout
    /// The tag answered NAK (the code is in the detail: 0 invalid argument, 1 CRC, 4 auth limit, 5 EEPROM).
    case nak
    /// No NDEF capability container or TLV area the job can use.
    case notNDEF
    /// The tag is locked or its CC forbids writing.
    case readOnly
    /// The rendered message does not fit the tag.
    case capacity
    /// The chip is not the one the job expects.
    case wrongChip
    /// Read-back differed from what was written.
    case verifyMismatch
    /// The lock sequence failed or did not read back as locked.
    case lockFailed
    /// The UID was already provisioned (recorded as a duplicate, not a failure of the job).
    case duplicateUID
    /// The reader or host link failed.
    case transport
    /// The originality signature did not verify against a trusted key.
    case signatureInvalid
    /// Password protection could not be set or did not check out (PWD_AUTH, refused write).
    case protectFailed
    /// Pages 0–2 disagree with the anticollision UID, a BCC is wrong or INT is not `48` (a clone or
    /// a misread); refused before any WRITE (`docs/reference/type2.md` §11).
    case identityMismatch
    /// The job locks and the tag's chip has no lock `provision` can make and prove (a Type 4 tag whose CC
    /// write byte may not be honoured, a keyed chip without its keys); refused before any write, like a
    /// wrong chip.
    case lockUnsupported
}
