import NFCTags

/// One message from vpcd to the card, decoded from a frame payload (`docs/reference/pcsc.md` §6).
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

/// Which reader family the virtual card imitates for raw tag commands (`docs/reference/pcsc.md` §10.3–10.4) and, for
/// ISO 15693 tags, for the UID order and the block number of `FF B0`/`FF D6` (`docs/reference/type5.md` §3.2–3.4).
///
/// What real readers do for ISO 15693 is `[UNV]` in the reference; these are the documented defaults:
///
/// | style | raw path | ISO 15693 UID from `FF CA` | block number |
/// |---|---|---|---|
/// | acr122u, acr1252u, plain | as for Type 2 | air order (`… 04 E0`) | P2 |
/// | acr1552u | `FF C2` (ISO 15693 too) | air order (`… 04 E0`) | P2 |
/// | omnikey | `FF C2` (ISO 15693 too) | display order (`E0 04 …`) | P1 |
/// | storage | none | display order (`E0 04 …`) | P1 |
public enum VPCDReaderStyle: String, Sendable, Hashable, CaseIterable {
    /// ACS ACR122U: direct transmit `FF 00 00 00 Lc D4 42 …` → `D5 43 <status> …`; LED/buzzer APDU.
    case acr122u
    /// ACS ACR1252U: PC/SC part 3 transparent session `FF C2 …`.
    case acr1252u
    /// ACS ACR1552U: transparent session `FF C2 …`, ISO 15693 included.
    case acr1552u
    /// HID OMNIKEY 5022/5427: transparent session `FF C2 …`, ISO 15693 included.
    case omnikey
    /// A storage-card reader: `FF CA`, `FF B0`, `FF D6` only (Microsoft's block convention, P1).
    case storage
    /// A reader with only `FF CA`, `FF B0` and `FF D6` (no raw path).
    case plain

    /// Whether the style answers the PC/SC part 3 transparent session `FF C2`.
    public var hasTransparentExchange: Bool { self == .acr1252u || self == .acr1552u || self == .omnikey }

    /// Where `FF B0`/`FF D6` carry an ISO 15693 block number.
    public var type5BlockNumber: Type5StorageAPDU.BlockNumber {
        self == .omnikey || self == .storage ? .inP1 : .inP2
    }

    /// Whether `FF CA 00 00 00` gives an ISO 15693 UID in air order (LSB first, `… E0`), as ACS readers do.
    public var iso15693UIDAirOrder: Bool { self != .omnikey && self != .storage }
}
