import NFCTags

/// Passes frames through to `inner` and keeps every command in order (a re-activation is `[]`), to
/// check which commands a cycle sends — e.g. that no WRITE `A2` reached a refused tag.
public final class CommandLog<Inner: Transceiver>: Transceiver {
    /// The transceiver the frames go to.
    public let inner: Inner
    /// The commands sent so far; `[]` marks a re-activation.
    public private(set) var commands: [[UInt8]] = []

    /// Wraps `inner`.
    public init(_ inner: Inner) { self.inner = inner }

    public func transceive(_ command: [UInt8], timeoutMilliseconds: Int) throws(TransportError) -> [UInt8] {
        commands.append(command)
        return try inner.transceive(command, timeoutMilliseconds: timeoutMilliseconds)
    }

    public func reactivate() throws(TransportError) {
        commands.append([])
        try inner.reactivate()
    }

    public var modelledAirtimeMicroseconds: Double? { inner.modelledAirtimeMicroseconds }
    public var supportsRawCommands: Bool { inner.supportsRawCommands }

    /// The WRITE `A2` commands sent (COMPATIBILITY_WRITE `A0` too).
    public var writes: [[UInt8]] { commands.filter { $0.first == 0xA2 || $0.first == 0xA0 } }
}
