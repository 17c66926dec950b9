import NDEF

/// Single Type 2 / NTAG21x commands (`docs/reference/type2.md` §3). Each counts toward the running operation.
extension Type2Tag {
    /// Pages per FAST_READ chunk: ≤ 60 keeps every reader's buffer happy (`docs/reference/type2.md` §3.4).
    public static let fastReadChunkPages = 60

    /// READ `30h` (`docs/reference/type2.md` §3.3): 16 bytes, pages `page` … `page + 3` with roll-over.
    ///
    /// The address is sent modulo 256 (page 256 sends `30 00`). Every page of the answer that lies
    /// inside the chip (or, for a generic tag, below the CC's data area end) is cached.
    ///
    /// - Throws: `TransportError` (a NAK after re-activating the tag), or `Type2Error.invalidResponse`
    ///   when the answer is not 16 bytes.
    public func read(page: Int) throws -> [UInt8] {
        try measure("read") {
            let address = UInt8(truncatingIfNeeded: page)
            let answer = try send([0x30, address], timeoutMilliseconds: 5)
            guard answer.count == 16 else {
                throw Type2Error(
                    .invalidResponse, "READ \(Hex.string([address])) answered \(answer.count) bytes, not 16",
                    page: page)
            }
            let first = Int(address)
            for index in 0..<4 {
                var target = first + index
                if let chip { target %= chip.pageCount }
                guard target < cacheLimit else { continue }
                cache[target] = Array(answer[index * 4..<index * 4 + 4])
            }
            return answer
        }
    }

    /// FAST_READ `3Ah` (`docs/reference/type2.md` §3.4): pages `start` … `end` in one frame, no roll-over.
    ///
    /// - Throws: `Type2Error.invalidArgument` for `end < start` or addresses above FFh (nothing sent),
    ///   `Type2Error.unsupportedCommand` without a raw path, `Type2Error.invalidResponse` when the
    ///   answer length is not 4 × pages (readers have been seen duplicating bytes), or `TransportError`.
    public func fastRead(from start: Int, through end: Int) throws -> [UInt8] {
        try measure("read") {
            guard start >= 0, end >= start, end <= 0xFF else {
                throw Type2Error(.invalidArgument, "FAST_READ range \(start)…\(end) is invalid", page: start)
            }
            guard transceiver.supportsRawCommands else {
                throw Type2Error(.unsupportedCommand, "this reader path cannot send FAST_READ")
            }
            let count = end - start + 1
            // 5 ms to the first answer bit (§3.1) plus the answer's own airtime (36 bits per page).
            let timeout = 5 + (count * 36 * 944 + 99_999) / 100_000
            let answer = try send([0x3A, UInt8(start), UInt8(end)], timeoutMilliseconds: timeout)
            guard answer.count == count * 4 else {
                throw Type2Error(
                    .invalidResponse, "FAST_READ of \(count) pages answered \(answer.count) bytes", page: start)
            }
            for index in 0..<count where start + index < cacheLimit {
                cache[start + index] = Array(answer[index * 4..<index * 4 + 4])
            }
            return answer
        }
    }

    /// Reads pages `range` with the fewest exchanges: FAST_READ in chunks of ≤ 60 pages when the
    /// chip is known and the reader has a raw path, otherwise READ `30h` every 4 pages.
    ///
    /// - Parameter useCache: return cached pages instead of reading them again (only uncached runs
    ///   are fetched). Pass `false` to force reading the tag (verification).
    public func readPages(_ range: ClosedRange<Int>, useCache: Bool = true) throws -> [UInt8] {
        try measure("read") {
            var missing: [Int] = []
            for page in range where !(useCache && cache[page] != nil) { missing.append(page) }
            if !missing.isEmpty { try fetch(missing) }
            var out: [UInt8] = []
            out.reserveCapacity(range.count * 4)
            for page in range {
                guard let bytes = cache[page] else {
                    throw Type2Error(.invalidResponse, "page \(page) could not be read", page: page)
                }
                out += bytes
            }
            return out
        }
    }

