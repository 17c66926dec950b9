import NDEF

/// A Type 2 tag behind the family seam: `Type2Tag`'s operations in the order the pipeline asks for
/// them, with the chip model deciding every chip fact.
///
/// On a reader path without raw commands (PC/SC style `plain`) GET_VERSION cannot be sent: `identify()`
/// runs NDEF detection and takes the chip from the data-area size its CC declares (CC2 of the factory
/// CC, `docs/reference/type2.md` §5.1), and the configuration checks are skipped (no FAST_READ, no READ_SIG).
public final class Type2FamilyTag: FamilyTag {
    /// The Type 2 operations underneath (page cache, cost counters).
    public let tag: Type2Tag
    public let family = Type2Family.name
    public private(set) var identificationNote = ""
    /// Whether the chip was judged by its CC because the reader cannot send GET_VERSION.
    var judgedByCC = false

    /// Wraps `tag`.
    public init(_ tag: Type2Tag) {
        self.tag = tag
    }

    public var chip: TagChip? { tag.chip?.tagChip }
    public var cost: TagOperationCost { tag.total }

    /// GET_VERSION `60`; without a raw path, NDEF detection and the CC size instead.
    @discardableResult
    public func identify() throws -> TagChip? {
        let identity = try tag.identify()
        guard identity.chip == nil, !tag.transceiver.supportsRawCommands else { return identity.chip?.tagChip }
        let area = try tag.detectNDEF()
        judgedByCC = true
        identificationNote = " by its CC size (the reader cannot send GET_VERSION)"
        guard
            let chip = ChipModel.allCases.first(where: { $0.factoryCC[2] != 0 && $0.factoryCC[2] == area.cc.bytes[2] })
        else { return nil }
        tag.assume(chip)
        return chip.tagChip
    }

    /// READ of the dynamic lock page (lock bytes, CFG0 with AUTH0, CFG1), then one FAST_READ of pages
    /// 0 through the factory NDEF length page. Without credentials, a tag whose AUTH0 lies within its
    /// user pages, or whose configuration pages refuse READ (PROT = 1), is refused before any WRITE. Every
    /// Type 2 tag can be locked (CC and lock bits), so `lock` changes nothing.
    public func prepareWrite(hasCredentials: Bool, lock: Bool) throws {
        guard let chip = tag.chip, !judgedByCC else { return }
        let configuration: Type2Configuration
        do {
            configuration = try tag.readConfiguration()
        } catch let error as TransportError where error == .nak(0x0) && !hasCredentials {
            // A protected page is refused with NAK 0h (§3.6); other NAKs, silence and reader errors keep their class.
            throw TagError(
                .readOnly,
                "the configuration pages refuse READ (\(error)): the tag is password-protected and the job has no key")
        }
        if !hasCredentials, configuration.isPasswordProtected(on: chip) {
            throw TagError(
                .readOnly,
                "the tag is password-protected from page \(configuration.auth0) (AUTH0) and the job has no key")
        }
        try tag.readHeader()
    }

    /// The identity cross-check of `docs/reference/type2.md` §11 on pages 0–2 as identify read them: the
    /// anticollision UID, BCC0, BCC1 and INT = `48` on an NXP tag. UID0 ≠ `04` alone (other makers'
    /// Type 2 tags), and INT on a generic non-NXP tag, are not refusable.
    public func identityAnomalies(anticollisionUID: [UInt8]) throws -> IdentityAnomalies {
        let uid = anticollisionUID.count == 7 ? anticollisionUID : nil
        let found = Self.refusable(
            try tag.identityAnomalies(anticollisionUID: uid), chip: tag.chip, uid0: tag.cachedPage(0)?.first)
        return IdentityAnomalies(found.map(\.description), unit: 0)
    }

