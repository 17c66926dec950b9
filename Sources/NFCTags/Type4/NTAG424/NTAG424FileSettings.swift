/// The settings of one NTAG 424 DNA StandardData file as GetFileSettings `90 F5` reports them and ChangeFileSettings
/// `90 5F` sets them, with the SDM block of file 02 (`type4-ntag424.md` §2.7, §3).
///
/// ```
/// FileOption | AccessRights(2) [| SDMOptions | SDMAccessRights(2) | UIDOffset | SDMReadCtrOffset | PICCDataOffset
///                               | SDMMACInputOffset | SDMENCOffset | SDMENCLength | SDMMACOffset | SDMReadCtrLimit]
/// access-rights word = Read << 12 | Write << 8 | ReadWrite << 4 | Change   (LSB first on the wire)
/// SDM access word    = MetaRead << 12 | FileRead << 8 | F << 4 | CtrRet     (LSB first on the wire)
/// ```
public struct NTAG424FileSettings: Sendable, Hashable {
    /// Access condition nibbles: `0`–`4` a key, `E` free, `F` never.
    public static let free: UInt8 = 0x0E
    /// Never granted.
    public static let never: UInt8 = 0x0F

    /// FileOption bits 1–0: `00` plain, `01` MAC'ed, `11` fully enciphered.
    public var communicationMode: UInt8
    /// Read, Write, ReadWrite, Change nibbles.
    public var read: UInt8, write: UInt8, readWrite: UInt8, change: UInt8
    /// The SDM block; `nil`: SDM and mirroring off (FileOption bit 6 clear).
    public var sdm: SDM?

    /// Secure Dynamic Messaging: which mirrors, under which keys, at which file offsets.
    public struct SDM: Sendable, Hashable {
        /// SDMMetaRead: `0`–`4` encrypts PICCData with that key, `E` plain mirrors, `F` none.
        public var metaRead: UInt8
        /// SDMFileRead: `0`–`4` keys the SUN MAC (and ENC), `F` no MAC.
        public var fileRead: UInt8
        /// SDMCtrRet: GetFileCounters access.
        public var counterRetrieval: UInt8
        /// SDMOptions bit 7: the UID is mirrored (plain or inside PICCData).
        public var mirrorsUID: Bool
        /// SDMOptions bit 6: SDMReadCtr is mirrored.
        public var mirrorsCounter: Bool
        /// Plain UID mirror offset (MetaRead `E`).
        public var uidOffset: Int?
        /// Plain counter mirror offset (MetaRead `E`; `FFFFFF`: counted, not mirrored).
        public var counterOffset: Int?
        /// Encrypted PICCData offset (MetaRead a key).
        public var piccDataOffset: Int?
        /// Where the MAC input starts and where the MAC goes (FileRead a key).
        public var macInputOffset: Int?, macOffset: Int?
        /// SDMENCFileData window (SDMOptions bit 4).
        public var encOffset: Int?, encLength: Int?
        /// SDMReadCtrLimit (SDMOptions bit 5).
        public var counterLimit: Int?

        /// Creates an SDM block; offsets that the keys do not call for are ignored by `bytes`.
        public init(
            metaRead: UInt8, fileRead: UInt8, counterRetrieval: UInt8 = NTAG424FileSettings.never,
            mirrorsUID: Bool = true, mirrorsCounter: Bool = true, uidOffset: Int? = nil, counterOffset: Int? = nil,
            piccDataOffset: Int? = nil, macInputOffset: Int? = nil, macOffset: Int? = nil, encOffset: Int? = nil,
            encLength: Int? = nil, counterLimit: Int? = nil
        ) {
            self.metaRead = metaRead
            self.fileRead = fileRead
            self.counterRetrieval = counterRetrieval
            self.mirrorsUID = mirrorsUID
            self.mirrorsCounter = mirrorsCounter
            self.uidOffset = uidOffset
            self.counterOffset = counterOffset
            self.piccDataOffset = piccDataOffset
            self.macInputOffset = macInputOffset
            self.macOffset = macOffset
            self.encOffset = encOffset
            self.encLength = encLength
            self.counterLimit = counterLimit
        }

        /// SDMOptions: UID, counter, limit, ENC bits and ASCII encoding (bit 0, always set).
        public var options: UInt8 {
            (mirrorsUID ? 0x80 : 0) | (mirrorsCounter ? 0x40 : 0) | (counterLimit != nil ? 0x20 : 0)
                | (encOffset != nil ? 0x10 : 0) | 0x01
        }

