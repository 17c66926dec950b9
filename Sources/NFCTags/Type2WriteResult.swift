/// What `Type2Tag.writeNDEF(_:)` did: the intended content of every page the message touches and
/// the WRITEs actually sent. Pass it to `Type2Tag.verify(_:ignoring:)`.
public struct Type2WriteResult: Sendable, Hashable {
    /// Final content of every page holding part of the NDEF TLV or its Terminator, by page.
    public var pages: [Int: [UInt8]]
    /// Pages written, in the order the WRITEs were sent (a page can appear twice: length page).
    public var writtenPages: [Int]
    /// Pages whose content already matched and were not written.
    public var skippedPages: [Int]

    /// Creates a result.
    public init(pages: [Int: [UInt8]], writtenPages: [Int], skippedPages: [Int]) {
        self.pages = pages
        self.writtenPages = writtenPages
        self.skippedPages = skippedPages
    }
}
