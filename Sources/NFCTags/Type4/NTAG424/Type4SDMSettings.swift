/// The Secure Dynamic Messaging (SUN) settings of the NTAG 424 DNA's file 02, as GetFileSettings reports
/// them and ChangeFileSettings sets them (NT4H2421Gx §10.7, `docs/reference/type4.md` §2.7, §3).
///
/// ```
/// SDMOptions(1)          b7 UID mirror, b6 SDMReadCtr, b5 SDMReadCtrLimit, b4 SDMENCFileData, b0 ASCII
/// SDMAccessRights(2)     MetaRead<<12 | FileRead<<8 | F<<4 | CtrRet, LSB first
/// UIDOffset(3)           if b7 and MetaRead = E
/// SDMReadCtrOffset(3)    if b6 and MetaRead = E (FFFFFF: counted, not mirrored)
/// PICCDataOffset(3)      if MetaRead = key 0–4
/// SDMMACInputOffset(3)   if FileRead ≠ F
/// SDMENCOffset(3)        if FileRead ≠ F and b4
/// SDMENCLength(3)        if FileRead ≠ F and b4
/// SDMMACOffset(3)        if FileRead ≠ F
/// SDMReadCtrLimit(3)     if b5                                   (all offsets LSB first)
/// ```
///
/// Offsets of fields the options leave out are kept at 0 and never encoded.
public struct Type4SDMSettings: Sendable, Hashable {
    /// The value of SDMReadCtrOffset meaning "counter enabled, not mirrored".
    public static let unmirroredOffset = 0xFF_FFFF

    /// SDMOptions b7: the UID is mirrored (in clear with MetaRead `E`, inside PICCData with a key).
    public var mirrorsUID = false
    /// SDMOptions b6: SDMReadCtr is enabled (counted per read sequence, and mirrored like the UID).
    public var mirrorsReadCounter = false
    /// SDMOptions b5 and SDMReadCtrLimit: unauthenticated reads stop once the counter reaches it.
    public var readCounterLimit: UInt32?
    /// SDMOptions b4: part of the file is mirrored encrypted (SDMENCFileData).
    public var encryptsFileData = false
    /// SDMMetaRead: `E` plain UID/counter mirrors, a key encrypts PICCData, `F` no mirror.
    public var metaRead: Type4FileSettings.Access = .never
    /// SDMFileRead: the key of the SDM session keys (SDMMAC, SDMENCFileData), `F` none.
    public var fileRead: Type4FileSettings.Access = .never
    /// SDMCtrRet: the right of GetFileCounters.
    public var counterRetrieval: Type4FileSettings.Access = .never
    /// UIDOffset: where the 14 ASCII characters of the plain UID go.
    public var uidOffset = 0
    /// SDMReadCtrOffset: where the 6 ASCII characters of the plain counter go (`unmirroredOffset`: nowhere).
    public var readCounterOffset = 0
    /// PICCDataOffset: where the 32 ASCII characters of the encrypted PICCData go.
    public var piccDataOffset = 0
    /// SDMMACInputOffset: where the SDMMAC input starts.
    public var macInputOffset = 0
    /// SDMENCOffset: where the encrypted file data (plaintext in its first half) goes.
    public var encryptedDataOffset = 0
    /// SDMENCLength: ASCII characters of the encrypted file data (a multiple of 32).
    public var encryptedDataLength = 0
    /// SDMMACOffset: where the 16 ASCII characters of the SDMMAC go (the MAC input ends here).
    public var macOffset = 0

    /// Settings with everything off; set the fields wanted.
    public init() {}

    /// SDMOptions as the chip codes it (ASCII encoding always on).
    public var options: UInt8 {
        (mirrorsUID ? 0x80 : 0) | (mirrorsReadCounter ? 0x40 : 0) | (readCounterLimit != nil ? 0x20 : 0)
            | (encryptsFileData ? 0x10 : 0) | 0x01
    }

    /// The 16-bit SDMAccessRights word (`MetaRead<<12 | FileRead<<8 | F<<4 | CtrRet`).
    public var accessRights: UInt16 {
        UInt16(metaRead.nibble) << 12 | UInt16(fileRead.nibble) << 8 | 0xF0 | UInt16(counterRetrieval.nibble)
    }

