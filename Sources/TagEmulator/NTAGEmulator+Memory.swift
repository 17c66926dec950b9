import NDEF
import NFCTags

/// Memory layout, configuration, lock bits and the mirror (`docs/reference/type2.md` §2, §6).
extension NTAGEmulator {
    /// The factory image of `chip` with `uid` (`docs/reference/type2.md` §2.8).
    ///
    /// NTAG213 pages 4–5 hold `01 03 A0 0C 34 03 00 FE` (Lock Control, empty NDEF, Terminator);
    /// NTAG215/216 `03 00 FE`; EV1 user memory and OTP page 3 are zero. Dynamic lock page `00 00 00 BD`,
    /// CFG0 `04 00 00 FF` (EV1 `00 00 00 FF`), CFG1 `00 xx 00 00` with xx = `cfg1Byte1` on NTAG213/215 and
    /// `05` on NTAG216 and EV1, PWD `FF FF FF FF`, PACK `00 00 00 00`.
    public static func factoryImage(chip: ChipModel, uid: [UInt8], configuration: EmulatorConfiguration = .init())
        -> [UInt8]
    {
        var image = [UInt8](repeating: 0, count: chip.pageCount * 4)
        let u = uid.count == 7 ? uid : [UInt8](repeating: 0, count: 7)
        let bcc0 = 0x88 ^ u[0] ^ u[1] ^ u[2]
        let bcc1 = u[3] ^ u[4] ^ u[5] ^ u[6]
        image.replaceSubrange(0..<12, with: [u[0], u[1], u[2], bcc0, u[3], u[4], u[5], u[6], bcc1, 0x48, 0x00, 0x00])
        image.replaceSubrange(12..<16, with: chip.factoryCC)
        switch chip {
        case .ntag213: image.replaceSubrange(16..<24, with: [0x01, 0x03, 0xA0, 0x0C, 0x34, 0x03, 0x00, 0xFE])
        case .ntag215, .ntag216: image.replaceSubrange(16..<20, with: [0x03, 0x00, 0xFE, 0x00])
        case .mf0ul11, .mf0ul21: break
        }
        if let lockPage = chip.dynamicLockPage { image[lockPage * 4 + 3] = 0xBD }
        image[chip.cfg0Page * 4] = chip.isNTAG ? 0x04 : 0x00
        image[chip.cfg0Page * 4 + 3] = 0xFF
        image[chip.cfg1Page * 4 + 1] = (chip == .ntag213 || chip == .ntag215) ? configuration.cfg1Byte1 : 0x05
        image.replaceSubrange(chip.pwdPage * 4..<chip.pwdPage * 4 + 4, with: [0xFF, 0xFF, 0xFF, 0xFF])
        return image
    }

    /// The 4 stored bytes of `page`.
    public func storedPage(_ page: Int) -> [UInt8] { Array(image[page * 4..<page * 4 + 4]) }

    func setPage(_ page: Int, _ bytes: [UInt8]) { image.replaceSubrange(page * 4..<page * 4 + 4, with: bytes) }

    // MARK: Configuration (CFG0/CFG1, §2.6)

    var liveConfigLock: Bool { image[chip.cfg1Page * 4] & 0x40 != 0 }

    func takeConfigSnapshot() {
        configSnapshot = Array(image[chip.cfg0Page * 4..<chip.cfg0Page * 4 + 8])
    }

    /// CFG0 ‖ CFG1 as they act now (live under `.immediate`, else as at the last REQA/WUPA).
    var activeConfig: [UInt8] {
        configuration.configActivation == .immediate
            ? Array(image[chip.cfg0Page * 4..<chip.cfg0Page * 4 + 8]) : configSnapshot
    }

    /// Byte `index` of `activeConfig`, read in place (every command checks AUTH0 or ACCESS).
    func activeConfigByte(_ index: Int) -> UInt8 {
        configuration.configActivation == .immediate ? image[chip.cfg0Page * 4 + index] : configSnapshot[index]
    }

