/// The PN532's CIU register file as libnfc uses it (`docs/reference/pn532-libnfc.md` §6).
///
/// Any 16-bit address can be read or written (unknown ones read `00`); the registers whose bits change
/// the emulator's behaviour have typed accessors.
///
/// | Register | Address | Bits used |
/// |---|---|---|
/// | TxMode | 6302h | bit 7 CRC generation |
/// | RxMode | 6303h | bit 7 CRC checking |
/// | ManualRCV | 630Dh | bit 4 parity off |
/// | Status2 | 6338h | bit 3 Crypto1 on |
/// | Control | 633Ch | bits 2–0 RxLastBits |
/// | BitFraming | 633Dh | bits 2–0 TxLastBits |
public struct PN532Registers: Sendable, Hashable {
    /// TxMode (CIU_TxMode).
    public static let txMode: UInt16 = 0x6302
    /// RxMode (CIU_RxMode).
    public static let rxMode: UInt16 = 0x6303
    /// TxAuto (CIU_TxAuto).
    public static let txAuto: UInt16 = 0x6305
    /// ManualRCV (CIU_ManualRCV).
    public static let manualRCV: UInt16 = 0x630D
    /// Status2 (CIU_Status2).
    public static let status2: UInt16 = 0x6338
    /// Control (CIU_Control).
    public static let control: UInt16 = 0x633C
    /// BitFraming (CIU_BitFraming).
    public static let bitFraming: UInt16 = 0x633D

    private var values: [UInt16: UInt8]

    /// The reset state libnfc expects after open: CRC on both ways, parity on, Crypto1 off.
    public init() {
        values = [
            Self.txMode: 0x80, Self.rxMode: 0x80, Self.manualRCV: 0x00, Self.status2: 0x00,
            Self.control: 0x00, Self.bitFraming: 0x00,
        ]
    }

    /// The value at `address` (`00` for a register never written).
    public subscript(address: UInt16) -> UInt8 {
        get { values[address] ?? 0x00 }
        set { values[address] = newValue }
    }

    /// Whether the chip appends CRC_A to frames it sends (TxMode bit 7).
    public var transmitCRC: Bool { self[Self.txMode] & 0x80 != 0 }
    /// Whether the chip checks and strips CRC_A on frames it receives (RxMode bit 7).
    public var receiveCRC: Bool { self[Self.rxMode] & 0x80 != 0 }
    /// Whether parity generation and checking are off (ManualRCV bit 4).
    public var parityOff: Bool { self[Self.manualRCV] & 0x10 != 0 }
    /// Valid bits in the last transmitted byte; `0` means 8 (BitFraming bits 2–0).
    public var transmitLastBits: Int { Int(self[Self.bitFraming] & 0x07) }

    /// Records the valid bits of the last received byte (Control bits 2–0; `0` means 8).
    public mutating func setReceiveLastBits(_ bits: Int) {
        self[Self.control] = (self[Self.control] & 0xF8) | UInt8(bits & 0x07)
    }
}
