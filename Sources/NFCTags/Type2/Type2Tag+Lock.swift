import NDEF

/// Permanent read-only locking (`docs/reference/type2.md` §5.7, §7.1, §11).
extension Type2Tag {
    /// Makes the tag permanently read-only with WRITE `A2h`, chip-correct (`docs/reference/type2.md` §5.7).
    ///
    /// Order: CC3 write nibble to `F` first (`A2 03 E1 1x CC2 0F`, only if CC0 = `E1` and major 1; the
    /// CC is OR-written, so `08`/`88` are never produced), static locks `A2 02 00 00 FF FF`, the
    /// dynamic lock page from GET_VERSION (`FF 0F 3F 00` / `FF 00 0F 00` / `FF 3F 7F 00`), then with
    /// `configLock` CFG1 with CFGLCK (`40h`) set and the rest preserved. Then re-activates and reads
    /// back pages 2, 3 (READ `30 02`) and the lock page to confirm. Steps already in effect per the
    /// cache are skipped. On a generic tag the dynamic lock bits come from Lock Control TLVs or the
    /// default area; a generic tag whose CC looks like NTAG215/216 (CC2 `3E`/`6D`) without a Lock
    /// Control TLV is refused, since the default area is not its lock page there (§7.1).
    ///
    /// - Throws: `Type2Error.lockFailed` (naming the page) when a read-back shows bits not set,
    ///   `.unknownChip`; `TransportError`.
    public func writeLock(configLock: Bool = false) throws {
        try measure("lock") {
            if chip == nil && area == nil {
                // A generic tag's dynamic lock bytes come from its TLVs: detect (READ 00, READ 04).
                do {
                    try detectNDEF()
                } catch let error as Type2Error where error.code == .notNDEF || error.code == .unsupportedCC {}
            }
            if cache[2] == nil || cache[3] == nil { _ = try read(page: 2) }
            guard let page2 = cache[2], let cc = cache[3].flatMap(CapabilityContainer.init) else {
                throw Type2Error(.invalidResponse, "pages 2–3 could not be read", page: 2)
            }
            var dynamic: [(page: Int, bytes: [UInt8], mask: [UInt8])] = []
            if let chip {
                if let page = chip.dynamicLockPage, let bits = chip.dynamicLockAllBits {
                    dynamic.append((page, bits, [bits[0], bits[1], bits[2], 0x00]))
                }
            } else {
                dynamic = try genericLockPages(cc)
            }
            let ndefCC = cc.hasNDEFMagic && cc.majorVersion == 1
            if ndefCC && cc.writeAccess != 0x0F {
                try write(page: 3, data: [cc.bytes[0], cc.bytes[1], cc.bytes[2], cc.bytes[3] | 0x0F])
            }
            if page2[2] != 0xFF || page2[3] != 0xFF {
                try write(page: 2, data: [0x00, 0x00, 0xFF, 0xFF])
            }
            for entry in dynamic { try write(page: entry.page, data: entry.bytes) }
            if configLock, let chip {
                if cache[chip.cfg1Page] == nil { _ = try read(page: chip.cfg0Page) }
                if let cfg1 = cache[chip.cfg1Page], cfg1[0] & 0x40 == 0 {
                    try write(page: chip.cfg1Page, data: [cfg1[0] | 0x40, cfg1[1], cfg1[2], cfg1[3]])
                }
            }
            area = nil
            try reactivateCounted()
            let back = try read(page: 2)
            guard back[2] == 0xFF, back[3] == 0xFF else {
                throw Type2Error(.lockFailed, "static lock bytes read \(Hex.string(back[2..<4]))", page: 2)
            }
            if ndefCC && back[7] & 0x0F != 0x0F {
                throw Type2Error(.lockFailed, "CC3 reads \(Hex.string([back[7]]))", page: 3)
            }
            for entry in dynamic {
                let got = try read(page: entry.page)
                for index in 0..<4 where got[index] & entry.mask[index] != entry.mask[index] {
                    throw Type2Error(
                        .lockFailed, "lock page \(entry.page) reads \(Hex.string(got[0..<4]))", page: entry.page)
                }
            }
        }
    }

    /// Pages to write for a generic tag's dynamic lock bits (Lock Control TLVs or the default area).
    private func genericLockPages(_ cc: CapabilityContainer) throws -> [(page: Int, bytes: [UInt8], mask: [UInt8])] {
        guard cc.hasNDEFMagic, cc.majorVersion == 1, cc.bytes[2] > 0x06 else { return [] }
        guard let found = area else {
            throw Type2Error(
                .unknownChip, "chip unknown and no NDEF TLV layout: the dynamic lock bytes cannot be located")
        }
        let declared = found.lockAreas.filter { !$0.isDefault }
        if declared.isEmpty && (cc.bytes[2] == 0x3E || cc.bytes[2] == 0x6D) {
            throw Type2Error(
                .unknownChip,
                "chip unknown and CC2 \(Hex.string([cc.bytes[2]])) looks like NTAG215/216: "
                    + "the default lock area is not its lock page"
            )
        }
        var lockBytes: [Int: UInt8] = [:]
        for lock in (declared.isEmpty ? found.lockAreas : declared) {
            for (offset, address) in lock.bytes.enumerated() {
                let remaining = lock.bits - offset * 8
                lockBytes[address] = remaining >= 8 ? 0xFF : UInt8((1 << remaining) - 1)
            }
        }
        let pages = Set(lockBytes.keys.map { $0 / 4 }).sorted()
        return try pages.map { page in
            // Lock pages usually lie past the data area, where a generic tag's READ answers are not
            // cached (roll-over is unknown), so the page is taken from its own READ answer.
            let current = try cache[page] ?? Array(read(page: page).prefix(4))
            let mask = (0..<4).map { lockBytes[page * 4 + $0] ?? 0x00 }
            return (page, (0..<4).map { current[$0] | mask[$0] }, mask)
        }
    }
}
