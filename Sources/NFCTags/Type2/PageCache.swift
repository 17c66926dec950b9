/// The pages a `Type2Tag` session knows (read from or written to the tag), indexed by page number.
///
/// An array, not a dictionary: every READ, FAST_READ and WRITE of a tag cycle updates it and every
/// write plan looks pages up in it, and hashing page numbers was a measurable part of a tag's software
/// time on the instant simulator (`reports/bench.md`, B1). Negative pages are never stored.
struct PageCache {
    private var pages: [[UInt8]?] = []

    /// The bytes of `page`, or `nil` when unknown; storing `nil` forgets the page.
    subscript(page: Int) -> [UInt8]? {
        get { page >= 0 && page < pages.count ? pages[page] : nil }
        set {
            guard page >= 0 else { return }
            if page >= pages.count {
                guard newValue != nil else { return }
                pages.append(contentsOf: repeatElement(nil, count: page + 1 - pages.count))
            }
            pages[page] = newValue
        }
    }

    /// Forgets every page.
    mutating func removeAll() { pages.removeAll(keepingCapacity: true) }
}
