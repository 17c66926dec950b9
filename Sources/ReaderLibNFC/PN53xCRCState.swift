/// What the backend knows of a PN53x's CRC bits (TxMode `6302`, RxMode `6303`) and of what its selects do to them.
///
/// Pure bookkeeping; `LibNFCDevice` does the register reads and writes it asks for. Tag commands go
/// out through InCommunicateThru with RX CRC off (RxMode bit 7 clear), so a 4-bit ACK/NAK reaches the
/// host with its code and a full answer with its CRC_A, which the host checks (`docs/reference/pn532-libnfc.md`
/// §4.6, §6). TX CRC stays as libnfc's init left it, on: the chip appends CRC_A, and the host only
/// does when the chip would not. A select (InListPassiveTarget, InSelect) may switch both CRC bits
/// on for the activation (`docs/pn532.md`, "Frames per tag"); the next tag command is then preceded
/// by one WriteRegister of RxMode, and a select that no tag command follows costs nothing. Whether
/// this chip's selects do that is learned from one ReadRegister of both registers after the first
/// select that finds RX CRC off.
struct PN53xCRCState: Equatable {
    /// TxMode and RxMode as far as they matter here.
    struct Registers: Equatable {
        /// TxMode bit 7 (TxCRCEn): the chip appends CRC_A to the frames it sends.
        var transmitCRC: Bool
        /// RxMode, all of it (bit 7, RxCRCEn: the chip checks and strips CRC_A).
        var rxMode: UInt8

        /// RxMode bit 7: the chip checks and strips CRC_A, so a 4-bit answer is a CRC error (status `02`).
        var receiveCRC: Bool { rxMode & 0x80 != 0 }
    }

    /// What a select does to the registers.
    enum SelectEffect: Equatable {
        /// It leaves the host's bits alone.
        case keepsHostBits
        /// It leaves these values (CRC on both ways: the activation's SELECT and SAK carry CRC_A).
        case sets(Registers)
    }

    /// TxMode address.
    static let txModeAddress: UInt16 = 0x6302
    /// RxMode address.
    static let rxModeAddress: UInt16 = 0x6303

    /// The registers now (`nil`: unknown, to be read before the next tag command).
    private(set) var registers: Registers?
    /// What this chip's selects do (`nil`: not learned yet).
    private(set) var selectEffect: SelectEffect?
    /// The registers before the select that made them unknown, while its effect is being learned.
    private var beforeSelect: Registers?

    /// Nothing known.
    init() {}

    /// After `nfc_initiator_init`: CRC on both ways and RxMode `80`. libnfc's open switches CRC on
    /// (`pn53x_reset_settings`), and init forces every other RxMode bit to 0: 106 kbps, ISO 14443-A
    /// framing, no invalid or multiple frames (`NP_FORCE_ISO14443_A`, `NP_FORCE_SPEED_106`,
    /// `NP_ACCEPT_INVALID_FRAMES`, `NP_ACCEPT_MULTIPLE_FRAMES`; libnfc 1.8.0 `pn53x.c`).
    static let afterInitiatorInit = PN53xCRCState(registers: Registers(transmitCRC: true, rxMode: 0x80))

    private init(registers: Registers) {
        self.registers = registers
    }

    /// Whether the registers must be read (ReadRegister) before the next tag command.
    var needsRead: Bool { registers == nil }

    /// The RxMode value to write (WriteRegister) before the next tag command, when RX CRC is on.
    var rxModeToWrite: UInt8? {
        guard let registers, registers.receiveCRC else { return nil }
        return registers.rxMode & 0x7F
    }

    /// Whether the host appends CRC_A to a tag command (the chip's TX CRC is off, or unknown).
    var hostAppendsCRC: Bool { !(registers?.transmitCRC ?? false) }

    /// A select ran, whether it found a tag or not.
    mutating func selectRan() {
        switch selectEffect {
        case .keepsHostBits?:
            return
        case .sets(let left)?:
            registers = left
        case nil:
            guard let current = registers else { return }
            // CRC on both ways: a select that keeps the bits and one that switches them on agree.
            if current.transmitCRC && current.receiveCRC { return }
            beforeSelect = current
            registers = nil
        }
    }

    /// The registers as read from the chip; when a select made them unknown, its effect is learned.
    mutating func read(_ now: Registers) {
        if let before = beforeSelect, selectEffect == nil {
            selectEffect = now == before ? .keepsHostBits : .sets(now)
        }
        beforeSelect = nil
        registers = now
    }

    /// RxMode was written.
    mutating func wroteRxMode(_ value: UInt8) {
        registers?.rxMode = value
    }

    /// Forgets the registers and the select's effect, after an exchange failed in a way wrong CRC
    /// bits would explain (silence, a CRC_A mismatch, an answer of the wrong shape) or a register
    /// access failed: the next tag command reads them, the next select is learned again.
    mutating func forget() {
        self = PN53xCRCState()
    }
}