    /// Whether the UID travels in clear (its own offset on the wire).
    public var hasPlainUID: Bool { mirrorsUID && metaRead == .free }
    /// Whether the counter travels in clear (its own offset on the wire).
    public var hasPlainCounterField: Bool { mirrorsReadCounter && metaRead == .free }
    /// Whether PICCData is encrypted with a key.
    public var metaReadKey: UInt8? { if case .key(let key) = metaRead { key } else { nil } }
    /// The SDM file-read key, when SDMMAC (and SDMENCFileData) are on.
    public var fileReadKey: UInt8? { if case .key(let key) = fileRead { key } else { nil } }
    /// Whether the UID goes into the SDM session vectors: mirrored in clear or inside PICCData (§3.4).
    public var uidIsMirrored: Bool { mirrorsUID && metaRead != .never }
    /// Whether the counter goes into the SDM session vectors: mirrored in clear or inside PICCData (§3.4).
    public var counterIsMirrored: Bool {
        mirrorsReadCounter && (metaReadKey != nil || (metaRead == .free && readCounterOffset != Self.unmirroredOffset))
    }

    /// The wire form after FileOption and AccessRights in ChangeFileSettings (and GetFileSettings).
    public var encoded: [UInt8] {
        var out = [options, UInt8(accessRights & 0xFF), UInt8(accessRights >> 8)]
        func put(_ value: Int) { out += (0..<3).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        if hasPlainUID { put(uidOffset) }
        if hasPlainCounterField { put(readCounterOffset) }
        if metaReadKey != nil { put(piccDataOffset) }
        if fileRead != .never {
            put(macInputOffset)
            if encryptsFileData {
                put(encryptedDataOffset)
                put(encryptedDataLength)
            }
            put(macOffset)
        }
        if let readCounterLimit { put(Int(readCounterLimit)) }
        return out
    }

    /// Decodes the SDM block from `cursor` (the fields the options and rights call for, in wire order).
    ///
    /// - Throws: `.length` when the bytes run out, `.parameter` for RFU option bits, ASCII encoding off or
    ///   an access nibble that names no key (`5`–`D`).
    public init(decoding cursor: inout ArraySlice<UInt8>) throws(Type4FileSettingsError) {
        func byte() throws(Type4FileSettingsError) -> UInt8 {
            guard let value = cursor.popFirst() else { throw .length }
            return value
        }
        func three() throws(Type4FileSettingsError) -> Int {
            var value = 0
            for shift in 0..<3 { value |= Int(try byte()) << (8 * shift) }
            return value
        }
        func access(_ nibble: UInt8) throws(Type4FileSettingsError) -> Type4FileSettings.Access {
            guard nibble <= 0x04 || nibble >= 0x0E else { throw .parameter("SDM access nibble \(nibble) names no key") }
            return Type4FileSettings.Access(nibble: nibble)
        }
        let options = try byte()
        guard options & 0x0E == 0 else { throw .parameter("SDMOptions RFU bits 3–1 set") }
        guard options & 0x01 != 0 else { throw .parameter("SDMOptions: only ASCII encoding is supported") }
        let low = try byte()
        let high = try byte()
        mirrorsUID = options & 0x80 != 0
        mirrorsReadCounter = options & 0x40 != 0
        encryptsFileData = options & 0x10 != 0
        metaRead = try access(high >> 4)
        fileRead = try access(high & 0x0F)
        counterRetrieval = try access(low & 0x0F)
        if hasPlainUID { uidOffset = try three() }
        if hasPlainCounterField { readCounterOffset = try three() }
        if metaReadKey != nil { piccDataOffset = try three() }
        if fileRead != .never {
            macInputOffset = try three()
            if encryptsFileData {
                encryptedDataOffset = try three()
                encryptedDataLength = try three()
            }
            macOffset = try three()
        }
        if options & 0x20 != 0 { readCounterLimit = UInt32(try three()) }
    }
}

/// Why file settings (ChangeFileSettings data, or settings given to the emulator) are refused; the native
/// status word each stands for (`docs/reference/type4.md` §2.7).
public enum Type4FileSettingsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `91 7E`: the data is shorter or longer than its options call for.
    case length
    /// `91 9D`: SDM requested on a file other than 02.
    case permission
    /// `91 9E`: an option, offset or combination the chip refuses (the reason names the rule).
    case parameter(String)

    public var description: String {
        switch self {
        case .length: "file settings of the wrong length"
        case .permission: "SDM is only possible on file 02"
        case .parameter(let reason): "file settings refused: \(reason)"
        }
    }
}