    /// WRITE `A2h` (`docs/reference/type2.md` §3.5): stores 4 bytes at `page`; only ACK `0A` is success.
    ///
    /// - Throws: `Type2Error.invalidArgument` before sending when `data` is not 4 bytes or the page is
    ///   above FFh; `Type2Error.invalidResponse` for any answer but `0A`; `TransportError` (a NAK after
    ///   re-activating the tag).
    public func write(page: Int, data: [UInt8]) throws {
        try measure("write") {
            guard data.count == 4 else {
                throw Type2Error(.invalidArgument, "WRITE needs exactly 4 data bytes, got \(data.count)", page: page)
            }
            guard (0...0xFF).contains(page) else {
                throw Type2Error(.invalidArgument, "WRITE page \(page) is out of range", page: page)
            }
            let answer: [UInt8]
            do {
                answer = try send([0xA2, UInt8(page)] + data, timeoutMilliseconds: 10)
            } catch {
                cache[page] = nil  // a failed or torn WRITE leaves the page unknown
                throw error
            }
            guard answer == [0x0A] else {
                cache[page] = nil
                throw Type2Error(
                    .invalidResponse, "WRITE to page \(page) answered \(Hex.string(answer)) instead of ACK 0A",
                    page: page)
            }
            switch page {
            case 2, 3, chip?.dynamicLockPage:
                cache[page] = nil  // OR-semantics: the stored value is not simply `data`
            default:
                cache[page] = data
            }
        }
    }

    /// READ_SIG `3C 00` (`docs/reference/type2.md` §3.8): the 32-byte originality signature r ‖ s.
    public func readSignature() throws -> [UInt8] {
        try measure("signature") {
            try requireRaw("READ_SIG")
            let answer = try send([0x3C, 0x00], timeoutMilliseconds: 5)
            guard answer.count == 32 else {
                throw Type2Error(.invalidResponse, "READ_SIG answered \(answer.count) bytes, not 32")
            }
            return answer
        }
    }

    /// PWD_AUTH `1Bh` (`docs/reference/type2.md` §3.6): authenticates and compares the returned PACK.
    ///
    /// NAK, silence and a PACK mismatch all mean "authentication failed" (`authenticationFailed`, with
    /// the transport error as cause); after a NAK the tag has been re-activated.
    public func authenticate(password: [UInt8], expectedPACK: [UInt8]) throws {
        try measure("authenticate") {
            guard password.count == 4, expectedPACK.count == 2 else {
                throw Type2Error(.invalidArgument, "PWD_AUTH needs a 4-byte password and a 2-byte PACK")
            }
            try requireRaw("PWD_AUTH")
            let answer: [UInt8]
            do {
                answer = try send([0x1B] + password, timeoutMilliseconds: 5)
            } catch let error as TransportError where error != .tagLost {
                throw Type2Error(.authenticationFailed, "PWD_AUTH refused: \(error)", cause: error)
            }
            guard answer == expectedPACK else {
                throw Type2Error(.authenticationFailed, "PACK \(Hex.string(answer)) is not the expected one")
            }
        }
    }

    /// READ_CNT `39 02` (`docs/reference/type2.md` §3.7): the 24-bit NFC counter (sent LSB first).
    public func readCounter() throws -> Int {
        try measure("counter") {
            try requireRaw("READ_CNT")
            let answer = try send([0x39, 0x02], timeoutMilliseconds: 5)
            guard answer.count == 3 else {
                throw Type2Error(.invalidResponse, "READ_CNT answered \(answer.count) bytes, not 3")
            }
            return Int(answer[0]) | Int(answer[1]) << 8 | Int(answer[2]) << 16
        }
    }

    // MARK: Helpers

    /// Pages above this are not cached from READ answers (they may be roll-over or unknown).
    var cacheLimit: Int {
        if let chip { return chip.pageCount }
        if let cc = cache[3].flatMap(CapabilityContainer.init), cc.hasNDEFMagic { return cc.dataAreaEnd / 4 }
        return 16
    }

    /// Whether multi-page reads may use FAST_READ: a known chip and a raw-command path.
    var canFastRead: Bool { chip != nil && transceiver.supportsRawCommands }

    private func requireRaw(_ name: String) throws {
        guard transceiver.supportsRawCommands else {
            throw Type2Error(.unsupportedCommand, "this reader path cannot send \(name)")
        }
    }

    /// Reads the given (sorted) pages: contiguous runs by FAST_READ chunks, or READs of 4 pages.
    private func fetch(_ pages: [Int]) throws {
        if canFastRead {
            for run in runs(pages) {
                var start = run.lowerBound
                while start <= run.upperBound {
                    let end = min(run.upperBound, start + Self.fastReadChunkPages - 1)
                    _ = try fastRead(from: start, through: end)
                    start = end + 1
                }
            }
        } else {
            var next = Int.min
            for page in pages where page >= next {
                _ = try read(page: page)
                next = page + 4
            }
        }
    }

    private func runs(_ pages: [Int]) -> [ClosedRange<Int>] {
        var out: [ClosedRange<Int>] = []
        for page in pages {
            if let last = out.last, last.upperBound + 1 == page {
                out[out.count - 1] = last.lowerBound...page
            } else {
                out.append(page...page)
            }
        }
        return out
    }
}
