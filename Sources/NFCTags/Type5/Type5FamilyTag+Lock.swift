import NDEF

/// The read-only transition of a Type 5 tag (`docs/reference/type5.md` §2.6): the CC's write access `11`, then Lock
/// Block on every block holding the CC and the NDEF TLV, confirmed by the block security status.
extension Type5FamilyTag {
    /// Makes the tag permanently read-only.
    ///
    /// ```
    /// 22 21 UID 00 E1 43 0E 01      Write Single Block 0: CC byte 1 |= 03 (skipped when already set)
    /// 22 22 UID bb                  Lock Block, every block 0…n (CC and NDEF TLV, terminator included) not known
    ///                               locked from detection; 01 11 (already locked) is the state wanted
    /// 22 2C UID 00 nn               read back: every status must be 01
    /// ```
    /// No security status is read before locking: detection's covers the blocks it read, and a block locked
    /// since answers `01 11`, so the minimum is one Lock Block per open block and the confirming read.
    /// - Throws: `TagError.lockUnsupported` when the reader path cannot send Lock Block (nothing sent);
    ///   `.lockFailed` when a Lock Block is refused or a block reads back unlocked; transport errors.
    public func writeLock() throws {
        try prepareWrite(hasCredentials: false, lock: true)
        if area == nil { _ = try detectNDEF() }
        guard var current = area else { throw TagError(.notNDEF, "no T5T area detected") }
        let cc = current.capabilityContainer
        let last = current.lastTLVBlock
        if cc.writeAccess != 0x03 {
            var block0 = try current.blocks[0] ?? tag.readSingleBlock(0)
            let ccBytes = cc.readOnly.bytes
            for index in 0..<min(block0.count, ccBytes.count) { block0[index] = ccBytes[index] }
            do {
                try tag.writeSingleBlock(0, block0, ignoringNotProgrammed: chipModel.ignoresNotProgrammed)
            } catch let error as ISO15693Error {
                throw TagError(.lockFailed, "Write Single Block of the CC refused: \(error)", page: 0, cause: error)
            }
            current.blocks[0] = block0
            current.capabilityContainer = cc.readOnly
        }
        let known = current.securityStatus
        for block in 0...last where block >= known.count || known[block] & 0x01 == 0 {
            do {
                try tag.lockBlock(block, ignoringNotProgrammed: chipModel.ignoresNotProgrammed)
            } catch let error as ISO15693Error where error.code == ISO15693Error.blockAlreadyLocked {
                continue
            } catch let error as ISO15693Error {
                throw TagError(.lockFailed, "Lock Block \(block) refused: \(error)", page: block, cause: error)
            }
        }
        lockStatus = try tag.getMultipleBlockSecurityStatus(first: 0, count: last + 1)
        current.securityStatus = lockStatus
        area = current
        if let open = lockStatus.firstIndex(where: { $0 & 0x01 == 0 }) {
            throw TagError(.lockFailed, "block \(open) reads back unlocked after Lock Block", page: open)
        }
    }

    /// The security status read back after `writeLock()`, one entry per block (unit = block number).
    public func lockReadBack() -> [(unit: Int, bytes: [UInt8])] {
        lockStatus.enumerated().map { (unit: $0.offset, bytes: [$0.element]) }
    }

    /// Permanently read-only the way `provision` locks a Type 5 tag: CC write access `11` and every block of
    /// the CC and the NDEF TLV locked. `nil` before detection read the security status.
    public func lockState() -> LockState? {
        guard let area, !area.securityStatus.isEmpty else { return nil }
        let locked = area.securityStatus.filter { $0 & 0x01 != 0 }.count
        let fields =
            "CC \(Hex.string(area.capabilityContainer.bytes)), \(locked) of \(area.securityStatus.count) "
            + "blocks locked"
        var reasons: [String] = []
        if area.capabilityContainer.writeAccess != 0x03 {
            reasons.append("the CC's write access is \(area.capabilityContainer.writeAccess), not 3 (never)")
        }
        if let open = area.securityStatus.firstIndex(where: { $0 & 0x01 == 0 }) {
            reasons.append("block \(open) is not locked")
        }
        return LockState(isPermanent: reasons.isEmpty, fields: fields, openReasons: reasons)
    }
}