    /// AUTH0: first protected page.
    var auth0: Int { Int(activeConfigByte(3)) }
    /// ACCESS byte of CFG1.
    var access: UInt8 { activeConfigByte(4) }
    /// PROT (ACCESS b7): reads need the password too.
    var readProtected: Bool { access & 0x80 != 0 }
    /// CFGLCK (ACCESS b6) as it acts now (next power-up under `.nextActivation`).
    var configLocked: Bool { configuration.configActivation == .immediate ? liveConfigLock : configLockSnapshot }
    /// NFC_CNT_EN (ACCESS b4), NTAG only.
    var counterEnabled: Bool { chip.isNTAG && access & 0x10 != 0 }
    /// NFC_CNT_PWD_PROT (ACCESS b3), NTAG only.
    var counterProtected: Bool { chip.isNTAG && access & 0x08 != 0 }
    /// AUTHLIM (ACCESS b2–0).
    var authLimit: Int { Int(access & 0x07) }
    var isAuthenticated: Bool { state == .authenticated }

    // MARK: Locks (§2.3, §2.5)

    func takeLockSnapshot() {
        var bytes = [image[10], image[11]]
        if let page = chip.dynamicLockPage { bytes += image[page * 4..<page * 4 + 3] } else { bytes += [0, 0, 0] }
        lockSnapshot = bytes
    }

    /// LOCK0…LOCK4 as they act now.
    var activeLocks: [UInt8] {
        if configuration.lockActivation == .nextActivation { return lockSnapshot }
        var bytes = [image[10], image[11]]
        if let page = chip.dynamicLockPage { bytes += image[page * 4..<page * 4 + 3] } else { bytes += [0, 0, 0] }
        return bytes
    }

    /// LOCK`index` of `activeLocks`, read in place (every WRITE checks the lock bits).
    func activeLockByte(_ index: Int) -> UInt8 {
        if configuration.lockActivation == .nextActivation { return lockSnapshot[index] }
        if index < 2 { return image[10 + index] }
        guard let page = chip.dynamicLockPage else { return 0 }
        return image[page * 4 + index - 2]
    }

    /// Whether a static (pages 3–15) or dynamic (16…last user page) lock bit makes `page` read-only.
    func isLocked(_ page: Int) -> Bool {
        if (3...15).contains(page) {
            let word = Int(activeLockByte(0)) | Int(activeLockByte(1)) << 8
            return word & (1 << page) != 0
        }
        guard chip.dynamicLockPage != nil, page >= 16, page <= chip.lastUserPage else { return false }
        let bit = (page - 16) / chip.pagesPerDynamicLockBit
        guard bit < 16 else { return false }
        return activeLockByte(2 + bit / 8) & (1 << (bit % 8)) != 0
    }

    /// Page 2 write: OR data bytes 2–3 into LOCK0/LOCK1, sparing bits frozen by block-lock bits.
    func mergedStaticLocks(_ data: [UInt8]) -> [UInt8] {
        let old0 = image[10]
        let old1 = image[11]
        var mask0: UInt8 = 0xFF
        var mask1: UInt8 = 0xFF
        if old0 & 0x01 != 0 { mask0 &= ~0x08 }  // BL-CC freezes L-CC
        if old0 & 0x02 != 0 {  // BL 9-4 freezes L4…L9
            mask0 &= ~0xF0
            mask1 &= ~0x03
        }
        if old0 & 0x04 != 0 { mask1 &= ~0xFC }  // BL 15-10 freezes L10…L15
        return [image[8], image[9], old0 | (data[2] & mask0), old1 | (data[3] & mask1)]
    }

    /// Dynamic lock page write: OR bytes 0–2 (block-lock bit i freezes lock bits 2i and 2i+1), keep byte 3.
    func mergedDynamicLocks(page: Int, _ data: [UInt8]) -> [UInt8] {
        let old = storedPage(page)
        let allowed = configuration.storeRFUILockBits ? [0xFF, 0xFF, 0xFF] : (chip.dynamicLockAllBits ?? [0, 0, 0])
        var new = old
        for i in 0..<16 where data[i / 8] & (1 << (i % 8)) != 0 && allowed[i / 8] & (1 << (i % 8)) != 0 {
            if old[2] & (1 << (i / 2)) == 0 { new[i / 8] |= 1 << (i % 8) }
        }
        new[2] |= data[2] & allowed[2]
        return new
    }

    /// Whether a torn write keeps the page old-or-new whole (pages 2, 3, dynamic lock; §3.5).
    func isTearProtected(_ page: Int) -> Bool { page == 2 || page == 3 || page == chip.dynamicLockPage }

