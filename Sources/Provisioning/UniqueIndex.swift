/// Finds repeated values of the `unique` names in fixed memory, exactly, in at most two passes.
///
/// Pass one (`screening`) puts a 64-bit hash of every value (name number and UTF-8 bytes) into a
/// blocked Bloom filter of fixed size (8 MiB; 4 probes in each of 2 64-byte blocks) and keeps the hashes of
/// values the filter may already have seen: the candidates. A value seen twice is always a candidate;
/// a value seen once is one only by a false positive (well under one expected over a million
/// values; at ten million the filter fills and pass two becomes the rule, still exact). Without candidates
/// there is no repeat and pre-flight is done. Otherwise pass two (`exact`) reads the rows again and
/// keeps the bytes and first row of candidate values only, so a repeat is reported by comparing the
/// values themselves, at the same row and with the same earlier row as a full index would.
///
/// Memory: the filter, plus a hash per candidate and, in pass two, the candidate values — nothing
/// that grows with the number of distinct values.
struct UniqueIndex {
    /// Which pass the index is in.
    enum Pass { case screening, exact }

    /// 2^17 blocks of 8 words: 8 MiB.
    private static let filterWords = 1 << 20
    private static let blockWords = 8
    private static let blocksPerValue = 2
    private static let probesPerBlock = 4

    let names: [String]
    /// The source of each name, resolved once (`nil`: no value before writing).
    let sources: [Placeholder.Source?]
    private(set) var pass = Pass.screening
    private var filter: [UInt64]
    private var candidates: Set<UInt64> = []
    private var exact: [[[UInt8]: Int]]

    init(names: [String]) {
        self.names = names
        sources = names.map { Placeholder.source(for: $0) }
        filter = names.isEmpty ? [] : Array(repeating: 0, count: Self.filterWords)
        exact = Array(repeating: [:], count: names.count)
    }

    /// Whether pass one found candidates, so the rows must be read again.
    var needsExactPass: Bool { pass == .screening && !candidates.isEmpty }

    /// Switches to pass two; the filter is no longer needed.
    mutating func beginExactPass() {
        pass = .exact
        filter = []
    }

    /// Records `value` of name number `index` at `row`; in pass two, returns the earlier row with the same bytes.
    mutating func insert(_ value: String, nameIndex index: Int, row: Int) -> Int? {
        var value = value
        let hash = value.withUTF8 { bytes in
            var hasher = Hasher()
            hasher.combine(index)
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
            return UInt64(bitPattern: Int64(hasher.finalize()))
        }
        switch pass {
        case .screening:
            if testAndSet(hash) { candidates.insert(hash) }
            return nil
        case .exact:
            guard candidates.contains(hash) else { return nil }
            let bytes = Array(value.utf8)
            if let earlier = exact[index][bytes] { return earlier }
            exact[index][bytes] = row
            return nil
        }
    }

    /// Sets the filter bits of `hash`; true when all were set already.
    ///
    /// Two blocks of 512 bits (a cache line each) with 4 probes in each: the first block from `hash`,
    /// the second from `hash` through the SplitMix64 finaliser. The block is chosen by the top 17 bits,
    /// the probes step by double hashing on the low 18 bits. (One block of 6 probes was measured at
    /// about 65 false positives per million values; two blocks of 4, at none in three runs.)
    private mutating func testAndSet(_ hash: UInt64) -> Bool {
        var bits = hash
        var seen = true
        filter.withUnsafeMutableBufferPointer { words in
            for _ in 0..<Self.blocksPerValue {
                let block = Int(bits >> 47) * Self.blockWords
                var probe = Int(bits & 0x1FF)
                let step = Int(bits >> 9 & 0x1FF) | 1
                for _ in 0..<Self.probesPerBlock {
                    let word = block + probe >> 6
                    let flag: UInt64 = 1 << UInt64(probe & 63)
                    if words[word] & flag == 0 {
                        seen = false
                        words[word] |= flag
                    }
                    probe = (probe + step) & 0x1FF
                }
                bits = Self.mix(bits)
            }
        }
        return seen
    }

    /// The SplitMix64 finaliser: spreads every input bit over the output.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Values held exactly (pass two's candidate values), over all names; 0 when pass one found no candidate.
    var count: Int { exact.reduce(0) { $0 + $1.count } }
}
