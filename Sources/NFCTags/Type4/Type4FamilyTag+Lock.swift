import NDEF

/// The read-only transition of a Type 4 tag (`docs/reference/type4.md` §1.6): refused before anything is written
/// unless the chip honours the CC's NDEF write byte, then set through that byte and proven by a refused write.
extension Type4FamilyTag {
    /// The lock method in force: the chip model's, or `.ccWriteByte` when the job says its tags honour it.
    public var lockMethod: Type4ChipModel.LockMethod {
        options.honoursCCWriteByte ? .ccWriteByte : chipModel.lockMethod
    }

    /// Refuses a job that locks on a chip whose lock `provision` cannot make; no exchange. Nothing else is
    /// checked before writing: a Type 4 tag has no password protection.
    ///
    /// - Throws: `TagError.lockUnsupported` with the chip model's reason (NTAG 424 DNA: K0 is needed).
    public func prepareWrite(hasCredentials: Bool, lock: Bool) throws {
        if lock { try checkLockable() }
    }

    /// `TagError.lockUnsupported` unless the lock method is `.ccWriteByte` or `.deliveryKey`.
    func checkLockable() throws {
        guard lockMethod == .ccWriteByte || lockMethod == .deliveryKey else {
            throw TagError(.lockUnsupported, chipModel.lockRefusal)
        }
    }

    /// Sets the CC's NDEF write byte to `FF` and proves the file refuses writes, for a chip that honours the byte.
    ///
    /// ```
    /// 00 A4 00 0C 02 E1 03           SELECT the CC file
    /// 00 D6 00 0E 01 FF              UPDATE BINARY of the write byte (offset 0E; 10 for an ENDEF TLV)
    /// 00 B0 00 00 0F (…)             READ BINARY of the CC again: the byte must read FF
    /// 00 A4 00 0C 02 E1 04           SELECT the NDEF file
    /// 00 D6 00 00 02 <NLEN>          the probe: NLEN rewritten unchanged, which must be refused with 69 82
    /// ```
    /// A CC already at `FF` (a resumed lock) is not written again; the probe still runs. Before anything is
    /// sent, a chip whose lock method is not `.ccWriteByte` is refused (a lock-only job skips `prepareWrite`).
    ///
    /// - Throws: `TagError.lockUnsupported` (nothing sent); `TagError.lockFailed` when the CC refuses the
    ///   update, reads back otherwise, or the probe is accepted (the chip does not honour the CC byte: the
    ///   tag now reads read-only to phones but still takes writes) or refused with another word.
    public func writeLock() throws {
        try checkLockable()
        var container = try tag.capabilityContainer ?? tag.readCapabilityContainer()
        if lockMethod == .deliveryKey {
            try lockWithDeliveryKey(container)
            container = try tag.readCapabilityContainer()
            guard container.writeAccess == .denied else {
                throw TagError(.lockFailed, "the CC's NDEF write access reads back \(container.writeAccess), not FFh")
            }
        } else if container.writeAccess != .denied {
            try tag.selectFile(Type4CapabilityContainer.fileIdentifier)
            do {
                try tag.updateBinary(offset: container.writeAccessOffset, [0xFF])
            } catch let error as StatusWordError {
                throw TagError(
                    .lockFailed, "the CC file refused UPDATE BINARY of its write byte: \(error)", cause: error)
            }
            container = try tag.readCapabilityContainer()
            guard container.writeAccess == .denied else {
                throw TagError(.lockFailed, "the CC's NDEF write access reads back \(container.writeAccess), not FFh")
            }
        }
        let field = Array(try tag.readNDEFFile(atLeast: container.lengthFieldSize).prefix(container.lengthFieldSize))
        let probe = try tag.exchange(CommandAPDU(ins: 0xD6, p1: 0x00, p2: 0x00, data: field))
        switch probe.status {
        case 0x6982:
            return
        case 0x9000:
            throw TagError(
                .lockFailed,
                "\(chipModel.chip.displayName) does not honour the CC write byte: with it at FFh, an UPDATE BINARY "
                    + "of NLEN was accepted (the tag reads read-only but still takes writes)")
        default:
            let word = StatusWordError(status: probe.status, instruction: 0xD6)
            throw TagError(.lockFailed, "the no-change UPDATE BINARY was answered \(word), not 6982", cause: word)
        }
    }

    /// The NDEF file control TLV of the CC as last read (unit = its offset in the CC file, 7).
    public func lockReadBack() -> [(unit: Int, bytes: [UInt8])] {
        guard let container = tag.capabilityContainer else { return [] }
        return [(Type4CapabilityContainer.fileControlOffset, container.fileControl)]
    }

    /// Permanently read-only the way `provision` locks a Type 4 tag: the CC's NDEF write access `FF`. `nil`
    /// before the CC was read.
    public func lockState() -> LockState? {
        guard let container = tag.capabilityContainer else { return nil }
        let fields = "CC NDEF file \(Hex.compact(fileBytes(container.ndefFile))) write access \(container.writeAccess)"
        guard container.writeAccess != .denied else { return LockState(isPermanent: true, fields: fields) }
        let reason = Self.reason(container.writeAccess, chip: chipModel.chip) ?? "the CC's NDEF write access is open"
        return LockState(
            isPermanent: false, fields: fields,
            openReasons: [container.writeAccess == .granted ? "the CC's NDEF write access is 00h (granted)" : reason])
    }

    /// A file identifier's two bytes.
    func fileBytes(_ file: UInt16) -> [UInt8] { [UInt8(file >> 8), UInt8(file & 0xFF)] }
}
