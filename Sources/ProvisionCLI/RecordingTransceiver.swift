import NFCTags

/// A `Transceiver` that passes every frame through and keeps the WRITE frames, so a command can print
/// exactly what it wrote (`provision lock` prints the lock bytes per page).
///
/// Not `Sendable`: it wraps a reader's transceiver and lives inside one `withTransceiver` closure.
final class RecordingTransceiver: Transceiver {
    /// The transceiver underneath.
    let inner: any Transceiver
    /// WRITE `A2h` frames that were acknowledged, as (page, 4 data bytes), in order.
    private(set) var writes: [(page: Int, data: [UInt8])] = []
    /// Every exchange sent, answered or not.
    private(set) var exchanges = 0
    /// Every re-activation.
    private(set) var reactivations = 0

    /// Wraps `inner`.
    init(_ inner: any Transceiver) { self.inner = inner }

    func transceive(_ command: [UInt8], timeoutMilliseconds: Int) throws(TransportError) -> [UInt8] {
        exchanges += 1
        let answer = try inner.transceive(command, timeoutMilliseconds: timeoutMilliseconds)
        if command.count == 6, command[0] == 0xA2, answer == [0x0A] {
            writes.append((Int(command[1]), Array(command[2..<6])))
        }
        return answer
    }

    func reactivate() throws(TransportError) {
        reactivations += 1
        try inner.reactivate()
    }

    var modelledAirtimeMicroseconds: Double? { inner.modelledAirtimeMicroseconds }

    var supportsRawCommands: Bool { inner.supportsRawCommands }
}
