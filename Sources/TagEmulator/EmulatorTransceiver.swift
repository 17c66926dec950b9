import NFCTags

/// A `Transceiver` straight into an emulated tag: the in-process path of the simulated reader.
///
/// Maps `TagAnswer` to the transceiver contract: data → bytes, ACK → `[0x0A]`, NAK → `.nak(code)`,
/// silence → `.noAnswer` (or `.tagLost` once the tag has left the field). An ACK/NAK that follows
/// EEPROM programming longer than the command's timeout counts as silence (`docs/reference/rf-timing.md` §8.1).
/// With `waitsForAirtime` the caller's thread really waits each exchange's modelled airtime, measured
/// from the moment the command is sent (`AirtimeWait`, `timing=datasheet`); otherwise time is only
/// accounted.
///
/// Not `Sendable`: it drives a non-Sendable tag and is confined to the reader that lends it.
public final class EmulatorTransceiver: Transceiver {
    /// The tag behind this transceiver, of any family.
    public let tag: any EmulatedTag
    /// Whether each exchange sleeps its modelled airtime.
    public let waitsForAirtime: Bool
    /// Command exchanges sent through this transceiver (reactivations excluded).
    public private(set) var exchanges = 0
    private let airtimeAtStart: Double

    /// Wraps `tag`; airtime is counted from now.
    public init(tag: any EmulatedTag, waitsForAirtime: Bool = false) {
        self.tag = tag
        self.waitsForAirtime = waitsForAirtime
        self.airtimeAtStart = tag.airtimeMicroseconds
    }

    public func transceive(_ command: [UInt8], timeoutMilliseconds: Int) throws(TransportError) -> [UInt8] {
        exchanges += 1
        let sent = waitsForAirtime ? AirtimeWait.now() : 0
        let before = tag.airtimeMicroseconds
        let answer = tag.exchange(command)
        wait(from: sent, tag.airtimeMicroseconds - before)
        switch answer {
        case .data(let bytes):
            return bytes
        case .ack, .nak:
            let programs = command.first == 0xA2 || (command.count == 16 && answer == .ack)
            if programs && tag.programmingMicroseconds > Double(timeoutMilliseconds) * 1000 {
                throw .noAnswer
            }
            if case .nak(let code) = answer { throw .nak(code) }
            return [0x0A]
        case .silence:
            throw tag.isPresent ? .noAnswer : .tagLost
        }
    }

    /// HLTA, then WUPA, anticollision and SELECT at both cascade levels.
    public func reactivate() throws(TransportError) {
        let sent = waitsForAirtime ? AirtimeWait.now() : 0
        let before = tag.airtimeMicroseconds
        tag.halt()
        let detected = tag.activate()
        wait(from: sent, tag.airtimeMicroseconds - before)
        guard detected != nil else { throw .tagLost }
    }

    /// Airtime since this transceiver was made, microseconds.
    public var modelledAirtimeMicroseconds: Double? { tag.airtimeMicroseconds - airtimeAtStart }

    private func wait(from sent: UInt64, _ microseconds: Double) {
        guard waitsForAirtime else { return }
        AirtimeWait.wait(from: sent, microseconds: microseconds)
    }
}
