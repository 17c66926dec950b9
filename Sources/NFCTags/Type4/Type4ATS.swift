import NDEF

/// An ISO/IEC 14443-4 Answer To Select, decoded (`docs/reference/type4.md` §1.1): the frame size the tag accepts,
/// its bit rates, frame waiting time, guard time, CID/NAD support and historical bytes.
///
/// ```
/// TL  T0  [TA1] [TB1] [TC1]  historical…      NTAG 424 DNA: 06 77 77 71 02 80
/// T0:  10 TA1 present, 20 TB1, 40 TC1; low nibble FSCI (frame size 16…256 bytes)
/// TB1: FWI << 4 | SFGI     FWT = 302.06 µs · 2^FWI, SFGT = 302.06 µs · 2^SFGI
/// TC1: 02 CID supported, 01 NAD supported
/// ```
/// Defaults apply to what the ATS leaves out: FSCI 2 (32 bytes), FWI 4, SFGI 0.
public struct Type4ATS: Sendable, Hashable {
    /// The ATS as received, TL first.
    public var bytes: [UInt8]
    /// FSCI: the frame size code.
    public var fsci: Int
    /// TA1 (bit rates), when present.
    public var ta1: UInt8?
    /// TB1 (FWI, SFGI), when present.
    public var tb1: UInt8?
    /// TC1 (CID, NAD), when present.
    public var tc1: UInt8?
    /// The historical bytes.
    public var historicalBytes: [UInt8]

    /// The frame sizes FSCI 0–8 select; codes above 8 are read as 8 (256 bytes), as readers do.
    static let frameSizes = [16, 24, 32, 40, 48, 64, 96, 128, 256]
    /// 256 · 16 / fc in microseconds: the unit of FWT and SFGT.
    static let waitUnitMicroseconds = 4096.0 / 13.56

    /// Decodes `bytes` (TL first); `nil` when TL disagrees with the length or the interface bytes are missing.
    public init?(_ bytes: [UInt8]) {
        guard let length = bytes.first, Int(length) == bytes.count, bytes.count >= 1 else { return nil }
        self.bytes = bytes
        guard bytes.count >= 2 else {
            (fsci, historicalBytes) = (2, [])
            return
        }
        let t0 = bytes[1]
        fsci = Int(t0 & 0x0F)
        var index = 2
        func interface(_ bit: UInt8) -> UInt8?? {
            guard t0 & bit != 0 else { return .some(nil) }
            guard index < bytes.count else { return nil }
            defer { index += 1 }
            return bytes[index]
        }
        guard let ta1 = interface(0x10), let tb1 = interface(0x20), let tc1 = interface(0x40) else { return nil }
        (self.ta1, self.tb1, self.tc1) = (ta1, tb1, tc1)
        historicalBytes = Array(bytes[index...])
    }

    /// FSC: the largest frame the tag accepts, PCB and CRC included.
    public var frameSize: Int { Self.frameSizes[min(fsci, 8)] }
    /// FWI (TB1 high nibble; 4 when absent, 15 read as 4).
    public var fwi: Int {
        let value = tb1.map { Int($0 >> 4) } ?? 4
        return value == 15 ? 4 : value
    }
    /// SFGI (TB1 low nibble; 0 when absent).
    public var sfgi: Int { tb1.map { Int($0 & 0x0F) } ?? 0 }
    /// FWT in microseconds (38,660 µs for FWI 7).
    public var frameWaitingMicroseconds: Double { Self.waitUnitMicroseconds * Double(1 << fwi) }
    /// SFGT in microseconds (0 for SFGI 0; 604 µs for SFGI 1).
    public var startupGuardMicroseconds: Double { sfgi == 0 ? 0 : Self.waitUnitMicroseconds * Double(1 << sfgi) }
    /// Whether the tag accepts a CID (TC1 bit 2).
    public var cidSupported: Bool { (tc1 ?? 0x02) & 0x02 != 0 }
    /// Whether the tag accepts a NAD (TC1 bit 1).
    public var nadSupported: Bool { (tc1 ?? 0) & 0x01 != 0 }

    /// TA1 in words: the divisors each way (`212/424/848 kbit/s both ways, different D allowed`).
    public var bitRates: String {
        guard let ta1 else { return "106 kbit/s only" }
        func rates(_ bits: UInt8) -> String {
            let list = [(0x1, 212), (0x2, 424), (0x4, 848)].filter { bits & UInt8($0.0) != 0 }.map { "\($0.1)" }
            return list.isEmpty ? "106" : "106/" + list.joined(separator: "/")
        }
        let same = ta1 & 0x80 != 0 ? "same D both ways" : "different D allowed"
        return "tag→reader \(rates(ta1 >> 4 & 0x07)), reader→tag \(rates(ta1 & 0x07)) kbit/s, \(same)"
    }
}