    /// Programs one page, or tears it when the tag is leaving mid-write.
    func program(page: Int, _ bytes: [UInt8]) {
        programmedThisExchange = true
        guard tearing else {
            setPage(page, bytes)
            onMemoryWritten?()
            return
        }
        let old = storedPage(page)
        if isTearProtected(page) {
            if rng.next() & 1 == 1 { setPage(page, bytes) }
        } else {
            setPage(page, (0..<4).map { rng.next() & 1 == 1 ? bytes[$0] : old[$0] })
        }
    }

    // MARK: Faults that shape the image

    /// Blanks the capability container and pages 4–5 (the `unformatted` fault).
    public static func blankCapabilityContainer(_ image: inout [UInt8]) {
        for index in 12..<24 where index < image.count { image[index] = 0 }
    }

    /// Locks an image the way `writeLock` does: CC3 |= 0F, static `FF FF`, every dynamic lock bit
    /// (the `preLocked` fault).
    public static func lockPermanently(_ image: inout [UInt8], chip: ChipModel) {
        guard image.count == chip.pageCount * 4 else { return }
        if image[12] == 0xE1 { image[15] |= 0x0F }
        image[10] = 0xFF
        image[11] = 0xFF
        if let page = chip.dynamicLockPage, let bits = chip.dynamicLockAllBits {
            for i in 0..<3 { image[page * 4 + i] |= bits[i] }
        }
    }

    // MARK: Reads and the mirror (§3.3, §6)

    /// The bytes a READ returns for `page`: PWD and PACK read as zeros.
    func readablePage(_ page: Int) -> [UInt8] {
        page == chip.pwdPage || page == chip.packPage ? [0, 0, 0, 0] : storedPage(page)
    }

    /// Notes a valid READ/FAST_READ: increments the NFC counter once per power-up when enabled.
    ///
    /// - Returns: the counter value the mirror shows (§12 #7).
    func countRead() -> UInt32 {
        let old = nfcCounter
        if counterEnabled && !counterIncrementedThisPowerUp {
            counterIncrementedThisPowerUp = true
            if nfcCounter < 0xFF_FFFF { nfcCounter += 1 }
        }
        return configuration.mirrorShowsIncrementedCounter ? nfcCounter : old
    }

    /// The mirror overlay: absolute byte address → ASCII byte (§6).
    func mirrorOverlay(counter: UInt32) -> [Int: UInt8] {
        guard chip.isNTAG else { return [:] }
        let cfg = activeConfig
        let mode = cfg[0] >> 6
        let page = Int(cfg[2])
        guard mode != 0, page >= 4 else { return [:] }
        let start = page * 4 + Int((cfg[0] >> 4) & 0x03)
        let end = chip.lastUserPage * 4 + 3
        let uidText = Array(Hex.compact(uid).utf8)
        let counterText = Array(
            Hex.compact([UInt8(counter >> 16 & 0xFF), UInt8(counter >> 8 & 0xFF), UInt8(counter & 0xFF)]).utf8)
        let showCounter = counterEnabled && (!counterProtected || isAuthenticated)
        var overlay: [Int: UInt8] = [:]
        func put(_ text: [UInt8], at address: Int) {
            guard address + text.count - 1 <= end else { return }
            for (offset, byte) in text.enumerated() { overlay[address + offset] = byte }
        }
        switch mode {
        case 1: put(uidText, at: start)
        case 2: if showCounter { put(counterText, at: start) }
        default:
            put(uidText, at: start)
            if showCounter { put(counterText, at: start + 15) }
        }
        return overlay
    }

    /// READ/FAST_READ answer for `pages` with PWD/PACK blanked and the mirror applied.
    func readAnswer(pages: [Int], counter: UInt32) -> [UInt8] {
        let overlay = mirrorOverlay(counter: counter)
        var out: [UInt8] = []
        out.reserveCapacity(pages.count * 4)
        if overlay.isEmpty {
            // No mirror (the common case): the stored bytes, PWD and PACK blanked, without a look-up a byte.
            for page in pages {
                if page == chip.pwdPage || page == chip.packPage {
                    out.append(contentsOf: [0, 0, 0, 0])
                } else {
                    out.append(contentsOf: image[page * 4..<page * 4 + 4])
                }
            }
            return out
        }
        for page in pages {
            let bytes = readablePage(page)
            for offset in 0..<4 { out.append(overlay[page * 4 + offset] ?? bytes[offset]) }
        }
        return out
    }
}
