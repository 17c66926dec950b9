/// The NTAG21x capabilities behind the seam: password protection, the ASCII mirror and the
/// originality signature (`docs/reference/type2.md` §3.6–§3.9, §6).
extension Type2FamilyTag: PasswordProtectable, MirrorConfigurable, OriginalitySigned {
    /// Re-provisioning: a tag whose AUTH0 lies within its pages (or whose configuration pages refuse
    /// READ) is authenticated with its password (PWD_AUTH `1Bh`) before anything is written.
    public func unlockIfProtected(_ protection: PasswordProtection) throws -> Bool {
        guard let chip = tag.chip, chip.isNTAG, !judgedByCC else { return false }
        let wasProtected: Bool
        do {
            wasProtected = try tag.readConfiguration().protectsAnyPage(on: chip)
        } catch let error as TransportError where error != .tagLost {
            wasProtected = true  // PROT = 1: the configuration pages themselves are read-protected
        }
        if wasProtected { try authenticate(protection) }
        return wasProtected
    }

    /// PWD_AUTH `1Bh`, checking the PACK.
    public func authenticate(password: [UInt8], acknowledge: [UInt8]) throws {
        try tag.authenticate(password: password, expectedPACK: acknowledge)
    }

    /// Sets protection in the safe order of `docs/reference/type2.md` §3.9 — WRITE `A2` of PWD, PACK, CFG1
    /// (ACCESS), then CFG0 (AUTH0) last; CFGLCK, if asked, by an authenticated CFG1 WRITE after that —
    /// re-activates, checks that PWD_AUTH `1Bh` returns the PACK, and that an unauthenticated WRITE to a
    /// protected page is refused. The CC's access bits are never touched, so phones still read the message.
    public func protect(_ protection: PasswordProtection) throws {
        guard let chip = tag.chip, chip.isNTAG else {
            throw TagError(.protectFailed, "password protection needs an NTAG21x")
        }
        let auth0 = Self.auth0Page(protection.start, on: chip)
        let probePage = min(auth0, chip.cfg0Page)
        let probe = Array(try tag.read(page: probePage).prefix(4))
        let current = try tag.readConfiguration()
        if current.protectsAnyPage(on: chip) {
            // A retry or a resumed tag: the configuration pages already need the password.
            try authenticate(protection)
        }
        let access = (current.access & 0x10) | protection.accessBits
        let cfg0 = [current.cfg0[0], current.cfg0[1], current.cfg0[2], UInt8(auth0)]
        try tag.write(page: chip.pwdPage, data: protection.password)
        try tag.write(page: chip.packPage, data: protection.acknowledge + [0x00, 0x00])
        try tag.write(page: chip.cfg1Page, data: [access & ~0x40, current.cfg1[1], 0x00, 0x00])
        try tag.write(page: chip.cfg0Page, data: cfg0)
        try tag.reactivate()
        try authenticate(protection)
        if access & 0x40 != 0 {
            // CFGLCK last, authenticated: a chip that applies it at once would refuse the CFG0 write.
            try tag.write(page: chip.cfg1Page, data: [access, current.cfg1[1], 0x00, 0x00])
        }
        try tag.reactivate()
        do {
            try tag.write(page: probePage, data: probePage == chip.cfg0Page ? cfg0 : probe)
        } catch let error as TransportError where error != .tagLost {
            return  // refused without the password, as it must be (the NAK re-activated the tag)
        } catch let error as TagError where (error.cause as? TransportError).map({ $0 != .tagLost }) ?? false {
            return
        }
        throw TagError(
            .protectFailed, "an unauthenticated WRITE to protected page \(probePage) was accepted", page: probePage)
    }

    /// The AUTH0 page for `start` on `chip`: the page given, the first user page for `ndef`, CFG0 for `end`.
    public static func auth0Page(_ start: PasswordProtection.Start, on chip: ChipModel) -> Int {
        switch start {
        case .page(let page): min(page, 0xFF)
        case .ndef: chip.firstUserPage
        case .end: chip.cfg0Page
        }
    }

    /// The ACCESS byte's bits for `protection`: PROT (80h), CFGLCK (40h), AUTHLIM (07h); NFC_CNT_EN is kept.
    /// The window CFG0 mirrors into (MIRROR_CONF, MIRROR_PAGE, MIRROR_BYTE; lengths from `MirrorKind`).
    public func activeMirrorWindow() throws -> [Range<Int>] {
        guard tag.chip?.isNTAG == true else { return [] }
        let configuration = try tag.readConfiguration()
        let conf = configuration.mirror >> 6
        guard let kind = MirrorKind.allCases.first(where: { $0.configuration == conf }), configuration.mirrorPage >= 4
        else { return [] }
        let start = Int(configuration.mirrorPage) * 4 + Int(configuration.mirror >> 4 & 0x03)
        return [start..<start + kind.length]
    }

    /// WRITE `A2` of CFG1 with NFC_CNT_EN when the counter shows, then CFG0 (MIRROR_CONF, MIRROR_BYTE,
    /// STRG_MOD_EN kept; MIRROR_PAGE); re-activates and checks with FAST_READ `3Ah` that the window
    /// reads as the UID (and a 6-digit counter).
    public func configureMirror(_ mirror: MirrorPlan, uid: [UInt8]) throws {
        guard let chip = tag.chip, chip.isNTAG, mirror.page >= 4, mirror.lastPage <= chip.lastUserPage else {
            throw TagError(
                .capacity,
                "the mirror window (pages \(mirror.page)…\(mirror.lastPage)) does not fit "
                    + "the user memory of \(tag.chip?.displayName ?? "a generic Type 2 tag")")
        }
        let current = try tag.readConfiguration()
        if mirror.kind.usesCounter, current.access & 0x10 == 0 {
            try tag.write(page: chip.cfg1Page, data: [current.access | 0x10, current.cfg1[1], 0x00, 0x00])
        }
        let mirrorByte = mirror.mirrorByte(keeping: current.cfg0[0])
        try tag.write(page: chip.cfg0Page, data: [mirrorByte, current.cfg0[1], UInt8(mirror.page), current.cfg0[3]])
        try tag.reactivate()
        let bytes = try tag.fastRead(from: mirror.page, through: mirror.lastPage)
        let shown = String(decoding: bytes[mirror.byte..<(mirror.byte + mirror.kind.length)], as: UTF8.self)
        guard mirror.kind.isMirrored(shown, uid: uid) else {
            throw TagError(
                .verifyMismatch, "the mirror window reads '\(shown)', expected \(mirror.kind.rawValue) in ASCII",
                page: mirror.page)
        }
    }

    public var canReadSignature: Bool { tag.transceiver.supportsRawCommands && !judgedByCC }

    /// READ_SIG `3Ch`.
    public func readSignature() throws -> [UInt8] { try tag.readSignature() }

    /// Pages 0–1 (READ `30 00` unless cached).
    public func signedUID() throws -> [UInt8] { try tag.readUID() }
}

extension PasswordProtection {
    /// The NTAG21x ACCESS bits this protection sets: PROT (80h), CFGLCK (40h), AUTHLIM (07h).
    public var accessBits: UInt8 {
        (protectsReads ? 0x80 : 0) | (configLock ? 0x40 : 0) | UInt8(authLimit & 0x07)
    }
}
