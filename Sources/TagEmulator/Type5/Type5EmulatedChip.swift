import NFCTags

/// The memory, system information and answers of an emulated Type 5 chip (`docs/reference/type5.md` §1.1, §1.6,
/// §2.1); where the reference marks a value `[UNV]`, it is a documented default the `sim:` spec can change.
///
/// ```
/// chip          blocks × size  IC ref  UID prefix      factory blocks 0–1          3B    option-flag write
/// icode-slix    28 × 4 [DOC]   01      E0 04 01 10     E1 40 0E 01 | 03 00 FE 00   01h   refused 03h
/// icode-slix2   80 × 4 [UNV]   01      E0 04 01 08     E1 40 28 01 | 03 00 FE 00   01h   refused 03h
/// st25tv02k     64 × 4 [UNV]   00      E0 02 …         E1 40 1F 01 | 03 00 FE 00   yes   accepted
/// type5         64 × 4         00      E0 16 …         E1 40 1F 01 | 03 00 FE 00   yes   accepted
/// ```
/// The IC references of SLIX/SLIX2 (SLI's `01`) and ST25TV02K (`00`: the reference has none), SLIX2's block
/// count and CC (MLEN `28` counts the CC, NXP style), ST25TV02K's 64 blocks and CC (MLEN `1F` after the CC,
/// NFC Forum style) and the NXP answers to `3B` and to an option-flag write are assumptions (§6 items 4–5).
/// The `type5` chip (manufacturer `16`, EM) is none of `provision`'s chips: it gets the generic behaviour.
public struct Type5EmulatedChip: Sendable, Hashable {
    /// The chip the host identifies (`Type5ChipModel`).
    public var model: Type5ChipModel
    /// Number of blocks (Get System Information).
    public var blockCount: Int
    /// Bytes per block.
    public var blockSize = 4
    /// The IC reference Get System Information reports.
    public var icReference: UInt8
    /// The UID's first bytes (display order); the rest is the serial number.
    public var uidPrefix: [UInt8]
    /// The CC written at the factory (`nil`: blank memory).
    public var factoryCC: [UInt8]?
    /// Whether Extended Get System Information `3B` is answered (else `01 01`).
    public var answersExtendedSystemInformation: Bool
    /// Whether Write Single Block and Lock Block accept the option flag (else `01 03`).
    public var acceptsOptionFlagOnWrites: Bool
    /// EEPROM programming time of one write-alike, µs (`tWrite`, 4–6 ms `[UNV]`).
    public var writeMicroseconds = 5_000.0

    /// NXP ICODE SLIX.
    public static let icodeSLIX = Type5EmulatedChip(
        model: .icodeSLIX, blockCount: 28, icReference: 0x01, uidPrefix: [0xE0, 0x04, 0x01, 0x10],
        factoryCC: [0xE1, 0x40, 0x0E, 0x01], answersExtendedSystemInformation: false,
        acceptsOptionFlagOnWrites: false)
    /// NXP ICODE SLIX2 (block 79 is the counter; the host keeps NDEF out of it).
    public static let icodeSLIX2 = Type5EmulatedChip(
        model: .icodeSLIX2, blockCount: 80, icReference: 0x01, uidPrefix: [0xE0, 0x04, 0x01, 0x08],
        factoryCC: [0xE1, 0x40, 0x28, 0x01], answersExtendedSystemInformation: false,
        acceptsOptionFlagOnWrites: false)
    /// ST ST25TV02K.
    public static let st25tv02k = Type5EmulatedChip(
        model: .st25tv02k, blockCount: 64, icReference: 0x00, uidPrefix: [0xE0, 0x02, 0x00],
        factoryCC: [0xE1, 0x40, 0x1F, 0x01], answersExtendedSystemInformation: true,
        acceptsOptionFlagOnWrites: true)
    /// A generic NFC Forum Type 5 tag.
    public static let generic = Type5EmulatedChip(
        model: .generic, blockCount: 64, icReference: 0x00, uidPrefix: [0xE0, 0x16, 0x00],
        factoryCC: [0xE1, 0x40, 0x1F, 0x01], answersExtendedSystemInformation: true,
        acceptsOptionFlagOnWrites: true)

    /// The `sim:` names of the chips, each with its chip, in the order help texts list them.
    static let simulated: [(name: String, chip: Type5EmulatedChip)] = [
        ("icode-slix", .icodeSLIX), ("icode-slix2", .icodeSLIX2), ("st25tv02k", .st25tv02k), ("type5", .generic),
    ]

    /// The `sim:` chip names (`icode-slix`, `icode-slix2`, `st25tv02k`, `type5`).
    public static var names: [String] { simulated.map(\.name) }

    /// The chip a `sim:` name stands for (`icode-slix`, `icode-slix2`, `st25tv02k`, `type5`).
    public static func named(_ name: String) -> Type5EmulatedChip? { simulated.first { $0.name == name }?.chip }

    /// Every ISO/IEC 15693 chip takes the family's UID: 8 bytes starting `E0`.
    public var uidForm: UIDForm { Type5Family.uidForm }

    /// The same chip with another `tWrite`.
    public func with(writeMicroseconds: Double) -> Type5EmulatedChip {
        var copy = self
        copy.writeMicroseconds = writeMicroseconds
        return copy
    }

    /// The chip as the pipeline names it.
    public var tagChip: TagChip { model.chip }
    /// Memory size in bytes.
    public var memoryBytes: Int { blockCount * blockSize }
    /// The memory as it leaves the factory: the CC and an empty NDEF TLV `03 00 FE`, or zeros.
    public var factoryMemory: [UInt8] {
        var memory = [UInt8](repeating: 0, count: memoryBytes)
        if let factoryCC {
            memory.replaceSubrange(0..<4, with: factoryCC)
            memory.replaceSubrange(4..<7, with: [0x03, 0x00, 0xFE])
        }
        return memory
    }
    /// The image `store=DIR` saves: the memory, then one security status byte per block (`01`: locked).
    public var imageBytes: Int { memoryBytes + blockCount }
    /// Get System Information's answer for `uid` (info flags `0F`: DSFID, AFI, memory size, IC reference).
    public func systemInformation(uid: [UInt8], dsfid: UInt8, afi: UInt8) -> Type5SystemInformation {
        Type5SystemInformation(
            uid: uid, dsfid: dsfid, afi: afi, blockCount: blockCount, blockSize: blockSize, icReference: icReference)
    }
}
