/// The NDEF layout found by the Type 2 detection procedure (`docs/reference/type2.md` §5.2–§5.4).
///
/// Addresses are byte addresses in tag memory (page × 4 + byte). Bytes in `reservedAreas` (lock
/// bytes and reserved memory declared by Lock/Memory Control TLVs inside the data area) are skipped
/// when reading and writing NDEF data.
public struct NDEFArea: Sendable, Hashable {
    /// A dynamic lock area, declared by a Lock Control TLV or the NFC Forum default rule.
    public struct LockArea: Sendable, Hashable {
        /// Byte addresses of the lock bytes.
        public var bytes: Range<Int>
        /// Number of lock bits.
        public var bits: Int
        /// Bytes locked by one bit.
        public var bytesPerBit: Int
        /// Whether this area comes from the default rule (no Lock Control TLV, CC2 > 06).
        public var isDefault: Bool

        /// Creates a lock area.
        public init(bytes: Range<Int>, bits: Int, bytesPerBit: Int, isDefault: Bool) {
            self.bytes = bytes
            self.bits = bits
            self.bytesPerBit = bytesPerBit
            self.isDefault = isDefault
        }
    }

    /// The capability container.
    public var cc: CapabilityContainer
    /// Address of the NDEF TLV's T byte (`03`).
    public var tlvAddress: Int
    /// Addresses of the length field: 1 byte, or 3 (`FF hi lo`).
    public var lengthAddresses: [Int]
    /// Address of the first message byte.
    public var messageAddress: Int
    /// The current message length (0 = initialised, empty).
    public var messageLength: Int
    /// Reserved and lock byte ranges inside the data area, skipped for NDEF data.
    public var reservedAreas: [Range<Int>]
    /// Dynamic lock areas (declared or default).
    public var lockAreas: [LockArea]
    /// The static lock bytes LOCK0, LOCK1 (page 2 bytes 2–3).
    public var staticLock: [UInt8]
    /// Whether the tag is read-only: CC write nibble not `0`, or static lock bits over the area.
    public var isReadOnly: Bool

    /// The first byte after the data area (16 + CC2 × 8).
    public var dataAreaEnd: Int { cc.dataAreaEnd }

    /// Bytes usable from the NDEF TLV's T byte to the end of the data area, reserved bytes excluded.
    public var usableBytes: Int { usableCount(from: tlvAddress, to: dataAreaEnd) }

    /// The largest NDEF message (`docs/reference/type2.md` §5.4): usable bytes − 4 above 256, else − 2.
    public var capacity: Int {
        let usable = usableBytes
        return max(0, usable > 256 ? usable - 4 : usable - 2)
    }

    /// The NDEF status in Core NFC terms.
    public var status: NDEFStatus { isReadOnly ? .readOnly : .readWrite }

    /// Whether `address` lies in a reserved or lock area.
    public func isReserved(_ address: Int) -> Bool {
        reservedAreas.contains { $0.contains(address) }
    }

    /// The first usable address at or after `address`.
    public func usable(atOrAfter address: Int) -> Int {
        Self.skip(address, reserved: reservedAreas)
    }

    /// The addresses of `count` usable bytes starting at the usable address at or after `start`.
    public func addresses(from start: Int, count: Int) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(count)
        var address = usable(atOrAfter: start)
        while out.count < count {
            out.append(address)
            address = usable(atOrAfter: address + 1)
        }
        return out
    }

    /// Usable bytes in `start ..< end`.
    public func usableCount(from start: Int, to end: Int) -> Int {
        var count = 0
        var address = usable(atOrAfter: start)
        while address < end {
            count += 1
            address = usable(atOrAfter: address + 1)
        }
        return count
    }

    /// The first address at or after `address` outside every range in `reserved`.
    static func skip(_ address: Int, reserved: [Range<Int>]) -> Int {
        var current = address
        var moved = true
        while moved {
            moved = false
            for range in reserved where range.contains(current) {
                current = range.upperBound
                moved = true
            }
        }
        return current
    }
}
