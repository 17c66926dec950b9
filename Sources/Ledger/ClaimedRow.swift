import Foundation

/// A row handed to one UID by `Ledger.claim(job:reader:uid:)`.
public struct ClaimedRow: Sendable, Hashable {
    /// The job name.
    public var job: String
    /// The row number.
    public var row: Int
    /// The row's source fields.
    public var fields: [String: String]
    /// SHA-256 of the rendered message recorded for the row.
    public var messageSHA256: [UInt8]
    /// Length of the rendered message in bytes.
    public var messageLength: Int
    /// The UID now holding the claim.
    public var uid: [UInt8]
    /// Attempts recorded against the row so far.
    public var attempts: Int
    /// `true` when this UID already held the claim (after a tear or a crash): the tag may carry a partial
    /// or complete write, so verify what is on it before writing.
    public var resumed: Bool
    /// When the row was first claimed by this UID (unchanged on resume): the row's late-bound
    /// `timestamp`, so a resumed row renders to the same bytes.
    public var claimedAt: Date
    /// The done row this row reissues (`provision reissue`), if any: it renders as that row does.
    public var reissueOf: Int?

    /// What an append job found on this row's tag at its first presentation (`[]`: an empty NDEF
    /// message), once recorded: a resumed append writes this plus the new records, whatever a torn
    /// write left on the tag.
    public var originalMessage: [UInt8]?

    /// The row number the message renders from: the original row of a reissue, else this row.
    public var renderedRow: Int { reissueOf ?? row }

    /// Creates a claimed row.
    public init(
        job: String, row: Int, fields: [String: String], messageSHA256: [UInt8], messageLength: Int,
        uid: [UInt8], attempts: Int, resumed: Bool, claimedAt: Date = Date(), reissueOf: Int? = nil,
        originalMessage: [UInt8]? = nil
    ) {
        self.reissueOf = reissueOf
        self.originalMessage = originalMessage
        self.job = job
        self.row = row
        self.fields = fields
        self.messageSHA256 = messageSHA256
        self.messageLength = messageLength
        self.uid = uid
        self.attempts = attempts
        self.resumed = resumed
        self.claimedAt = claimedAt
    }
}
