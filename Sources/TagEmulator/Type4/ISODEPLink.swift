/// The PICC side of the ISO/IEC 14443-4 block protocol for one activation (`docs/reference/type4.md` §1.1): the
/// reader's frame size and CID from RATS, the block number, a chained command being received, the rest
/// of a chained answer, and the last block sent (for retransmission).
///
/// ```
/// I-block  0 0 0 C h 1 ? b    02/03 (+10 chaining, +08 CID follows, +04 NAD follows)
/// R-block  1 0 1 N 0 C 1 b    A2/A3 ACK, B2/B3 NAK
/// S-block  1 1 x x 0 C 1 0    C2 DESELECT, F2 WTX
/// ```
struct ISODEPLink: Hashable {
    /// FSD, the largest frame the reader accepts (from RATS FSDI); 256 for `activate()` (`E0 80`).
    var readerFrameSize = 256
    /// The CID given in RATS.
    var cid: UInt8 = 0
    /// Whether the reader's blocks carry a CID byte (the tag's answers then carry it too).
    var usesCID = false
    /// The PICC block number; 1 after activation, so the first I-block (number 0) toggles it to 0.
    var blockNumber: UInt8 = 1
    /// INF bytes of a chained command received so far.
    var incoming: [UInt8] = []
    /// I-blocks of the command under way received so far.
    var incomingBlocks = 0
    /// INF pieces of a chained answer not yet sent.
    var outgoing: [[UInt8]] = []
    /// The last block sent, CRC excluded (sent again on a matching R(ACK)/R(NAK)).
    var lastBlock: [UInt8] = []
    /// An answer held back behind an S(WTX) request, sent when the reader echoes the WTX.
    var heldAnswer: [UInt8]?
    /// How many I-blocks of a torn command reach the tag (`nil`: the command is not torn).
    var tornBlocksKept: Int?

    /// The PCB extension bit and CID byte the tag's blocks carry.
    var cidSuffix: [UInt8] { usesCID ? [cid] : [] }

    /// A block with `pcb` (CID bit added when CIDs are used) and `information`.
    func block(_ pcb: UInt8, _ information: [UInt8] = []) -> [UInt8] {
        [usesCID ? pcb | 0x08 : pcb] + cidSuffix + information
    }

    /// INF bytes per answer I-block: FSD − PCB − CRC (− CID).
    var answerPieceSize: Int { max(1, readerFrameSize - 3 - (usesCID ? 1 : 0)) }
}
