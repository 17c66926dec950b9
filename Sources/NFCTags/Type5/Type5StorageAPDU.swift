/// The storage-card pseudo-APDUs a PC/SC reader offers for ISO/IEC 15693 blocks (`docs/reference/type5.md` §3.3), in
/// both block-number conventions, built by the host and parsed by the vpcd card from this one definition.
///
/// ```
/// ACS (block in P2)         FF B0 00 bb Le          FF D6 00 bb Lc d0 … dn
/// Microsoft (block in P1)   FF B0 bb 00 Le          FF D6 bb 00 Lc d0 … dn
/// Le 00: the whole block; Lc = the block size
/// ```
///
/// Only Read Single Block `20` and Write Single Block `21` can be carried: Lock Block, Get System Information,
/// security status, the option flag and 2-byte block numbers need the transparent exchange.
public enum Type5StorageAPDU: Sendable, Hashable {
    /// READ BINARY of one block.
    case read(block: Int)
    /// UPDATE BINARY of one block with `data` (one block's bytes).
    case update(block: Int, data: [UInt8])

    /// Where a reader puts the block number.
    public enum BlockNumber: Sendable, Hashable {
        /// P1 = 00, P2 = block (ACS ACR1552U, most ACS/Identiv documents).
        case inP2
        /// P1 = block, P2 = 00 (Microsoft's WUDF storage-card class, and readers that follow it).
        case inP1
    }

    /// The APDU bytes in the `convention`; a block past `FF` cannot be addressed and is `nil`.
    public func bytes(_ convention: BlockNumber) -> [UInt8]? {
        switch self {
        case .read(let block):
            guard let parameters = Self.parameters(block, convention) else { return nil }
            return [0xFF, 0xB0] + parameters + [0x00]
        case .update(let block, let data):
            guard let parameters = Self.parameters(block, convention), !data.isEmpty, data.count <= 0xFF else {
                return nil
            }
            return [0xFF, 0xD6] + parameters + [UInt8(data.count)] + data
        }
    }

    /// Parses a READ or UPDATE BINARY in the `convention`: `nil` for another APDU, for the other
    /// convention's parameters (the byte that must be `00` is not) or for an Lc that does not match the data.
    public init?(_ apdu: [UInt8], _ convention: BlockNumber) {
        guard apdu.count >= 4, apdu[0] == 0xFF else { return nil }
        let (block, zero) = convention == .inP2 ? (apdu[3], apdu[2]) : (apdu[2], apdu[3])
        guard zero == 0x00 else { return nil }
        switch apdu[1] {
        case 0xB0:
            guard apdu.count <= 5 else { return nil }
            self = .read(block: Int(block))
        case 0xD6:
            guard apdu.count > 5, apdu.count == 5 + Int(apdu[4]) else { return nil }
            self = .update(block: Int(block), data: Array(apdu[5...]))
        default:
            return nil
        }
    }

    private static func parameters(_ block: Int, _ convention: BlockNumber) -> [UInt8]? {
        guard (0...0xFF).contains(block) else { return nil }
        return convention == .inP2 ? [0x00, UInt8(block)] : [UInt8(block), 0x00]
    }
}
