import NDEF

/// A FeliCa command refused with status flags (`docs/reference/type3.md` §1.2): SF1 `00` is success; otherwise SF1
/// locates the failing block-list element (or is `FF`) and SF2 says why.
public struct FeliCaStatusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Status flag 1 (`FF`: not tied to a block; otherwise the failing element, bitmap or index unverified).
    public var flag1: UInt8
    /// Status flag 2: the reason code.
    public var flag2: UInt8

    /// Creates an error for the two flags.
    public init(flag1: UInt8, flag2: UInt8) {
        self.flag1 = flag1
        self.flag2 = flag2
    }

    /// SF2 in words, as stacks name the codes (`docs/reference/type3.md` §1.2; the table is marked unverified).
    public var reason: String {
        switch flag2 {
        case 0x70: "memory error"
        case 0x71: "memory write-count warning"
        case 0xA1: "illegal number of services"
        case 0xA2: "illegal number of blocks"
        case 0xA3: "illegal service order"
        case 0xA4: "illegal service type"
        case 0xA5: "access not allowed"
        case 0xA6: "illegal service code list"
        case 0xA7: "illegal access mode"
        case 0xA8: "illegal block number"
        case 0xA9: "write failure"
        case 0xB1: "read refused (authentication required)"
        case 0xFF: "processing error"
        default: "unknown status"
        }
    }

    /// Whether the tag refused access (a protected block), as opposed to a malformed request or a fault.
    public var isAccessRefusal: Bool { [0xA5, 0xA9, 0xB1, 0xB2].contains(flag2) }

    public var description: String {
        "status flags \(Hex.byte(flag1)) \(Hex.byte(flag2)) (\(reason))"
    }
}
