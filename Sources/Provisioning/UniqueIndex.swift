import Crypto

/// Remembers which values of the `unique` names were seen, as 128-bit digests, to find repeats.
///
/// Memory: one 16-byte digest plus the first row number (about 40 bytes with hash-table overhead)
/// per distinct value per unique name, never the values or rows themselves — about 40 MB for a
/// million rows and one unique name. A digest collision (probability about n²/2¹²⁹) could report a
/// false repeat; it cannot hide a real one.
struct UniqueIndex {
    private struct Key: Hashable {
        var high: UInt64
        var low: UInt64
    }

    private var seen: [[Key: Int]]
    let names: [String]

    init(names: [String]) {
        self.names = names
        seen = Array(repeating: [:], count: names.count)
    }

    /// Records `value` of name number `index` for `row`; returns the earlier row with the same value.
    mutating func insert(_ value: String, nameIndex index: Int, row: Int) -> Int? {
        let digest = Digest.sha256(Array(value.utf8))
        var high: UInt64 = 0
        var low: UInt64 = 0
        for byte in digest[0..<8] { high = high << 8 | UInt64(byte) }
        for byte in digest[8..<16] { low = low << 8 | UInt64(byte) }
        let key = Key(high: high, low: low)
        if let earlier = seen[index][key] { return earlier }
        seen[index][key] = row
        return nil
    }

    /// Distinct values remembered, over all names.
    var count: Int { seen.reduce(0) { $0 + $1.count } }
}
