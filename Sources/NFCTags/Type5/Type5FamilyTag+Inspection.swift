/// `provision inspect` on a Type 5 tag: the UID and Get System Information, the CC and block security status,
/// the message, and with `dump` every block, as family-neutral values (`TagInspection`).
extension Type5FamilyTag: Inspectable {
    public var inspection: (any Inspectable)? { self }

    /// Identifies with Get System Information `2B`, runs NDEF detection (Read Single/Multiple Blocks, Get
    /// Multiple Block Security Status `2C`) and reads the message; with `dump`, every block. A Type 5 tag has no
    /// password `provision` uses, so a `password` is noted as not sent.
    public func inspect(
        anticollisionUID: [UInt8], dump: Bool, password: InspectionPassword?
    ) throws -> TagInspection {
        try identify()
        let uid = tag.uid ?? anticollisionUID
        var result = TagInspection(
            identity: TagInspection.Identity(
                chip: chip, genericName: Type5ChipModel.generic.displayName, vendor: uid.count > 1 ? uid[1] : nil,
                genericReason: chipModel == .generic
                    ? "the UID and system information name no chip provision knows" : nil))
        result.identifyCost = tag.total
        result.anomalies = try identityAnomalies(anticollisionUID: anticollisionUID).descriptions
        if password != nil {
            result.authentication = .init(status: "notSent", detail: "provision sets no password on Type 5 tags")
        }
        result.protection = Type5SystemSection(uid: uid, information: systemInformation)
        do {
            let (status, capacity) = try queryNDEFStatus()
            (result.status, result.capacity) = (status, capacity)
            if status != .notSupported, let area {
                result.messageLength = area.messageLength
                result.message = try readNDEF()
            }
        } catch let error as TagError {
            result.ndefError = error.message
        } catch let error as ISO15693Error {
            result.ndefError = "the tag refused: \(error)"
        }
        if let area {
            result.locks = Type5LockSection(area)
            if let reason = statusReason { result.notes.append(reason) }
        }
        if dump { try dumpBlocks(into: &result) }
        result.cost = tag.total
        result.cost.subtract(result.identifyCost)
        return result
    }

    /// Every block Get System Information counts (Read Single Block `20` each), stopping at the first refusal.
    private func dumpBlocks(into result: inout TagInspection) throws {
        guard let count = systemInformation?.blockCount else {
            result.notes.append("dump: the block count is unknown (no system information)")
            return
        }
        var rows: [[UInt8]] = []
        for block in 0..<count {
            do {
                rows.append(try tag.readSingleBlock(block))
            } catch let error as ISO15693Error {
                result.notes.append("dump stops at block \(block): \(error)")
                break
            }
        }
        result.dump = rows
        result.notes.append("dump: one block a row")
    }
}
