import Provisioning

/// The verdict on one audited tag: the audit's own `TagVerdict.Status`, whose raw values are the stable
/// names used in the audit files.
public typealias AuditStatus = TagVerdict.Status
