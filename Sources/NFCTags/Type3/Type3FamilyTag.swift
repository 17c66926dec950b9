import NDEF

/// A Type 3 tag behind the family seam: the NFC Forum T3T procedures (`docs/reference/type3.md` §1.4) over `Type3Tag`,
/// with the FeliCa Lite-S MC block deciding the lock (§1.5).
///
/// Identification is free (PMm[1] of the Polling answer). Detection polls `12FC` (the IDm the ledger records),
/// then reads the attribute block, and MC with it in the same Read on a Lite-S. Units are blocks of the NDEF
/// service: block 0 is the attribute block, the message starts at block 1.
public final class Type3FamilyTag: FamilyTag {
    /// The FeliCa commands underneath.
    public let tag: Type3Tag
    public let family = Type3Family.name
    public let identificationNote = ""
    /// The chip PMm names, once `identify()` ran.
    public private(set) var felicaChip: FeliCaChip?
    /// The attribute block as last read or written.
    public internal(set) var attributes: Type3AttributeBlock?
    /// The Lite-S MC block as last read.
    public internal(set) var memoryConfiguration: FeliCaMemoryConfiguration?
    /// Block contents known from reads and writes (skipped when a write would not change them).
    var known: [Int: [UInt8]] = [:]
    /// MC as `isBlank()` read it, for the `format()` that follows.
    var blankMemoryConfiguration: FeliCaMemoryConfiguration?
    /// MC and the attribute block as `writeLock()` read them back.
    var lockReadBackUnits: [(unit: Int, bytes: [UInt8])] = []
    /// Whether the job locks this Lite-S after the read-back (`prepareWrite`): the lock writes the attribute
    /// block whole again and reads it back, so `verify` leaves block 0 to it.
    var lockFollows = false

    /// Wraps `tag`.
    public init(_ tag: Type3Tag) { self.tag = tag }

    public var chip: TagChip? { felicaChip?.tagChip }
    public var cost: TagOperationCost { tag.total }
    /// Whether the chip is a Lite-S (MC lock, Nbr 4, Nbw 1).
    var isLiteS: Bool { felicaChip == .liteS }

    /// The chip from PMm[1] of the activation's Polling answer; Polling `FFFF` first when there was none.
    @discardableResult
    public func identify() throws -> TagChip? {
        let activation = try tag.activation ?? tag.poll(systemCode: 0xFFFF)
        felicaChip = activation.chip
        return chip
    }

    /// A lock is made and confirmed on a Lite-S only (MC); other chips have only the soft RWFlag.
    public func prepareWrite(hasCredentials: Bool, lock: Bool) throws {
        lockFollows = lock && isLiteS
        if lock, !isLiteS {
            throw TagError(
                .lockUnsupported, "\(chip?.displayName ?? "this tag") has no lock provision can make and confirm")
        }
    }

    /// The card has one IDm; nothing in memory repeats it that this tool checks.
    public func identityAnomalies(anticollisionUID: [UInt8]) throws -> IdentityAnomalies { IdentityAnomalies() }

    /// Polling `12FC` (unless the tag was found by it), then Read Without Encryption `06` of block 0 (and MC `88`
    /// on a Lite-S, same command).
    ///
    /// `readOnly` when RWFlag is `00`; capacity NmaxB × 16.
    ///
    /// - Throws: `TagError.notNDEF` when no system answers `12FC` or the attribute block is invalid.
    public func detectNDEF() throws -> (status: NDEFStatus, capacity: Int) {
        if felicaChip == nil { try identify() }
        do {
            if tag.activation?.systemCode != 0x12FC { try tag.pollNDEF() }
        } catch .noAnswer {
            throw TagError(.notNDEF, "no NDEF system: no answer to Polling 12FC")
        }
        let blocks = isLiteS ? [0, FeliCaLiteS.mc] : [0]
        let data = try tag.read(blocks: blocks)
        if isLiteS { memoryConfiguration = FeliCaMemoryConfiguration(Array(data[16..<32])) }
        let block = try Type3AttributeBlock(Array(data[0..<16]))
        attributes = block
        known[0] = block.bytes
        return (block.isWritable ? .readWrite : .readOnly, block.capacity)
    }

    /// Blocks 1…⌈Ln/16⌉ in Nbr pieces (Read `06`), truncated to Ln; `[]` when Ln is 0 or WriteF is `0F`
    /// (a torn write: the content is not valid).
    public func readNDEF() throws -> [UInt8] {
        let block = try attributes ?? readAttributes()
        guard !block.isWriting, block.length > 0 else { return [] }
        let data = try readBlocks(Array(1...(block.length + 15) / 16), per: block.blocksPerRead)
        return Array(data.prefix(block.length))
    }

    /// Reads `blocks` in pieces of `per` (Read `06`), recording them as known.
    func readBlocks(_ blocks: [Int], per: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        for piece in blocks.chunked(max(per, 1)) {
            let data = try tag.read(blocks: piece)
            for (i, block) in piece.enumerated() { known[block] = Array(data[16 * i..<16 * i + 16]) }
            out += data
        }
        return out
    }

    /// Polling `12FC` and Read `06` of block 0.
    @discardableResult
    func readAttributes() throws -> Type3AttributeBlock {
        if tag.activation?.systemCode != 0x12FC { try tag.pollNDEF() }
        let block = try Type3AttributeBlock(try tag.read(blocks: [0]))
        attributes = block
        known[0] = block.bytes
        return block
    }

    /// Ends the session and polls `12FC` again.
    public func reactivate() throws { try tag.reactivate() }
}
