import NFCTags

/// What the line does when a tag's pages 0–2 disagree with its identity (`type2-ntag.md` §11): the
/// manifest's `identityCheck` (an open question of §12 made a setting).
///
/// The check costs no exchange: it compares the anticollision UID with pages 0–2 as the identify
/// phase already read them (FAST_READ `3A 00 04`, or READ `30 00` of NDEF detection).
public enum IdentityCheck: String, Sendable, Hashable, CaseIterable {
    /// A tag with a refusable anomaly fails as `identityMismatch` before any WRITE (default).
    case refuse
    /// The anomalies are kept in the attempt's detail; nothing is refused.
    case record

    /// The anomalies the line acts on, from everything `Type2Tag.identityAnomalies` reports.
    ///
    /// Refused: a UID in pages 0–1 other than the anticollision UID, a wrong BCC0 or BCC1, and INT ≠
    /// `48` on an NXP tag (a chip GET_VERSION or the CC named, or UID0 = `04`). Kept out: UID0 ≠ `04`
    /// alone (other makers' Type 2 tags), and INT on such a generic non-NXP tag (INT is NXP's value).
    public static func refusable(_ anomalies: [UIDAnomaly], chip: ChipModel?, uid0: UInt8?) -> [UIDAnomaly] {
        anomalies.filter { anomaly in
            switch anomaly {
            case .notNXP: false
            case .internalByte: chip != nil || uid0 == 0x04
            case .bcc0, .bcc1, .uidDiffers: true
            }
        }
    }

    /// The failure for refused anomalies (retried once after re-activation: a misread passes then).
    public static func failure(_ anomalies: [UIDAnomaly]) -> CycleFailure {
        CycleFailure(
            .identityMismatch, phase: .identify, page: 0,
            "identity check: " + anomalies.map(\.description).joined(separator: "; ") + "; nothing written")
    }

    /// Tries in all of an `identityMismatch` (the first try and one retry), whatever `retries` says.
    static let triesForMismatch = 2
}
