/// One message from vpcd to the card, decoded from a frame payload (`pcsc-vpcd.md` §6).
///
/// ```
/// N = 1: 00 power off | 01 power on | 02 warm reset | 04 ATR request   (no reply except for 04)
/// N ≥ 2: a command APDU exactly as passed to SCardTransmit             (reply: data + SW1 SW2)
/// ```
public enum VPCDMessage: Sendable, Hashable {
    /// Control byte `00`: the reader switched the card off.
    case powerOff
    /// Control byte `01`: the reader powered the card.
    case powerOn
    /// Control byte `02`: warm reset.
    case reset
    /// Control byte `04`: send the ATR (also the presence heartbeat).
    case atrRequest
    /// A 1-byte message with another value (ignored).
    case unknownControl(UInt8)
    /// A command APDU.
    case apdu([UInt8])

    /// Decodes a frame payload; an empty payload gives `nil`.
    public init?(payload: [UInt8]) {
        switch payload.count {
        case 0: return nil
        case 1:
            switch payload[0] {
            case 0x00: self = .powerOff
            case 0x01: self = .powerOn
            case 0x02: self = .reset
            case 0x04: self = .atrRequest
            default: self = .unknownControl(payload[0])
            }
        default: self = .apdu(payload)
        }
    }
}

/// Which reader family the virtual card imitates for raw tag commands (`pcsc-vpcd.md` §10.3–10.4).
public enum VPCDReaderStyle: String, Sendable, Hashable, CaseIterable {
    /// ACS ACR122U: direct transmit `FF 00 00 00 Lc D4 42 …` → `D5 43 <status> …`; LED/buzzer APDU.
    case acr122u
    /// ACS ACR1252U: PC/SC part 3 transparent session `FF C2 …`.
    case acr1252u
    /// A reader with only `FF CA`, `FF B0` and `FF D6` (no raw path).
    case plain
}
