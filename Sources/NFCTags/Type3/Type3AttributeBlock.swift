import NDEF

/// The NFC Forum T3T attribute information block, block 0 of the NDEF service (`docs/reference/type3.md` §1.4):
/// `Ver Nbr Nbw NmaxB[2] RFU[4] WriteF RWFlag Ln[3] checksum[2]`, the checksum the big-endian sum of bytes 0–13.
public struct Type3AttributeBlock: Sendable, Hashable {
    /// The mapping version (`10` = 1.0); the major nibble must be 1.
    public var version: UInt8
    /// Blocks per Read Without Encryption (Nbr).
    public var blocksPerRead: Int
    /// Blocks per Write Without Encryption (Nbw).
    public var blocksPerWrite: Int
    /// NDEF data blocks (NmaxB).
    public var maximumBlocks: Int
    /// WriteF: `0F` while a write is in progress, `00` when done.
    public var writeFlag: UInt8
    /// RWFlag: `01` read/write, `00` read-only.
    public var rwFlag: UInt8
    /// Ln: the NDEF message length in bytes.
    public var length: Int

    /// WriteF while a write is in progress.
    public static let writing: UInt8 = 0x0F

    /// Creates a block.
    public init(
        version: UInt8 = 0x10, blocksPerRead: Int, blocksPerWrite: Int, maximumBlocks: Int,
        writeFlag: UInt8 = 0, rwFlag: UInt8 = 1, length: Int = 0
    ) {
        self.version = version
        self.blocksPerRead = blocksPerRead
        self.blocksPerWrite = blocksPerWrite
        self.maximumBlocks = maximumBlocks
        self.writeFlag = writeFlag
        self.rwFlag = rwFlag
        self.length = length
    }

    /// Decodes block 0.
    ///
    /// - Throws: `TagError.notNDEF` for a wrong checksum or a version whose major is not 1.
    public init(_ bytes: [UInt8]) throws {
        guard bytes.count == 16 else { throw TagError(.notNDEF, "attribute block of \(bytes.count) bytes") }
        let sum = Self.checksum(bytes)
        guard sum == UInt16(bytes[14]) << 8 | UInt16(bytes[15]) else {
            throw TagError(.notNDEF, "attribute block checksum \(Hex.string(Array(bytes[14...]))) is not \(sum)")
        }
        guard bytes[0] >> 4 == 1 else { throw TagError(.notNDEF, "T3T mapping version \(Hex.byte(bytes[0]))") }
        self.init(
            version: bytes[0], blocksPerRead: Int(bytes[1]), blocksPerWrite: Int(bytes[2]),
            maximumBlocks: Int(bytes[3]) << 8 | Int(bytes[4]), writeFlag: bytes[9], rwFlag: bytes[10],
            length: Int(bytes[11]) << 16 | Int(bytes[12]) << 8 | Int(bytes[13]))
    }

    /// The 16 bytes, checksum included.
    public var bytes: [UInt8] {
        var out: [UInt8] = [
            version, UInt8(blocksPerRead), UInt8(blocksPerWrite), UInt8(maximumBlocks >> 8 & 0xFF),
            UInt8(maximumBlocks & 0xFF), 0, 0, 0, 0, writeFlag, rwFlag, UInt8(length >> 16 & 0xFF),
            UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), 0, 0,
        ]
        let sum = Self.checksum(out)
        out[14] = UInt8(sum >> 8)
        out[15] = UInt8(sum & 0xFF)
        return out
    }

    /// The sum of bytes 0–13.
    public static func checksum(_ bytes: [UInt8]) -> UInt16 { bytes.prefix(14).reduce(0) { $0 &+ UInt16($1) } }

    /// The capacity in bytes: NmaxB × 16.
    public var capacity: Int { maximumBlocks * 16 }
    /// Whether RWFlag grants writing.
    public var isWritable: Bool { rwFlag == 0x01 }
    /// Whether a write was torn (WriteF `0F`): the content is not valid.
    public var isWriting: Bool { writeFlag != 0 }

    /// The default block of a FeliCa Lite-S after format: Nbr 4, Nbw 1, NmaxB 13, empty.
    public static let liteSFormatted = Self(blocksPerRead: 4, blocksPerWrite: 1, maximumBlocks: 13)

    /// The fields in words (`inspect`).
    public var summary: String {
        "Ver \(Hex.byte(version)), Nbr \(blocksPerRead), Nbw \(blocksPerWrite), NmaxB \(maximumBlocks), "
            + "WriteF \(Hex.byte(writeFlag)), RWFlag \(Hex.byte(rwFlag)), Ln \(length)"
    }
}
