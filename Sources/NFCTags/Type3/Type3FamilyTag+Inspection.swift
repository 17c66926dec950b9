import NDEF

/// `provision inspect` on a Type 3 tag: IDm, PMm and system codes from Polling, the attribute block, the Lite-S
/// MC and WCNT, the message, and with `dump` S_PAD0–13 and REG, as family-neutral values (`TagInspection`).
extension Type3FamilyTag: Inspectable {
    public var inspection: (any Inspectable)? { self }

    /// Polls `FFFF` when detection found the NDEF system, identifies from PMm (no exchange), polls `12FC` and reads
    /// block 0 (and MC) as detection does, the message in Nbr pieces, WCNT `90` on a Lite-S, and with `dump` blocks
    /// `00`–`0E` four at a time (Read `06`). A FeliCa tag has no password: a `password` is noted as not sent.
    public func inspect(anticollisionUID: [UInt8], dump: Bool, password: InspectionPassword?) throws -> TagInspection {
        // A card found by its NDEF system's Polling is polled once more with `FFFF`, for its primary system code.
        let activation = tag.activation?.systemCode == 0x12FC ? try tag.poll(systemCode: 0xFFFF) : tag.activation
        try identify()
        var result = TagInspection(identity: .init(chip: chip, genericName: "generic Type 3"))
        result.identifyCost = tag.total
        if password != nil {
            result.authentication = .init(status: "notSent", detail: "provision sends no FeliCa authentication")
        }
        do {
            (result.status, result.capacity) = try detectNDEF()
            result.messageLength = attributes?.length
            result.message = try readNDEF()
            if attributes?.isWriting == true {
                result.notes.append("WriteF is 0F: a write was torn, the content is invalid")
            }
        } catch let error as TagError {
            result.ndefError = error.message
        } catch let error as FeliCaStatusError {
            result.ndefError = "the tag refused: \(error)"
        }
        var section = Type3Section(activation: activation, ndef: tag.activation, attributes: attributes)
        if isLiteS {
            section.mc = memoryConfiguration.map { Hex.string($0.bytes) }
            section.wcnt = try? tag.read(blocks: [FeliCaLiteS.wcnt]).prefix(3).reversed().map { Hex.byte($0) }.joined()
            if dump { result.dump = try? readBlocks(Array(0...FeliCaLiteS.reg), per: 4).chunked(16) }
        }
        result.protection = section
        result.locks = lockState().map { Type3LockSection(state: $0) }
        result.cost = tag.total
        result.cost.subtract(result.identifyCost)
        return result
    }
}

/// The FeliCa identification and the T3T attribute block, for `inspect`.
public struct Type3Section: InspectionSection, Hashable {
    /// IDm and PMm of the first Polling, hex; the IC type PMm[1] names.
    public var idm: String?, pmm: String?, icType: String?
    /// The system codes Polling answered: the first (wildcard) one, and `12FC` when the NDEF system answered.
    public var systemCodes: [String]
    /// The IDm of the `12FC` Polling (what the ledger records).
    public var ndefIDm: String?
    /// The attribute block in fields, and as hex.
    public var attributeBlock: String?, attributeBytes: String?
    /// The Lite-S MC block and WCNT (hex, most significant first).
    public var mc: String?, wcnt: String?

    /// The names the JSON documents' snake_case encoder converts: `ndefIdm`, so `ndef_idm` (not `ndef_i_dm`).
    enum CodingKeys: String, CodingKey {
        case idm, pmm, icType, systemCodes, attributeBlock, attributeBytes, mc, wcnt
        case ndefIDm = "ndefIdm"
    }

    /// The section from the two Polling answers and the attribute block.
    public init(activation: FeliCaActivation?, ndef: FeliCaActivation?, attributes: Type3AttributeBlock?) {
        idm = activation.map { Hex.string($0.idm) }
        pmm = activation.map { Hex.string($0.pmm) }
        icType = activation.map { "\(Hex.byte($0.pmm[1])) (\($0.chip.tagChip.displayName))" }
        let codes = [activation?.systemCode, ndef?.systemCode == 0x12FC ? 0x12FC : nil].compactMap { $0 }
        systemCodes = Array(Set(codes)).sorted().map { Hex.string([UInt8($0 >> 8), UInt8($0 & 0xFF)]) }
        ndefIDm = ndef?.systemCode == 0x12FC ? ndef.map { Hex.string($0.idm) } : nil
        attributeBlock = attributes?.summary
        attributeBytes = attributes.map { Hex.string($0.bytes) }
    }

    public var lines: [(label: String, text: String)] {
        var out: [(String, String)] = [
            ("IDm", idm ?? "?"), ("PMm", "\(pmm ?? "?"), IC type \(icType ?? "?")"),
            ("Systems", systemCodes.joined(separator: ", ")),
        ]
        if let ndefIDm { out.append(("NDEF IDm", ndefIDm)) }
        if let attributeBlock { out.append(("Attributes", attributeBlock)) }
        if let attributeBytes { out.append(("", attributeBytes)) }
        if let mc { out.append(("MC", mc)) }
        if let wcnt { out.append(("WCNT", wcnt)) }
        return out
    }
}

/// The lock state of a Type 3 tag (RWFlag and MC), for `inspect`.
public struct Type3LockSection: InspectionSection, Hashable {
    /// Whether the tag is permanently read-only.
    public var permanent: Bool
    /// RWFlag and MC as read.
    public var fields: String
    /// Why it is not, when it is not.
    public var open: [String]

    /// The section for `state`.
    public init(state: LockState) { (permanent, fields, open) = (state.isPermanent, state.fields, state.openReasons) }

    public var lines: [(label: String, text: String)] {
        [("Lock", (permanent ? "permanent: " : "open (\(open.joined(separator: "; "))): ") + fields)]
    }
}
