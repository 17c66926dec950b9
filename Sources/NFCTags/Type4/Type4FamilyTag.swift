import NDEF

/// A Type 4 tag behind the family seam: `Type4Tag`'s T4T procedures in the order the pipeline asks for them,
/// with `Type4ChipModel` deciding every chip fact (`docs/reference/type4.md` §1, §2.3).
///
/// Identification costs at most three APDUs (GetVersion `90 60`, `90 AF`, `90 AF`) and records the chip:
/// NTAG 424 DNA, another NXP chip by its type (MIFARE DESFire, other NTAGs), or the generic `type4` chip for
/// a tag that refuses GetVersion or answers something else. Every chip is handled by the NFC Forum T4T
/// procedure; the chip only decides the CC read, the capacity bound and whether a lock can be made.
public final class Type4FamilyTag: FamilyTag {
    /// The T4T operations underneath (selection state, known file bytes, cost counters).
    public let tag: Type4Tag
    public let family = Type4Family.name
    /// GetVersion is the only identification, so there is no other way to note.
    public let identificationNote = ""
    /// The activation data (its ATS is decoded by `inspect`), when the reader reported it.
    public let activation: DetectedTag?
    /// What the job says about its tags (`honoursCCWriteByte`).
    public var options: Type4Options
    /// The chip model `identify()` found (`nil` before it ran).
    public private(set) var model: Type4ChipModel?
    /// The GetVersion answer, once `identify()` ran.
    public private(set) var versionAnswer: Type4VersionAnswer?
    /// Why the tag is the generic `type4` chip (`GetVersion refused (6E00)`), when it is.
    public private(set) var genericReason: String?
    public private(set) var statusReason: String?
    /// The capacity detection found (CC file size less NLEN, bounded by the chip's file and 15-bit offsets).
    public private(set) var capacity: Int?
    /// Whether detection reads the whole CC, proprietary file TLVs included (`inspect`); the NDEF procedures
    /// need only its first 15 (or 17) bytes.
    public var readsWholeCC = false
    /// Whether GetVersion was left open (a fourth part wanted) and the first SELECT may still meet it.
    private var getVersionOpen = false
    /// The native command set of an NTAG 424 DNA, made on first use.
    private var native: NTAG424Tag?

    /// Wraps `tag`, opened from `activation` for a job with `options`.
    public init(_ tag: Type4Tag, activation: DetectedTag? = nil, options: Type4Options = Type4Options()) {
        self.tag = tag
        self.activation = activation
        self.options = options
    }

    public var chip: TagChip? { model?.chip }

    /// The NTAG 424 DNA native commands over this tag's ISO layer, once `identify()` named the chip.
    public var ntag424: NTAG424Tag? {
        guard model == .ntag424DNA else { return nil }
        if let native { return native }
        let made = NTAG424Tag(tag)
        native = made
        return made
    }
    public var cost: TagOperationCost { tag.total }
    /// The chip model, the generic one until identified.
    public var chipModel: Type4ChipModel { model ?? .generic }

    /// GetVersion `90 60 00 00 00`, `90 AF 00 00 00` twice (`Type4Tag.getVersion()`), then the chip it names.
    ///
    /// A tag that stays silent to GetVersion (no answer within the FWT) is re-activated and handled as the
    /// generic chip: the silence may have left its ISO-DEP block state anywhere, and a new RATS resets it.
    ///
    /// - Throws: `TransportError` when the tag is gone (or silent again after the re-activation).
    @discardableResult
    public func identify() throws -> TagChip? {
        let answer: Type4VersionAnswer
        do {
            answer = try tag.getVersion()
        } catch .noAnswer {
            try tag.reactivate()
            (model, genericReason) = (.generic, "no answer to GetVersion (re-activated)")
            return Type4ChipModel.generic.chip
        }
        versionAnswer = answer
        getVersionOpen = answer.leftOpen
        let identified = Type4ChipModel.identify(answer)
        model = identified.model
        genericReason = identified.genericReason
        return identified.model.chip
    }

    /// The identity cross-check: GetVersion's UID (part 3) against a 7-byte anticollision UID. A hidden UID
    /// (Random ID answers zeros, and a 4-byte `08…` anticollision UID) is not compared. No exchange.
    public func identityAnomalies(anticollisionUID: [UInt8]) throws -> IdentityAnomalies {
        guard let version = versionAnswer?.version, !version.hidesUID, anticollisionUID.count == 7,
            version.uid != anticollisionUID
        else { return IdentityAnomalies() }
        return IdentityAnomalies([
            "GetVersion names UID \(Hex.string(version.uid)), anticollision \(Hex.string(anticollisionUID))"
        ])
    }

