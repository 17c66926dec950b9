import NDEF

/// A Type 5 tag behind the family seam: `Type5Tag`'s T5T procedures in the order the pipeline asks for them,
/// with `Type5ChipModel` deciding the chip facts (`docs/reference/type5.md` §1.6, §1.7, §2).
///
/// Identification is one Get System Information `2B` (block size and count, IC reference) read with the UID
/// from the inventory. A tag that refuses it is sized by its CC alone and named by its UID.
public final class Type5FamilyTag: FamilyTag {
    /// The ISO 15693 operations underneath.
    public let tag: Type5Tag
    public let family = Type5Family.name
    /// The activation data (inventory), when the reader reported it.
    public let activation: DetectedTag?
    /// The chip model `identify()` found (`nil` before it ran).
    public private(set) var model: Type5ChipModel?
    /// The Get System Information answer, when the tag gave one.
    public private(set) var systemInformation: Type5SystemInformation?
    /// What NDEF detection found (geometry, CC, TLV, blocks read).
    public internal(set) var area: Type5NDEFArea?
    /// The security status read back after `writeLock()`.
    var lockStatus: [UInt8] = []

    /// Wraps `tag`, opened from `activation`.
    public init(_ tag: Type5Tag, activation: DetectedTag? = nil) {
        self.tag = tag
        self.activation = activation
    }

    public var chip: TagChip? { model?.chip }
    public var cost: TagOperationCost { tag.total }
    /// The chip model, the generic one until identified.
    public var chipModel: Type5ChipModel { model ?? .generic }
    public var identificationNote: String { systemInformation == nil ? " by its UID (no system information)" : "" }

    /// Get System Information `2B` (after an Inventory `01` when the reader gave no UID; Extended Get System
    /// Information `3B` when `2B` is refused), then the chip it and the UID name (`Type5ChipModel.identify`).
    /// A refusal of both, or a reader path that can send neither (PC/SC storage-card APDUs only), leaves the
    /// chip to the UID.
    @discardableResult
    public func identify() throws -> TagChip? {
        if tag.uid == nil { _ = try tag.inventory() }
        if !tag.transceiver.supportsRawCommands {
            systemInformation = nil
        } else {
            try readSystemInformation()
        }
        let identified = Type5ChipModel.identify(uid: tag.uid ?? [], information: systemInformation)
        model = identified
        tag.optionFlagOnWrites = identified.needsOptionFlagOnWrites
        return identified.chip
    }

    private func readSystemInformation() throws {
        do {
            systemInformation = try tag.getSystemInformation()
        } catch is ISO15693Error {
            // Parts with more than 256 blocks (ST25DV16K/64K) answer only the extended form (§1.3).
            do {
                systemInformation = try tag.extendedGetSystemInformation()
            } catch is ISO15693Error {
                systemInformation = nil
            }
        }
    }

    /// Blocks that may hold CC and NDEF data: Get System Information's count, bounded by the chip's limit.
    var dataBlockCount: Int? {
        let counted = systemInformation?.blockCount
        guard let limit = chipModel.dataBlockLimit else { return counted }
        return min(counted ?? limit, limit)
    }

    /// Refuses a locking job when the reader path cannot send Lock Block `22` (raw ISO 15693 commands).
    ///
    /// - Throws: `TagError.lockUnsupported` before anything is written.
    public func prepareWrite(hasCredentials: Bool, lock: Bool) throws {
        if lock && !tag.transceiver.supportsRawCommands {
            throw TagError(.lockUnsupported, "this reader path cannot send Lock Block (22h) to a Type 5 tag")
        }
    }

    /// Get System Information's UID against the inventory's. No exchange.
    public func identityAnomalies(anticollisionUID: [UInt8]) throws -> IdentityAnomalies {
        guard let information = systemInformation, anticollisionUID.count == 8, information.uid != anticollisionUID
        else { return IdentityAnomalies() }
        return IdentityAnomalies([
            "Get System Information names UID \(Hex.string(information.uid)), inventory \(Hex.string(anticollisionUID))"
        ])
    }

    /// NDEF detection (`Type5Tag.detectNDEF`), then Get Multiple Block Security Status `2C` over the CC and
    /// the NDEF TLV: read-only when the CC's write access is not `00` or a block there is locked.
    public func detectNDEF() throws -> (status: NDEFStatus, capacity: Int) {
        var found: Type5NDEFArea
        do {
            found = try tag.detectNDEF(blockCount: dataBlockCount)
        } catch let error as ISO15693Error {
            throw TagError(.notNDEF, "the tag refused reading its CC: \(error)", cause: error)
        }
        if tag.transceiver.supportsRawCommands {
            found.securityStatus = try tag.getMultipleBlockSecurityStatus(first: 0, count: found.lastTLVBlock + 1)
        }
        area = found
        let locked = found.securityStatus.contains { $0 & 0x01 != 0 }
        if found.capabilityContainer.writeAccess != 0 || locked { return (.readOnly, found.capacity) }
        return (.readWrite, found.capacity)
    }

    /// Why the tag reads read-only, when it does.
    public var statusReason: String? {
        guard let area else { return nil }
        if area.capabilityContainer.writeAccess != 0 {
            return "the CC's write access is \(area.capabilityContainer.writeAccess) (byte 1 "
                + "\(Hex.byte(area.capabilityContainer.versionAccess))h)"
        }
        if let block = area.securityStatus.firstIndex(where: { $0 & 0x01 != 0 }) { return "block \(block) is locked" }
        return nil
    }

    /// The message bytes of the NDEF TLV (Read Single/Multiple Blocks).
    public func readNDEF() throws -> [UInt8] {
        if area == nil { _ = try detectNDEF() }
        guard var current = area else { return [] }
        defer { area = current }
        return try tag.readMessage(&current)
    }

    /// The tear-safe write of `Type5Tag.writeMessage` (Write Single Block `21`).
    ///
    /// - Throws: `TagError.capacity` beyond the area (nothing sent), `.readOnly` for a locked block (`01 12`).
    public func writeNDEF(_ message: [UInt8]) throws -> NDEFWriteResult {
        if area == nil { _ = try detectNDEF() }
        guard var current = area else { throw TagError(.notNDEF, "no T5T area detected") }
        guard message.count <= current.capacity else {
            throw TagError(.capacity, "the message has \(message.count) bytes; the T5T area holds \(current.capacity)")
        }
        defer { area = current }
        do {
            return try tag.writeMessage(message, area: &current, ignoringNotProgrammed: chipModel.ignoresNotProgrammed)
        } catch let error as ISO15693Error where error.code == ISO15693Error.blockLocked {
            throw TagError(.readOnly, "Write Single Block refused: \(error)", cause: error)
        }
    }

    /// Reads back every written block and compares it (`Type5Tag.verify`); no re-activation (each write was
    /// answered after programming).
    public func verify(_ written: NDEFWriteResult, ignoring mask: [Range<Int>]) throws {
        guard var current = area else { throw TagError(.notNDEF, "no T5T area detected") }
        defer { area = current }
        try tag.verify(written, area: &current)
    }

    /// Re-activates (the reader's field reset and inventory); the next operation detects again.
    public func reactivate() throws {
        try tag.reactivate()
        area = nil
    }
}
