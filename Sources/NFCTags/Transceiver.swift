/// A communication failure between the host and a tag (`docs/reference/type2.md` §3.10, §11).
///
/// These mean "retry or ask for the tag again"; tag-level refusals that should be recorded and
/// skipped are `Type2Error` / provisioning errors built on top of these. NAK codes, silence and a tag
/// that left the field stay distinguishable all the way to the ledger.
public enum TransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The tag did not answer within the command's timeout (silence).
    case noAnswer
    /// The tag answered with a 4-bit NAK; the value is the NAK code (`0`, `1`, `4`, `5`).
    case nak(UInt8)
    /// The tag left the field (removal, tear, or the reader reports the target released).
    case tagLost
    /// The reader or host link failed (device error, malformed reader frame, service gone).
    case transport(String)
    /// The answer had the wrong shape (length or framing) for the command sent.
    case invalidResponse(String)
    /// The reader itself went away (unplugged, its daemon or port gone): nothing reaches any tag until it is
    /// opened again (`TagReader.reopen`).
    case readerGone(String)

    public var description: String {
        switch self {
        case .noAnswer: "no answer from the tag"
        case .nak(let code): "tag answered NAK \(String(code, radix: 16, uppercase: true))h"
        case .tagLost: "tag left the field"
        case .transport(let detail): "reader error: \(detail)"
        case .invalidResponse(let detail): "invalid response: \(detail)"
        case .readerGone(let detail): "reader gone: \(detail)"
        }
    }

    /// Whether the reader itself went away (`.readerGone`), not a tag.
    public var isReaderGone: Bool {
        if case .readerGone = self { return true }
        return false
    }
}

/// Sends command frames to one selected tag and returns its answers: the seam every tag operation
/// goes through.
///
/// Frames are given and returned **without** CRC_A. A 4-bit ACK comes back as the single byte `0A`;
/// a 4-bit NAK throws `TransportError.nak(code)`. Implementations are reference types confined to one
/// reader (not `Sendable`): the reader actor hands one to a closure that runs on its own queue.
public protocol Transceiver: AnyObject {
    /// Sends `command` and waits at most `timeoutMilliseconds` for the answer.
    ///
    /// - Throws: `TransportError` for silence, NAK, a lost tag or a reader failure.
    func transceive(_ command: [UInt8], timeoutMilliseconds: Int) throws(TransportError) -> [UInt8]

    /// Ends the current tag session and selects the same tag again (HLTA, then WUPA, anticollision and
    /// SELECT; ISO/IEC 14443-3). Clears authentication and any NAK state.
    ///
    /// - Throws: `TransportError.tagLost` when the tag no longer answers.
    func reactivate() throws(TransportError)

    /// Total modelled radio time of every exchange so far, in microseconds, or `nil` when the
    /// backend cannot know it (a real reader).
    var modelledAirtimeMicroseconds: Double? { get }

    /// Whether commands other than READ (`30`) and WRITE (`A2`) reach the tag. PC/SC readers without
    /// a raw path only map those two; callers then fall back (READ instead of FAST_READ, no signature).
    var supportsRawCommands: Bool { get }
}

extension Transceiver {
    /// Most paths (emulator, libnfc, PC/SC with a direct-transmit path) pass any command through.
    public var supportsRawCommands: Bool { true }
}