    /// queryNDEFStatus of issue 24: SELECT `00 A4 04 00` of the NDEF Tag Application (mapping 1.0 name as
    /// fallback), SELECT `00 A4 00 0C` and READ BINARY `00 B0` of the CC (one READ of the chip's CC file size
    /// when known) and of NLEN in the NDEF file (`Type4Tag.detectNDEF`).
    ///
    /// `readWrite` when the CC grants writing; `readOnly` for `FF`, a reserved byte, or a proprietary
    /// procedure (`80`–`FE`) no chip model knows yet — `statusReason` says which. Capacity is the file size
    /// less NLEN (ENLEN: 4), bounded by the chip's NDEF file and by the 15-bit offsets of READ/UPDATE BINARY
    /// (the ODO forms `B1`/`D7` are not sent).
    ///
    /// - Throws: `TagError.notNDEF` when the application or the CC is absent (`queryNDEFStatus` makes that
    ///   `notSupported`), `.unsupportedCC` for a CC this tool cannot read; transport errors.
    public func detectNDEF() throws -> (status: NDEFStatus, capacity: Int) {
        var detected: (status: NDEFStatus, capacity: Int)
        do {
            detected = try tag.detectNDEF(wholeCC: readsWholeCC, ccFileSize: chipModel.ccFileSize)
        } catch let error as StatusWordError where getVersionOpen && Self.abortsOpen(error) {
            getVersionOpen = false  // the refused SELECT ended the open GetVersion: one more try only
            detected = try tag.detectNDEF(wholeCC: readsWholeCC, ccFileSize: chipModel.ccFileSize)
        }
        guard detected.status != .notSupported, let cc = tag.capabilityContainer else {
            throw TagError(.notNDEF, "no NDEF Tag Application (D2760000850101 or …0100) or no CC file (E103)")
        }
        statusReason = Self.reason(cc.writeAccess, chip: chipModel.chip)
        var capacity = min(cc.capacity, 0x8000 - cc.lengthFieldSize)
        if let size = chipModel.ndefFileSize { capacity = min(capacity, size - cc.lengthFieldSize) }
        self.capacity = capacity
        return (cc.writeAccess == .granted ? .readWrite : .readOnly, capacity)
    }

    /// Whether `error` is how a chip refuses an ISO command while a native command is open (`6985`, `91CA`).
    static func abortsOpen(_ error: StatusWordError) -> Bool { error.status == 0x6985 || error.status == 0x91CA }

    /// Why a write access other than `00` makes the tag read-only to `provision`; `nil` for `00`.
    static func reason(_ access: Type4CapabilityContainer.Access, chip: TagChip) -> String? {
        switch access {
        case .granted: nil
        case .denied: "the CC's NDEF write access is \(access)"
        case .reserved: "the CC's NDEF write access is \(access): a value reserved for future use"
        case .proprietary:
            "the CC's NDEF write access is \(access): a procedure (such as an authentication) "
                + "provision does not run on \(chip.displayName)"
        }
    }

    /// The message after NLEN in MLe pieces (READ BINARY `00 B0`); `[]` when NLEN is 0.
    public func readNDEF() throws -> [UInt8] {
        let container = try tag.capabilityContainer ?? tag.readCapabilityContainer()
        guard try tag.messageLength(container) > 0 else { return [] }
        return try tag.readNDEF()
    }

    /// The tear-safe update of §1.5 (UPDATE BINARY `00 D6`): NLEN `0000` unless already 0, the body in MLc
    /// pieces skipping pieces known to match, the real NLEN last (`Type4Tag.writeNDEF`).
    ///
    /// - Throws: `TagError.capacity` beyond the detected capacity (nothing sent), `.readOnly`; transport errors.
    public func writeNDEF(_ message: [UInt8]) throws -> NDEFWriteResult {
        if let capacity, message.count > capacity {
            throw TagError(.capacity, "the message has \(message.count) bytes; the NDEF file holds \(capacity)")
        }
        return try tag.writeNDEF(message)
    }

    /// READ BINARY `00 B0` of NLEN and every written piece in MLe pieces, compared byte for byte
    /// (`Type4Tag.verify`).
    ///
    /// No re-activation first, unlike Type 2: READ BINARY answers from the file itself, and every UPDATE was
    /// answered `9000` in an ISO-DEP exchange, so a new RATS and two SELECTs would add cost and no evidence.
    public func verify(_ written: NDEFWriteResult, ignoring mask: [Range<Int>]) throws {
        try tag.verify(written, ignoring: mask)
    }

    /// Re-activates (`Transceiver.reactivate`): the next file access selects the NDEF application again.
    public func reactivate() throws { try tag.reactivate() }
}
