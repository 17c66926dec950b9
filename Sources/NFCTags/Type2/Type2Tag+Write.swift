import NDEF

/// Tear-safe NDEF writing and read-back verification (`docs/reference/type2.md` §5.6, §11).
extension Type2Tag {
    /// Writes `message` (raw NDEF message bytes) into the NDEF TLV with WRITE `A2h`, tear-safe and
    /// with the fewest WRITEs (`docs/reference/type2.md` §5.6).
    ///
    /// Order: (1) if the current length is not 0, the length page with length 0 (merged with that
    /// page's new data when it holds message bytes); (2) every other page from the TLV onward in
    /// ascending order, the length page with length still 0 whenever its stored bytes differ from
    /// that (message bytes, or the `hi lo` of the 3-byte form), the Terminator `FE` right after the
    /// message when there is room; (3) the length page with the real length, `03 LL` or
    /// `03 FF hi lo` (3-byte form from 255 bytes on), which then differs from the stored page in the
    /// length byte only, so a tear of that last WRITE cannot leave a mixed length. Pages whose cached content
    /// already matches are skipped. Detects first if needed.
    ///
    /// Reads only what is needed: pages in the old message region when rewriting (one FAST_READ buys
    /// the chance to skip ~5 ms WRITEs), and pages with bytes that must be preserved but are unknown
    /// (reserved/lock bytes, or TLVs before the NDEF TLV). Bytes after the Terminator are free: an
    /// unread page there is written with `00` fill. That is why, unlike nfcpy, no `30 08` is sent for
    /// the golden NTAG213 trace: nfcpy reads it to fill its page cache, but pages 08h–09h hold only
    /// new message bytes and the Terminator, so their old content cannot matter.
    ///
    /// - Throws: `Type2Error` `.readOnly`, `.capacity`, `.notNDEF`; `TransportError`.
    @discardableResult
    public func writeNDEF(_ message: [UInt8]) throws -> Type2WriteResult {
        try measure("write") {
            do {
                return try writeMessage(message)
            } catch {
                area = nil  // the TLV may be half written: detect again before the next step
                throw error
            }
        }
    }

    private func writeMessage(_ message: [UInt8]) throws -> Type2WriteResult {
        let current = try area ?? detectNDEF()
        guard !current.isReadOnly else {
            throw Type2Error(.readOnly, "the tag is read-only (CC3 \(Hex.string([current.cc.bytes[3]])) or lock bits)")
        }
        let long = message.count >= 0xFF
        let header: [UInt8] =
            long ? [0x03, 0xFF, UInt8(message.count >> 8), UInt8(message.count & 0xFF)] : [0x03, UInt8(message.count)]
        guard message.count <= 0xFFFE, header.count + message.count <= current.usableBytes else {
            throw Type2Error(
                .capacity, "message of \(message.count) bytes exceeds the capacity of \(current.capacity) bytes")
        }
        let stream = header + message
        let addresses = current.addresses(from: current.tlvAddress, count: stream.count)
        var desired = PlannedBytes(firstPage: current.tlvAddress / 4)
        for (address, value) in zip(addresses, stream) { desired[address] = value }
        let afterMessage = current.usable(atOrAfter: (addresses.last ?? current.tlvAddress) + 1)
        if afterMessage < current.dataAreaEnd { desired[afterMessage] = 0xFE }
        let lengthAddress = addresses[1]
        let lengthPage = lengthAddress / 4
        let touched = desired.pages
        if let chip, let beyond = touched.last, beyond > chip.lastUserPage {
            throw Type2Error(
                .capacity,
                "the message would reach page \(beyond), past the last user page \(chip.lastUserPage) of the "
                    + "\(chip.displayName); nothing written", page: beyond)
        }

        try prefetchForWrite(touched, current: current, desired: desired)

        var finals = [Int: [UInt8]](minimumCapacity: touched.count)
        for page in touched {
            let known = cache[page]
            finals[page] = (0..<4).map { desired[page * 4 + $0] ?? known?[$0] ?? 0x00 }
        }
        var interim = finals[lengthPage] ?? []
        interim[lengthAddress % 4] = 0x00

        var written: [Int] = []
        var skipped: [Int] = []
        if touched.allSatisfy({ cache[$0] == finals[$0] }) {
            // The tag already holds exactly this TLV: nothing to write.
            area = current
            return Type2WriteResult(pages: finals, writtenPages: [], skippedPages: touched)
        }
        func put(_ page: Int, _ bytes: [UInt8]) throws {
            try write(page: page, data: bytes)
            written.append(page)
        }
        // (1) Empty the TLV first so a tear leaves a valid empty tag, never a truncated message.
        let lengthIsZero = cache[lengthPage]?[lengthAddress % 4] == 0x00
        if !lengthIsZero { try put(lengthPage, interim) }
        // (2) Data pages ascending, Terminator included; the length byte stays 0. The length page
        // gets its interim content here even when it holds no message bytes (3-byte form: `03 00 hi
        // lo`), so the last WRITE changes the length byte alone: a tear of that WRITE leaves either
        // length 0 or the real length, never a mix of old and new length bytes.
        for page in touched {
            let target = page == lengthPage ? interim : finals[page] ?? []
            if cache[page] == target {
                if page != lengthPage { skipped.append(page) }
                continue
            }
            try put(page, target)
        }
        // (3) The real length last.
        if let final = finals[lengthPage] {
            if cache[lengthPage] != final {
                try put(lengthPage, final)
            } else if !written.contains(lengthPage) {
                skipped.append(lengthPage)
            }
        }
        var updated = current
        updated.lengthAddresses = Array(addresses[1..<header.count])
        updated.messageAddress = current.usable(atOrAfter: (updated.lengthAddresses.last ?? lengthAddress) + 1)
        updated.messageLength = message.count
        area = updated
        return Type2WriteResult(pages: finals, writtenPages: written, skippedPages: skipped.sorted())
    }

