import NDEF

/// The NFC Forum detection procedure and NDEF read (`docs/reference/type2.md` §5.2–§5.5).
extension Type2Tag {
    /// Runs NDEF detection: READ `30 00` (UID, static locks, CC), then READ `30 04` onward for the
    /// TLV walk, reading further pages only when the walk reaches them (`docs/reference/type2.md` §5.3).
    ///
    /// Checks CC0 = `E1`, major version 1 and read access `0`; walks NULL, Lock Control, Memory
    /// Control, proprietary and unknown TLVs (skipped by length) to the NDEF TLV, skipping declared
    /// lock and reserved bytes; applies the default dynamic lock area when there is no Lock Control
    /// TLV and CC2 > 06. Pages already cached are not read again.
    ///
    /// On a known chip (after `identify()`), a CC declaring more than the chip's user memory is refused,
    /// so the capacity is never more than the chip holds and no write can reach its lock, CFG or PWD pages.
    ///
    /// - Throws: `Type2Error` `.notNDEF` (no magic, Terminator or end before the NDEF TLV, length
    ///   beyond the area), `.unsupportedCC` (major ≠ 1, read nibble ≠ 0), `.tamperedCC` (CC larger than
    ///   the chip); `TransportError`.
    @discardableResult
    public func detectNDEF() throws -> NDEFArea {
        try measure("detect") {
            area = nil
            let found = try walk()
            area = found
            return found
        }
    }

    /// `(status, capacity)` as Core NFC reports it; a tag that fails detection is `.notSupported`
    /// with capacity 0. Transport failures are thrown.
    public func queryNDEFStatus() throws -> (status: NDEFStatus, capacity: Int) {
        do {
            let found = try detectNDEF()
            return (found.status, found.capacity)
        } catch let error as Type2Error where error.code == .notNDEF || error.code == .unsupportedCC {
            return (.notSupported, 0)
        }
    }

    /// Reads the NDEF message bytes with the fewest exchanges: pages already read by detection are
    /// reused; the rest come by FAST_READ `3Ah` (chunks of ≤ 60 pages) or READ `30h` on generic tags
    /// and reader paths without raw commands (`docs/reference/type2.md` §5.5). Detects first if needed.
    public func readNDEF() throws -> [UInt8] {
        try measure("read") {
            let found = try area ?? detectNDEF()
            guard found.messageLength > 0 else { return [] }
            let addresses = found.addresses(from: found.messageAddress, count: found.messageLength)
            guard let first = addresses.first, let last = addresses.last else { return [] }
            _ = try readPages(first / 4...last / 4)
            return try addresses.map { try cachedByte($0) }
        }
    }

    /// Reads pages 0 through the factory NDEF length page (`ChipModel.factoryNDEFLengthPage`) in one
    /// FAST_READ `3Ah` — UID, BCCs, INT, static locks, CC and the head of the TLV area — where the
    /// chip is known and the reader has a raw path; READ `30 00` otherwise. Detection then walks a
    /// factory layout without another exchange (one FAST_READ instead of READ `30 00` + READ `30 04`).
    public func readHeader() throws {
        try measure("header") {
            guard canFastRead, let chip else {
                if cache[0] == nil || cache[2] == nil || cache[3] == nil { _ = try read(page: 0) }
                return
            }
            _ = try readPages(0...chip.factoryNDEFLengthPage)
        }
    }

    // MARK: Walk

    /// A byte of tag memory, from the cache or by READ `30h` of its page.
    func byte(at address: Int) throws -> UInt8 {
        let page = address / 4
        if cache[page] == nil { _ = try read(page: page) }
        return try cachedByte(address)
    }

    func cachedByte(_ address: Int) throws -> UInt8 {
        guard let bytes = cache[address / 4] else {
            throw Type2Error(.invalidResponse, "page \(address / 4) was not read", page: address / 4)
        }
        return bytes[address % 4]
    }

