import NFCTags

/// The tag's configuration steps of a cycle: the ASCII mirror and per-tag password protection.
extension TagCycleRunner {
    /// Configures the ASCII mirror (`type2-ntag.md` §6): WRITE `A2` of CFG1 with NFC_CNT_EN when the
    /// counter shows, then CFG0 (MIRROR_CONF, MIRROR_BYTE, STRG_MOD_EN kept; MIRROR_PAGE); re-activates
    /// and checks with FAST_READ `3Ah` that the window reads as the UID (and a 6-digit counter).
    func configureMirror(_ mirror: MirrorPlan, chip: ChipModel) throws {
        guard chip.isNTAG, mirror.page >= 4, mirror.lastPage <= chip.lastUserPage else {
            throw CycleFailure(
                .capacity, phase: .verify,
                "the mirror window (pages \(mirror.page)…\(mirror.lastPage)) does not fit "
                    + "the user memory of \(chip.displayName)")
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
        guard mirror.kind.isMirrored(shown, uid: plan.uid) else {
            throw CycleFailure(
                .verifyMismatch, phase: .verify, page: mirror.page,
                "the mirror window reads '\(shown)', expected \(mirror.kind.rawValue) in ASCII")
        }
    }

    /// Sets per-tag password protection in the safe order of `type2-ntag.md` §3.9 — WRITE `A2` of PWD,
    /// PACK, CFG1 (ACCESS), then CFG0 (AUTH0) last; CFGLCK, if asked, is set by an authenticated CFG1
    /// WRITE after that — re-activates, checks PWD_AUTH `1Bh` returns the
    /// expected PACK, and checks that an unauthenticated WRITE to a protected page is refused. The
    /// CC's access bits are never touched, so phones still read the NDEF message.
    func protect(_ plan: ProtectionPlan, chip: ChipModel) throws {
        guard chip.isNTAG else {
            throw CycleFailure(.protectFailed, phase: .lock, "password protection needs an NTAG21x")
        }
        let auth0 = plan.auth0Page(on: chip)
        let probePage = min(auth0, chip.cfg0Page)
        let probe = Array(try tag.read(page: probePage).prefix(4))
        let current = try tag.readConfiguration()
        if current.isPasswordProtected(on: chip) || Int(current.auth0) <= chip.lastPage {
            // A retry or a resumed tag: the configuration pages already need the password.
            try authenticated(plan)
        }
        let access = (current.access & 0x10) | plan.accessBits
        try tag.write(page: chip.pwdPage, data: plan.password.pwd)
        try tag.write(page: chip.packPage, data: plan.password.pack + [0x00, 0x00])
        try tag.write(page: chip.cfg1Page, data: [access & ~0x40, current.cfg1[1], 0x00, 0x00])
        try tag.write(page: chip.cfg0Page, data: [current.cfg0[0], current.cfg0[1], current.cfg0[2], UInt8(auth0)])
        try tag.reactivate()
        try authenticated(plan)
        if access & 0x40 != 0 {
            // CFGLCK last, authenticated: a chip that applies it at once would refuse the CFG0 write.
            try tag.write(page: chip.cfg1Page, data: [access, current.cfg1[1], 0x00, 0x00])
        }
        try tag.reactivate()
        let written =
            probePage == chip.cfg0Page
            ? [current.cfg0[0], current.cfg0[1], current.cfg0[2], UInt8(auth0)] : probe
        do {
            try tag.write(page: probePage, data: written)
        } catch let error as TransportError where error != .tagLost {
            return  // refused without the password, as it must be (the NAK re-activated the tag)
        } catch let error as Type2Error where (error.cause as? TransportError).map({ $0 != .tagLost }) ?? false {
            return
        }
        throw CycleFailure(
            .protectFailed, phase: .lock, page: probePage,
            "an unauthenticated WRITE to protected page \(probePage) was accepted")
    }

    /// Re-provisioning: a tag that already needs the password (AUTH0 within its pages, or reads
    /// refused) is authenticated with its derived password before anything is written.
    func unlockIfProtected(_ plan: ProtectionPlan, chip: ChipModel) throws {
        guard chip.isNTAG else { return }
        do {
            let configuration = try tag.readConfiguration()
            wasProtected = Int(configuration.auth0) <= chip.lastPage
        } catch let error as TransportError where error != .tagLost {
            wasProtected = true  // PROT = 1: the configuration pages themselves are read-protected
        }
        if wasProtected { try authenticated(plan) }
    }

    /// PWD_AUTH with the tag's derived password, as a protection failure when refused.
    func authenticated(_ plan: ProtectionPlan) throws {
        do {
            try tag.authenticate(password: plan.password.pwd, expectedPACK: plan.password.pack)
        } catch let error as Type2Error where error.code == .authenticationFailed {
            throw CycleFailure(
                .protectFailed, phase: .lock, "PWD_AUTH with the derived password failed: \(error.message)")
        }
    }
}