    /// Re-activates the tag, reads back every page of `result` (FAST_READ in chunks of ≤ 60 pages, or
    /// READ) and compares byte for byte (`docs/reference/type2.md` §11).
    ///
    /// - Parameter mask: byte-address ranges not compared (e.g. a UID/counter mirror window, §6).
    /// - Throws: `Type2Error.verifyMismatch` naming the first differing page; `TransportError`.
    public func verify(_ result: Type2WriteResult, ignoring mask: [Range<Int>] = []) throws {
        try verify(pages: result.pages, ignoring: mask)
    }

    /// Re-activates the tag and compares `pages` (page → 4 expected bytes) with what it reads back.
    public func verify(pages expected: [Int: [UInt8]], ignoring mask: [Range<Int>] = []) throws {
        try measure("verify") {
            let pages = expected.keys.sorted()
            guard let first = pages.first, let last = pages.last else { return }
            try reactivateCounted()
            _ = try readPages(first...last, useCache: false)
            for page in pages {
                guard let want = expected[page], want.count == 4 else {
                    throw Type2Error(.invalidArgument, "expected content of page \(page) is not 4 bytes", page: page)
                }
                guard let got = cache[page] else {
                    throw Type2Error(.invalidResponse, "page \(page) could not be read back", page: page)
                }
                for index in 0..<4 where want[index] != got[index] {
                    let address = page * 4 + index
                    if mask.contains(where: { $0.contains(address) }) { continue }
                    cache[page] = nil
                    throw Type2Error(
                        .verifyMismatch,
                        "page \(page) reads \(Hex.string(got)), expected \(Hex.string(want))", page: page)
                }
            }
        }
    }

    /// Reads the pages a write plan needs to know: unknown pages holding bytes that must be kept
    /// (before the TLV, reserved/lock bytes), and — when rewriting —
    /// unknown pages of the old message region, so unchanged pages can be skipped.
    private func prefetchForWrite(_ touched: [Int], current: NDEFArea, desired: PlannedBytes) throws {
        var oldEndPage = -1
        if current.messageLength > 0 {
            // The old message and the byte after it (its Terminator, usually).
            let oldLast = current.addresses(from: current.messageAddress, count: current.messageLength).last ?? 0
            oldEndPage = min(current.usable(atOrAfter: oldLast + 1), current.dataAreaEnd - 1) / 4
        }
        let needed = touched.filter { page in
            guard cache[page] == nil else { return false }
            if page <= oldEndPage { return true }
            return (0..<4).contains { index in
                let address = page * 4 + index
                guard desired[address] == nil else { return false }
                return address < current.tlvAddress || current.isReserved(address)
            }
        }
        guard let low = needed.first, let high = needed.last else { return }
        _ = try readPages(low...high)
    }
}

/// The bytes a write plan puts at byte addresses from page `firstPage` on; `nil` where the tag's byte
/// stays. An array over the addresses, not a dictionary: the plan is built and read for every tag.
struct PlannedBytes {
    /// The address of the first byte of the first page.
    let base: Int
    private var bytes: [UInt8?] = []

    init(firstPage: Int) { base = firstPage * 4 }

    /// The planned byte at `address`, `nil` when the plan leaves it.
    subscript(address: Int) -> UInt8? {
        get {
            let index = address - base
            return index >= 0 && index < bytes.count ? bytes[index] : nil
        }
        set {
            let index = address - base
            guard index >= 0 else { return }
            if index >= bytes.count { bytes.append(contentsOf: repeatElement(nil, count: index + 1 - bytes.count)) }
            bytes[index] = newValue
        }
    }

    /// The pages holding at least one planned byte, ascending.
    var pages: [Int] {
        stride(from: 0, to: bytes.count, by: 4).compactMap { start in
            bytes[start..<min(start + 4, bytes.count)].contains { $0 != nil } ? (base + start) / 4 : nil
        }
    }
}
