import NFCTags

/// How a misbehaving reader or tag mangles one answer.
enum Corruption: Sendable, Hashable, CustomStringConvertible {
    /// The answer is replaced by `count` bytes of garbage.
    case garbage(count: Int, atExchange: Int)
    /// The answer loses its last `drop` bytes.
    case short(drop: Int, atExchange: Int)
    /// The answer gains `extra` bytes.
    case long(extra: Int, atExchange: Int)
    /// The exchange is answered with NAK `code`.
    case nak(code: UInt8, atExchange: Int)
    /// The exchange gets no answer.
    case silence(atExchange: Int)
    /// The reader reports a transport failure (a USB reader unplugged mid-tag) from this exchange on.
    case readerGone(atExchange: Int)

    var exchange: Int {
        switch self {
        case .garbage(_, let n), .short(_, let n), .long(_, let n), .nak(_, let n), .silence(let n), .readerGone(let n):
            n
        }
    }

    var description: String {
        switch self {
        case .garbage(let count, let n): "garbage(\(count) bytes)@\(n)"
        case .short(let drop, let n): "short(-\(drop))@\(n)"
        case .long(let extra, let n): "long(+\(extra))@\(n)"
        case .nak(let code, let n): "NAK \(code)@\(n)"
        case .silence(let n): "silence@\(n)"
        case .readerGone(let n): "reader gone@\(n)"
        }
    }
}

/// A `Transceiver` that passes exchanges to an inner one and corrupts one of them as told.
final class CorruptingTransceiver: Transceiver {
    private let inner: any Transceiver
    private let corruption: Corruption
    private var count = 0

    init(_ inner: any Transceiver, _ corruption: Corruption) {
        self.inner = inner
        self.corruption = corruption
    }

    func transceive(_ command: [UInt8], timeoutMilliseconds: Int) throws(TransportError) -> [UInt8] {
        count += 1
        if case .readerGone(let n) = corruption, count >= n { throw .transport("reader disconnected") }
        guard count == corruption.exchange else {
            return try inner.transceive(command, timeoutMilliseconds: timeoutMilliseconds)
        }
        switch corruption {
        case .nak(let code, _): throw .nak(code)
        case .silence: throw .noAnswer
        case .garbage(let size, _):
            // The tag did receive the command (a WRITE may have programmed); the answer is lost in noise.
            _ = try? inner.transceive(command, timeoutMilliseconds: timeoutMilliseconds)
            return (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ 0x5A) }
        case .short(let drop, _):
            let answer = try inner.transceive(command, timeoutMilliseconds: timeoutMilliseconds)
            return Array(answer.dropLast(drop))
        case .long(let extra, _):
            let answer = try inner.transceive(command, timeoutMilliseconds: timeoutMilliseconds)
            return answer + [UInt8](repeating: 0xEE, count: extra)
        case .readerGone: throw .transport("reader disconnected")
        }
    }

    func reactivate() throws(TransportError) {
        if case .readerGone(let n) = corruption, count >= n { throw .transport("reader disconnected") }
        try inner.reactivate()
    }

    var modelledAirtimeMicroseconds: Double? { inner.modelledAirtimeMicroseconds }
}
