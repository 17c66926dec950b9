/// The verdict on one audited tag.
///
/// The raw values are stable names used in the audit files. Never rename a case.
public enum AuditStatus: String, Sendable, Hashable, CaseIterable, Codable {
    /// The tag holds exactly what the ledger says was written, and is locked as the job requires.
    case pass
    /// The tag's content differs from what the ledger says was written.
    case mismatch
    /// The ledger has no record of this UID for the job.
    case unknown
    /// The content matches but the tag is not locked although the job locks tags.
    case unlocked
    /// The job protects tags, and the tag refused the password derived from the job's key (or the
    /// ledger says another key programmed it).
    case authFailed
    /// The content matches, but the tag's protection or mirror configuration (AUTH0, PROT, AUTHLIM,
    /// CFGLCK, MIRROR_CONF/MIRROR_BYTE/MIRROR_PAGE, NFC_CNT_EN) or its lock state is not what the job set.
    case configMismatch
}
