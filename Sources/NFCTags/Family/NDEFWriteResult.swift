/// What a tear-safe NDEF write did: the intended content of every unit the message touches (a Type 2
/// page, a Type 5 block, a Type 4 file piece) and the writes actually sent. Pass it to the family's
/// `verify(_:ignoring:)`.
public struct NDEFWriteResult: Sendable, Hashable {
    /// Final content of every page holding part of the NDEF TLV or its Terminator, by unit number.
    public var pages: [Int: [UInt8]]
    /// Units (pages) written, in the order the WRITEs were sent (a page can appear twice: length page).
    public var writtenPages: [Int]
    /// Units (pages) whose content already matched and were not written.
    public var skippedPages: [Int]

    /// Creates a result.
    public init(pages: [Int: [UInt8]], writtenPages: [Int], skippedPages: [Int]) {
        self.pages = pages
        self.writtenPages = writtenPages
        self.skippedPages = skippedPages
    }
}

/// The Type 2 operations' name for `NDEFWriteResult`.
public typealias Type2WriteResult = NDEFWriteResult