    /// The anomalies a line acts on: a UID in pages 0–1 other than the anticollision UID, a wrong BCC0
    /// or BCC1, and INT ≠ `48` on an NXP tag (a chip GET_VERSION or the CC named, or UID0 = `04`).
    public static func refusable(_ anomalies: [UIDAnomaly], chip: ChipModel?, uid0: UInt8?) -> [UIDAnomaly] {
        anomalies.filter { anomaly in
            switch anomaly {
            case .notNXP: false
            case .internalByte: chip != nil || uid0 == 0x04
            case .bcc0, .bcc1, .uidDiffers: true
            }
        }
    }

    public func detectNDEF() throws -> (status: NDEFStatus, capacity: Int) {
        let area = try tag.area ?? tag.detectNDEF()
        return (area.status, area.capacity)
    }

    public func readNDEF() throws -> [UInt8] { try tag.readNDEF() }

    public func writeNDEF(_ message: [UInt8]) throws -> NDEFWriteResult { try tag.writeNDEF(message) }

    public func verify(_ written: NDEFWriteResult, ignoring mask: [Range<Int>]) throws {
        try tag.verify(written, ignoring: mask)
    }

    public func writeLock() throws { try tag.writeLock() }

    /// Pages 2 and 3 (static lock bytes, CC) and the chip's dynamic lock page, as last read.
    public func lockReadBack() -> [(unit: Int, bytes: [UInt8])] {
        var pages = [2, 3]
        if let page = tag.chip?.dynamicLockPage { pages.append(page) }
        return pages.compactMap { page in tag.cachedPage(page).map { (page, $0) } }
    }

    /// The lock state from pages 2 and 3 as detection read them (`lockState(cc3:staticLock:)`).
    public func lockState() -> LockState? {
        Self.lockState(cc3: tag.cachedPage(3)?[3], staticLock: tag.cachedPage(2).map { Array($0[2..<4]) })
    }

    /// Permanently read-only as `provision` locks a Type 2 tag: CC3 write nibble `F` and static lock
    /// bytes `FF FF` (`docs/reference/type2.md` §5.7); `nil` when neither was read.
    public static func lockState(cc3: UInt8?, staticLock: [UInt8]?) -> LockState? {
        guard cc3 != nil || staticLock != nil else { return nil }
        var open: [String] = []
        if let cc3, cc3 & 0x0F != 0x0F { open.append("CC3 is \(Hex.string([cc3])) (write access open)") }
        if let staticLock, staticLock != [0xFF, 0xFF] {
            open.append("static lock bytes are \(Hex.string(staticLock))")
        }
        let fields = "CC3 \(Hex.string([cc3 ?? 0])), static lock bytes \(Hex.string(staticLock ?? []))"
        return LockState(
            isPermanent: cc3 != nil && staticLock != nil && open.isEmpty, fields: fields, openReasons: open)
    }

    public func reactivate() throws { try tag.reactivate() }

    /// The configuration pages (dynamic lock, CFG0, CFG1) by one read, for an audit of a job that
    /// protects or mirrors: FAST_READ `3Ah` does not roll over, so a read-protected configuration NAKs.
    public func readConfiguration() throws -> Type2Configuration {
        if let chip = tag.chip { _ = try tag.readPages((chip.dynamicLockPage ?? chip.cfg0Page)...chip.cfg1Page) }
        return try tag.readConfiguration()
    }

    /// `readConfiguration()` with the chip that places its fields.
    ///
    /// - Throws: `TagError.unknownChip` on a generic Type 2 tag; `TransportError`.
    public func readChipConfiguration() throws -> any ChipConfiguration {
        let pages = try readConfiguration()
        guard let chip = tag.chip else {
            throw TagError(.unknownChip, "the configuration pages of a generic Type 2 tag are unknown")
        }
        return Type2ChipConfiguration(pages, chip: chip)
    }

    public var passwordProtection: (any PasswordProtectable)? { tag.chip != nil ? self : nil }
    public var mirror: (any MirrorConfigurable)? { tag.chip != nil ? self : nil }
    public var originality: (any OriginalitySigned)? { self }
    /// Every Type 2 tag: a generic one answers `unknownChip`, which an audit reports as unreadable.
    public var configuration: (any ConfigurationReadable)? { self }
}

extension Type2FamilyTag: ConfigurationReadable {}