    private func walk() throws -> NDEFArea {
        // READ 00 brings UID, static locks and CC in one exchange (not READ 03).
        if cache[2] == nil || cache[3] == nil { _ = try read(page: 0) }
        let ccBytes = try (12..<16).map { try byte(at: $0) }
        guard let cc = CapabilityContainer(ccBytes), cc.hasNDEFMagic else {
            throw Type2Error(.notNDEF, "CC0 is \(Hex.string(ccBytes.prefix(1))), not E1: not NDEF formatted", page: 3)
        }
        guard cc.majorVersion == 1 else {
            throw Type2Error(.unsupportedCC, "CC mapping version \(cc.majorVersion).\(cc.minorVersion)", page: 3)
        }
        guard cc.readAccess == 0 else {
            throw Type2Error(.unsupportedCC, "CC3 \(Hex.string([cc.bytes[3]])) denies NDEF read access", page: 3)
        }
        if let chip, cc.dataAreaEnd > (chip.lastUserPage + 1) * 4 {
            throw Type2Error(
                .tamperedCC,
                "CC \(Hex.string(cc.bytes)) declares \(cc.dataAreaBytes) bytes of data area, but the "
                    + "\(chip.displayName) GET_VERSION names has \(chip.userBytes) bytes of user memory: refused as a "
                    + "tampered CC", page: 3)
        }
        let staticLock = [try byte(at: 10), try byte(at: 11)]
        let end = cc.dataAreaEnd
        var reserved: [Range<Int>] = []
        var locks: [NDEFArea.LockArea] = []
        func next(_ address: Int) -> Int { NDEFArea.skip(address, reserved: reserved) }
        func notNDEF(_ why: String, _ address: Int) -> Type2Error {
            Type2Error(.notNDEF, why, page: address / 4)
        }

        var position = next(16)
        while position < end {
            let type = try byte(at: position)
            if type == 0x00 {
                position = next(position + 1)
                continue
            }
            if type == 0xFE { throw notNDEF("Terminator TLV before any NDEF TLV", position) }
            var lengthAddresses = [next(position + 1)]
            guard lengthAddresses[0] < end else { throw notNDEF("TLV length beyond the data area", position) }
            var length = Int(try byte(at: lengthAddresses[0]))
            if length == 0xFF {
                let high = next(lengthAddresses[0] + 1)
                let low = next(high + 1)
                guard low < end else { throw notNDEF("TLV length beyond the data area", position) }
                length = Int(try byte(at: high)) << 8 | Int(try byte(at: low))
                lengthAddresses += [high, low]
            }
            let valueAddress = next((lengthAddresses.last ?? position) + 1)
            if type == 0x03 {
                var found = NDEFArea(
                    cc: cc, tlvAddress: position, lengthAddresses: lengthAddresses, messageAddress: valueAddress,
                    messageLength: length, reservedAreas: reserved, lockAreas: locks, staticLock: staticLock,
                    isReadOnly: false)
                guard length <= found.usableCount(from: valueAddress, to: end) else {
                    throw notNDEF("NDEF length \(length) exceeds the data area", position)
                }
                if !locks.contains(where: { !$0.isDefault }), let area = Self.defaultLockArea(cc) {
                    found.lockAreas.append(area)
                }
                found.isReadOnly =
                    cc.writeAccess != 0 || Self.staticLockCovers(found, staticLock) || dynamicLockCovers(found)
                return found
            }
            // Walk the value bytes (skipping reserved ones) to find the next TLV.
            var value: [UInt8] = []
            var cursor = valueAddress
            for index in 0..<length {
                guard cursor < end else { throw notNDEF("TLV value runs past the data area", position) }
                if index < 3 { value.append(try byte(at: cursor)) }
                cursor = next(cursor + 1)
            }
            if (type == 0x01 || type == 0x02) && length == 3 {
                let base = Int(value[0] >> 4) << Int(value[2] & 0x0F) + Int(value[0] & 0x0F)
                if type == 0x01 {
                    let bits = value[1] == 0 ? 256 : Int(value[1])
                    let area = base..<base + (bits + 7) / 8
                    locks.append(.init(bytes: area, bits: bits, bytesPerBit: 1 << Int(value[2] >> 4), isDefault: false))
                    reserved.append(area)
                } else {
                    reserved.append(base..<base + (value[1] == 0 ? 256 : Int(value[1])))
                }
            }
            position = next(cursor)
        }
        throw notNDEF("no NDEF TLV before the end of the data area", end)
    }

    /// The NFC Forum default dynamic lock area: at byte 16 + CC2 × 8, ceil((CC2 × 8 − 48) / 8) bits,
    /// 8 bytes per bit; only for dynamic layouts (CC2 > 06) (`docs/reference/type2.md` §2.1, §5.3).
    static func defaultLockArea(_ cc: CapabilityContainer) -> NDEFArea.LockArea? {
        guard cc.bytes[2] > 0x06 else { return nil }
        let bits = (cc.dataAreaBytes - 48 + 7) / 8
        return .init(
            bytes: cc.dataAreaEnd..<cc.dataAreaEnd + (bits + 7) / 8, bits: bits, bytesPerBit: 8, isDefault: true)
    }

    /// Whether a dynamic lock bit covers a page of the NDEF area; only when the lock page is cached
    /// (e.g. by `readConfiguration()`), so detection never costs an extra READ for it.
    func dynamicLockCovers(_ area: NDEFArea) -> Bool {
        guard let chip, let page = chip.dynamicLockPage, let bytes = cache[page] else { return false }
        let locked = Type2Configuration(dynamicLock: bytes, cfg0: [0, 0, 0, 0], cfg1: [0, 0, 0, 0])
            .dynamicallyLockedPages(on: chip)
        let first = area.tlvAddress / 4
        let last = (area.dataAreaEnd - 1) / 4
        return locked.contains { $0 >= first && $0 <= last }
    }

    /// Whether a static lock bit is set for any page 3–15 holding the NDEF TLV or data area after it.
    static func staticLockCovers(_ area: NDEFArea, _ lock: [UInt8]) -> Bool {
        let word = Int(lock[0]) | Int(lock[1]) << 8
        let firstPage = area.tlvAddress / 4
        let lastPage = min(15, (area.dataAreaEnd - 1) / 4)
        guard firstPage <= lastPage else { return false }
        return (firstPage...lastPage).contains { word & (1 << $0) != 0 }
    }
}
