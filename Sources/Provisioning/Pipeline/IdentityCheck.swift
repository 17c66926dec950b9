import NFCTags

/// What the line does when a tag's pages 0–2 disagree with its identity (`docs/reference/type2.md` §11): the
/// manifest's `identityCheck` (an open question of §12 made a setting).
///
/// The check costs no exchange: it compares the anticollision UID with pages 0–2 as the identify
/// phase already read them (FAST_READ `3A 00 04`, or READ `30 00` of NDEF detection).
public enum IdentityCheck: String, Sendable, Hashable, CaseIterable {
    /// A tag with a refusable anomaly fails as `identityMismatch` before any WRITE (default).
    case refuse
    /// The anomalies are kept in the attempt's detail; nothing is refused.
    case record

    /// The failure for refused anomalies (retried once after re-activation: a misread passes then).
    public static func failure(_ anomalies: IdentityAnomalies) -> CycleFailure {
        CycleFailure(
            .identityMismatch, phase: .identify, page: anomalies.unit,
            "identity check: " + anomalies.descriptions.joined(separator: "; ") + "; nothing written")
    }

    /// Tries in all of an `identityMismatch` (the first try and one retry), whatever `retries` says.
    static let triesForMismatch = 2
}
