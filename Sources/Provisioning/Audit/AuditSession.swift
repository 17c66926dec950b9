import Foundation

/// The shared state of one audit across readers: which UIDs were audited (each only once), how many
/// tags the audit may still take (`--count`), and the verdicts in read order.
public actor AuditSession {
    /// What the session says about a UID that was just presented.
    public enum Admission: Sendable, Hashable {
        /// Audit it: a slot is reserved (call `record` or `abandon`).
        case audit
        /// This UID was audited already in this session; the earlier verdict stands.
        case repeated(TagVerdict.Status?)
        /// The `--count` limit is reached: take no more tags.
        case full
    }

    /// The most tags to audit, `nil` for no limit.
    public nonisolated let limit: Int?
    /// Stop after this many `unknown` or `blank` findings in a row (`--max-unknown`), `nil` for never: a reader
    /// presenting only strangers (fresh simulated tags, a wrong box) must not audit for ever.
    public nonisolated let maxUnknown: Int?
    /// The current run of `unknown` findings.
    public private(set) var unknownRun = 0
    /// Every verdict, in the order tags were audited, with the time each was read.
    public private(set) var verdicts: [(verdict: TagVerdict, time: Date)] = []
    /// Presentations of a UID already audited.
    public private(set) var repeats = 0
    private var seen: [[UInt8]: TagVerdict.Status?] = [:]
    /// UIDs whose reading failed and that have no verdict yet, with the failure and when it happened.
    private var unread: [[UInt8]: (detail: String, time: Date)] = [:]
    /// The order the unread UIDs first failed in.
    private var unreadOrder: [[UInt8]] = []

    /// Creates a session auditing at most `limit` tags.
    public init(limit: Int?, maxUnknown: Int? = nil) {
        self.limit = limit
        self.maxUnknown = maxUnknown
    }

    /// Whether `maxUnknown` unknown tags in a row were read.
    public var stoppedOnUnknown: Bool {
        guard let maxUnknown else { return false }
        return unknownRun >= maxUnknown
    }

    /// Whether the limit is reached (every slot taken or done), or too many unknown tags in a row.
    public var isFull: Bool {
        if stoppedOnUnknown { return true }
        guard let limit else { return false }
        return seen.count >= limit
    }

    /// Admits `uid` for audit, or says why not.
    public func admit(_ uid: [UInt8]) -> Admission {
        if let earlier = seen[uid] {
            repeats += 1
            return .repeated(earlier)
        }
        if isFull { return .full }
        seen[uid] = .some(nil)
        return .audit
    }

    /// Records the verdict of an admitted UID.
    public func record(_ verdict: TagVerdict, at time: Date = Date()) {
        seen[verdict.uid] = verdict.status
        unread[verdict.uid] = nil
        verdicts.append((verdict, time))
        unknownRun = verdict.status == .unknown || verdict.status == .blank ? unknownRun + 1 : 0
    }

    /// Gives back the slot of an admitted UID that could not be read (it may be presented again).
    public func abandon(_ uid: [UInt8], because detail: String = "", at time: Date = Date()) {
        seen[uid] = nil
        if unread[uid] == nil, !unreadOrder.contains(uid) { unreadOrder.append(uid) }
        unread[uid] = (detail, time)
    }

    /// Adds an `unreadable` verdict for every UID whose reading failed and that was never read afterwards, in the
    /// order they first failed: called once when the audit ends, so a tag the audit could not read fails it.
    public func recordUnread() {
        for uid in unreadOrder {
            guard let (detail, time) = unread[uid] else { continue }
            let why = detail.isEmpty ? "" : ": \(detail)"
            record(
                TagVerdict(
                    uid: uid, row: nil, status: .unreadable,
                    detail: "could not be read\(why); it was not presented again before the audit ended"),
                at: time)
        }
        unreadOrder.removeAll()
    }
}
