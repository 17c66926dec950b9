extension Array {
    /// The array cut into consecutive pieces of at most `size` elements (Type 2 pages, Type 4 APDU pieces).
    public func chunked(_ size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}
