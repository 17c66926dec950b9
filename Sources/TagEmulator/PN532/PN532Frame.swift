/// One frame on the PN532 host link (`docs/reference/pn532-libnfc.md` §3).
///
/// ```
/// normal:   00 00 FF LEN LCS TFI CC data… DCS 00
/// extended: 00 00 FF FF FF LENM LENL LCS TFI CC data… DCS 00
/// ACK:      00 00 FF 00 FF 00        NACK: 00 00 FF FF 00 00
/// ```
public enum PN532Frame: Sendable, Hashable {
    /// An information frame; the payload starts with the TFI (`D4` host → chip, `D5` chip → host).
    case information([UInt8])
    /// The ACK frame (from the host: abort the pending command).
    case ack
    /// The NACK frame (from the host: send the last reply again).
    case nack

    /// The ACK frame bytes `00 00 FF 00 FF 00`.
    public static let ackBytes: [UInt8] = [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00]
    /// The NACK frame bytes `00 00 FF FF 00 00`.
    public static let nackBytes: [UInt8] = [0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00]
    /// The application-level error frame `00 00 FF 01 FF 7F 81 00` (unsupported command).
    public static let errorBytes: [UInt8] = [0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00]

    /// The bytes of this frame on the wire; payloads over 255 bytes use the extended form.
    public var encoded: [UInt8] {
        switch self {
        case .ack: return Self.ackBytes
        case .nack: return Self.nackBytes
        case .information(let payload): return Self.encode(payload)
        }
    }

    /// Encodes `payload` (TFI, command code, data) as a normal or extended information frame.
    public static func encode(_ payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0x00, 0x00, 0xFF]
        if payload.count <= 0xFF {
            let length = UInt8(payload.count)
            bytes += [length, 0 &- length]
        } else {
            let high = UInt8(payload.count >> 8)
            let low = UInt8(payload.count & 0xFF)
            bytes += [0xFF, 0xFF, high, low, 0 &- (high &+ low)]
        }
        bytes += payload
        bytes.append(0 &- payload.reduce(0, &+))
        bytes.append(0x00)
        return bytes
    }
}

/// Splits a host byte stream into PN532 frames, whatever the read boundaries
/// (`docs/reference/pn532-libnfc.md` §8.2).
///
/// Bytes before a start code `00 FF` are skipped (preamble, postamble, the `55 55 00…` wake-up);
/// a frame with a bad LCS or DCS is dropped silently, as the chip does (it sends no ACK).
public struct PN532FrameDecoder: Sendable {
    private var buffer: [UInt8] = []
    /// Frames dropped because a checksum did not match.
    public private(set) var checksumErrors = 0
    /// Whether a `55` wake-up byte was skipped since the last call to `takeWakeUp()`.
    public private(set) var sawWakeUp = false

    /// Creates an empty decoder.
    public init() {}

    /// Adds bytes read from the line.
    public mutating func append<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        buffer.append(contentsOf: bytes)
    }

    /// Returns and clears the wake-up flag.
    public mutating func takeWakeUp() -> Bool {
        defer { sawWakeUp = false }
        return sawWakeUp
    }

    /// The next complete frame, or `nil` when more bytes are needed.
    public mutating func next() -> PN532Frame? {
        while true {
            guard let start = startCodeIndex() else {
                // Keep a trailing 00 that may begin a start code; everything else is noise.
                noteSkipped(buffer.count - (buffer.last == 0x00 ? 1 : 0))
                return nil
            }
            noteSkipped(start)
            // buffer now begins with 00 FF.
            guard buffer.count >= 4 else { return nil }
            let length = buffer[2]
            let lengthChecksum = buffer[3]
            if length == 0x00, lengthChecksum == 0xFF {
                buffer.removeFirst(4)
                return .ack
            }
            if length == 0xFF, lengthChecksum == 0x00 {
                buffer.removeFirst(4)
                return .nack
            }
            var headerCount = 4
            var payloadCount = Int(length)
            if length == 0xFF, lengthChecksum == 0xFF {
                guard buffer.count >= 7 else { return nil }
                guard (buffer[4] &+ buffer[5] &+ buffer[6]) == 0 else {
                    dropStartCode()
                    continue
                }
                payloadCount = Int(buffer[4]) << 8 | Int(buffer[5])
                headerCount = 7
            } else if length &+ lengthChecksum != 0 {
                dropStartCode()
                continue
            }
            guard buffer.count >= headerCount + payloadCount + 1 else { return nil }
            let payload = Array(buffer[headerCount..<headerCount + payloadCount])
            let dataChecksum = buffer[headerCount + payloadCount]
            guard payload.reduce(dataChecksum, &+) == 0, !payload.isEmpty else {
                dropStartCode()
                continue
            }
            buffer.removeFirst(headerCount + payloadCount + 1)
            return .information(payload)
        }
    }

    private func startCodeIndex() -> Int? {
        guard buffer.count >= 2 else { return nil }
        for index in 0..<(buffer.count - 1) where buffer[index] == 0x00 && buffer[index + 1] == 0xFF {
            return index
        }
        return nil
    }

    private mutating func noteSkipped(_ count: Int) {
        guard count > 0 else { return }
        if buffer[0..<count].contains(0x55) { sawWakeUp = true }
        buffer.removeFirst(count)
    }

    private mutating func dropStartCode() {
        checksumErrors += 1
        buffer.removeFirst(2)
    }
}
