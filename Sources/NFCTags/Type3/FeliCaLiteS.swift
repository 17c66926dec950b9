/// FeliCa Lite-S (RC-S966) product knowledge (`docs/reference/type3.md` §1.5): the memory map as seen through
/// services `000B`/`0009`, and the memory configuration block MC.
public enum FeliCaLiteS {
    /// S_PAD0–13: user data; block 0 holds the NDEF attribute block once formatted.
    public static let userBlocks = 0x00...0x0D
    /// REG: the subtraction register.
    public static let reg = 0x0E
    /// RC, MAC, ID, D_ID, SER_C, SYS_C, CKV, CK, MC.
    public static let rc = 0x80, mac = 0x81, id = 0x82, dID = 0x83, serC = 0x84, sysC = 0x85
    /// CKV, CK and MC.
    public static let ckv = 0x86, ck = 0x87, mc = 0x88
    /// WCNT, MAC_A, STATE and CRC_CHECK.
    public static let wcnt = 0x90, macA = 0x91, state = 0x92, crcCheck = 0xA0
    /// The system code of the Lite/Lite-S system.
    public static let systemCode: UInt16 = 0x88B4
    /// Every block the chip has.
    public static let blocks: [Int] = Array(0x00...0x0E) + Array(0x80...0x88) + [0x90, 0x91, 0x92, 0xA0]
    /// The PMm real Lite-S cards report.
    public static let pmm: [UInt8] = [0x00, 0xF1, 0x00, 0x00, 0x00, 0x01, 0x43, 0x00]
}

/// The MC block (`88h`) of a FeliCa Lite-S (`docs/reference/type3.md` §1.5).
public struct FeliCaMemoryConfiguration: Sendable, Hashable {
    /// The 16 bytes.
    public var bytes: [UInt8]

    /// Wraps 16 MC bytes.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// MC_SP (bytes 0–1, little-endian): bit n = 1 → S_PAD n writable (bit 14 REG).
    public var writableBlocks: UInt16 {
        get { UInt16(bytes[0]) | UInt16(bytes[1]) << 8 }
        set { (bytes[0], bytes[1]) = (UInt8(newValue & 0xFF), UInt8(newValue >> 8)) }
    }
    /// MC_ALL (byte 2): `FF` system blocks writable, `00` read-only (MC itself frozen).
    public var systemBlocksWritable: Bool { bytes[2] == 0xFF }
    /// SYS_OP bit 0 (byte 3): NDEF enabled, the card answers Polling for `12FC`.
    public var ndefEnabled: Bool { bytes[3] & 0x01 != 0 }
    /// MC_SP_W_RESTR (bytes 8–9) and MC_SP_W_MAC_A (bytes 10–11), little-endian bitmaps (names unverified).
    public var writeRestricted: UInt16 { UInt16(bytes[8]) | UInt16(bytes[9]) << 8 }

    /// Whether S_PAD `block` may be written without MAC_A: its MC_SP bit set and its restriction bit clear.
    public func allowsWrite(userBlock block: Int) -> Bool {
        writableBlocks >> block & 1 == 1 && writeRestricted >> block & 1 == 0
    }

    /// Whether S_PAD0–13 and the system blocks are all read-only: what `writeLock` makes and confirms.
    public var isPermanentlyReadOnly: Bool {
        !systemBlocksWritable && FeliCaLiteS.userBlocks.allSatisfy { !allowsWrite(userBlock: $0) }
    }

    /// The MC that makes S_PAD0–13 read-only for good, as nfcpy `FelicaLiteS._protect` without a password
    /// writes it: MC_SP_W_RESTR and MC_SP_W_MAC_A `FF 3F`, MC_ALL `00`, MC_CKCKV_W_MAC_A `01`.
    public var locked: Self {
        var out = self
        (out.bytes[8], out.bytes[9], out.bytes[10], out.bytes[11]) = (0xFF, 0x3F, 0xFF, 0x3F)
        out.bytes[2] = 0x00
        out.bytes[5] = 0x01
        return out
    }

    /// The factory state nfcpy's tests use after format: `FF FF FF 01 07 00…`.
    public static let formatted = Self([0xFF, 0xFF, 0xFF, 0x01, 0x07] + [UInt8](repeating: 0, count: 11))
}
