/// The answer to Get System Information `2B` or Extended Get System Information `3B`
/// (`docs/reference/type5.md` §1.3).
///
/// ```
/// 2B: 00 | info_flags | UID[8] LSB first | [DSFID] [AFI] [nb-1  bs-1] [IC ref]
/// 3B: 00 | info_flags | UID[8] LSB first | [DSFID] [AFI] [nb-1 (2 bytes LSB first)  bs-1] [IC ref] …
/// info_flags: 01 DSFID, 02 AFI, 04 memory size, 08 IC reference
/// ```
/// `1B 03` is 28 blocks of 4 bytes (ICODE SLIX). The UID is kept in display order (`E0` first).
public struct Type5SystemInformation: Sendable, Hashable {
    /// The UID, display order.
    public var uid: [UInt8]
    /// The DSFID, when the tag sent it.
    public var dsfid: UInt8?
    /// The AFI, when the tag sent it.
    public var afi: UInt8?
    /// Number of blocks, when the tag sent the memory size.
    public var blockCount: Int?
    /// Block size in bytes, when the tag sent the memory size.
    public var blockSize: Int?
    /// The IC reference, when the tag sent it.
    public var icReference: UInt8?

    /// Creates information.
    public init(
        uid: [UInt8], dsfid: UInt8? = nil, afi: UInt8? = nil, blockCount: Int? = nil, blockSize: Int? = nil,
        icReference: UInt8? = nil
    ) {
        self.uid = uid
        self.dsfid = dsfid
        self.afi = afi
        self.blockCount = blockCount
        self.blockSize = blockSize
        self.icReference = icReference
    }

    /// Parses the data after the `00` response flags; `extended` for a `3B` answer (2-byte block count).
    ///
    /// - Returns: `nil` when the answer is shorter than its info flags say.
    public init?(_ data: [UInt8], extended: Bool) {
        guard data.count >= 9 else { return nil }
        let flags = data[0]
        uid = Array(data[1..<9].reversed())
        var index = 9
        func take(_ n: Int) -> ArraySlice<UInt8>? {
            guard data.count >= index + n else { return nil }
            defer { index += n }
            return data[index..<index + n]
        }
        if flags & 0x01 != 0 {
            guard let byte = take(1)?.first else { return nil }
            dsfid = byte
        }
        if flags & 0x02 != 0 {
            guard let byte = take(1)?.first else { return nil }
            afi = byte
        }
        if flags & 0x04 != 0 {
            guard let size = take(extended ? 3 : 2) else { return nil }
            let bytes = Array(size)
            blockCount = (extended ? Int(bytes[0]) | Int(bytes[1]) << 8 : Int(bytes[0])) + 1
            blockSize = Int(bytes[bytes.count - 1] & 0x1F) + 1
        }
        if flags & 0x08 != 0 {
            guard let byte = take(1)?.first else { return nil }
            icReference = byte
        }
    }

    /// The answer's data (after the `00` flags), as a tag sends it; `extended` for `3B`.
    public func encoded(extended: Bool) -> [UInt8] {
        var flags: UInt8 = 0
        var body: [UInt8] = []
        if let dsfid {
            flags |= 0x01
            body.append(dsfid)
        }
        if let afi {
            flags |= 0x02
            body.append(afi)
        }
        if let blockCount, let blockSize {
            flags |= 0x04
            let count = blockCount - 1
            body += extended ? [UInt8(count & 0xFF), UInt8(count >> 8)] : [UInt8(count & 0xFF)]
            body.append(UInt8((blockSize - 1) & 0x1F))
        }
        if let icReference {
            flags |= 0x08
            body.append(icReference)
        }
        return [flags] + uid.reversed() + body
    }

    /// Total memory in bytes, when the memory size is known.
    public var memoryBytes: Int? { blockCount.flatMap { count in blockSize.map { count * $0 } } }
}