        /// The plain mirrors' presence follows MetaRead `E`; PICCData's a key; the MAC's FileRead a key.
        var hasPlainMirrors: Bool { metaRead == NTAG424FileSettings.free }
        var hasPICCData: Bool { metaRead <= 4 }
        var hasMAC: Bool { fileRead <= 4 }
    }

    /// Creates settings from their parts.
    public init(
        communicationMode: UInt8 = 0, read: UInt8, write: UInt8, readWrite: UInt8, change: UInt8, sdm: SDM? = nil
    ) {
        self.communicationMode = communicationMode
        self.read = read
        self.write = write
        self.readWrite = readWrite
        self.change = change
        self.sdm = sdm
    }

    /// FileOption: SDM bit 6 and the communication mode.
    public var fileOption: UInt8 { (sdm != nil ? 0x40 : 0) | communicationMode & 0x03 }

    /// The ChangeFileSettings data after the file number (FileOption, rights, SDM block), offsets LSB first.
    public var bytes: [UInt8] {
        var out = [fileOption, readWrite << 4 | change, read << 4 | write]
        guard let sdm else { return out }
        out += [sdm.options, 0xF0 | sdm.counterRetrieval, sdm.metaRead << 4 | sdm.fileRead]
        func put(_ value: Int?) { out += Self.littleEndian24(value ?? 0) }
        if sdm.hasPlainMirrors {
            if sdm.mirrorsUID { put(sdm.uidOffset) }
            if sdm.mirrorsCounter { put(sdm.counterOffset ?? 0xFF_FFFF) }
        }
        if sdm.hasPICCData { put(sdm.piccDataOffset) }
        if sdm.hasMAC {
            put(sdm.macInputOffset)
            if sdm.encOffset != nil {
                put(sdm.encOffset)
                put(sdm.encLength)
            }
            put(sdm.macOffset)
        }
        if let limit = sdm.counterLimit { put(limit) }
        return out
    }

    /// Decodes ChangeFileSettings data (`bytes`) or a GetFileSettings answer without FileType and FileSize;
    /// `nil` when it is cut short or has bytes left over.
    public init?(bytes: [UInt8]) {
        var reader = bytes[...]
        func take(_ count: Int) -> [UInt8]? {
            guard reader.count >= count else { return nil }
            defer { reader = reader.dropFirst(count) }
            return Array(reader.prefix(count))
        }
        func offset() -> Int? { take(3).map { Int($0[0]) | Int($0[1]) << 8 | Int($0[2]) << 16 } }
        guard let head = take(3) else { return nil }
        self.init(
            communicationMode: head[0] & 0x03, read: head[2] >> 4, write: head[2] & 0x0F, readWrite: head[1] >> 4,
            change: head[1] & 0x0F)
        if head[0] & 0x40 != 0 {
            guard let block = take(3) else { return nil }
            var sdm = SDM(
                metaRead: block[2] >> 4, fileRead: block[2] & 0x0F, counterRetrieval: block[1] & 0x0F,
                mirrorsUID: block[0] & 0x80 != 0, mirrorsCounter: block[0] & 0x40 != 0)
            if sdm.hasPlainMirrors, sdm.mirrorsUID {
                guard let value = offset() else { return nil }
                sdm.uidOffset = value
            }
            if sdm.hasPlainMirrors, sdm.mirrorsCounter {
                guard let value = offset() else { return nil }
                sdm.counterOffset = value
            }
            if sdm.hasPICCData {
                guard let value = offset() else { return nil }
                sdm.piccDataOffset = value
            }
            if sdm.hasMAC {
                guard let input = offset() else { return nil }
                sdm.macInputOffset = input
                if block[0] & 0x10 != 0 {
                    guard let start = offset(), let length = offset() else { return nil }
                    (sdm.encOffset, sdm.encLength) = (start, length)
                }
                guard let mac = offset() else { return nil }
                sdm.macOffset = mac
            }
            if block[0] & 0x20 != 0 {
                guard let limit = offset() else { return nil }
                sdm.counterLimit = limit
            }
            self.sdm = sdm
        }
        guard reader.isEmpty else { return nil }
    }

    /// Decodes a GetFileSettings answer (`FileType | FileOption | AccessRights | FileSize(3) | SDM…`): the settings
    /// and the file size; `nil` when malformed.
    public static func parse(getFileSettings answer: [UInt8]) -> (settings: NTAG424FileSettings, fileSize: Int)? {
        guard answer.count >= 7, answer[0] == 0x00 else { return nil }
        guard let settings = NTAG424FileSettings(bytes: Array(answer[1...3] + answer[7...])) else { return nil }
        return (settings, Int(answer[4]) | Int(answer[5]) << 8 | Int(answer[6]) << 16)
    }

    static func littleEndian24(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)]
    }
}
