/// Stream decoder and encoder for the vpcd wire framing (`docs/reference/pcsc.md` §6).
///
/// Every message in both directions is a 2-byte big-endian length followed by that many bytes:
///
/// ```
/// +--------+--------+------------------+
/// | len hi | len lo | payload (len)    |
/// +--------+--------+------------------+
/// ```
///
/// A TCP read may end anywhere, so bytes are appended as they arrive and complete frames are taken
/// out with `nextFrame()`; running out of bytes returns `nil` (need more data), never an error.
public struct VPCDFrameDecoder: Sendable {
    private var buffer: [UInt8] = []
    private var readerIndex = 0

    /// Creates an empty decoder.
    public init() {}

    /// Bytes received but not yet returned as a frame.
    public var bufferedBytes: Int { buffer.count - readerIndex }

    /// Appends bytes read from the socket.
    public mutating func append<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        if readerIndex > 0, readerIndex == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            readerIndex = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame's payload, or `nil` when more bytes are needed.
    ///
    /// A zero-length frame is returned as an empty array (vpcd never sends one; from a card it means
    /// "card gone").
    public mutating func nextFrame() -> [UInt8]? {
        guard bufferedBytes >= 2 else { return nil }
        let length = Int(buffer[readerIndex]) << 8 | Int(buffer[readerIndex + 1])
        guard bufferedBytes >= 2 + length else { return nil }
        let start = readerIndex + 2
        let payload = Array(buffer[start..<start + length])
        readerIndex = start + length
        if readerIndex == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            readerIndex = 0
        } else if readerIndex > 4096 {
            buffer.removeFirst(readerIndex)
            readerIndex = 0
        }
        return payload
    }

    /// Frames `payload` for sending: length (big-endian) then the bytes.
    ///
    /// - Returns: `nil` for an empty payload (an empty frame would tell vpcd the card is gone) or one
    ///   longer than 65535 bytes.
    public static func encode(_ payload: [UInt8]) -> [UInt8]? {
        guard !payload.isEmpty, payload.count <= 0xFFFF else { return nil }
        return [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload
    }
}
