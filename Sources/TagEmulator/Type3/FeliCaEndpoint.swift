import NFCTags

/// A tag that answers FeliCa Polling instead of ISO/IEC 14443-A activation (a Type 3 tag): front ends that
/// poll with a reader's own Polling request (a PN532's InListPassiveTarget at 212 or 424 kbit/s) use it.
public protocol FeliCaEndpoint: TagEndpoint {
    /// The card's answer to the reader's Polling `request` (`LEN 00 SC RC TSN`): `LEN 01 IDm PMm [SC]`, or `nil`
    /// when it stays silent (gone, or not in the polled system). Not counted as an exchange, as `activate()`.
    func answerPolling(_ request: [UInt8]) -> [UInt8]?
}

extension FeliCaEmulator: FeliCaEndpoint {
    public func answerPolling(_ request: [UInt8]) -> [UInt8]? {
        guard isPresent, request.count == 6, request[0] == 0x06, request[1] == 0x00, let answer = poll(request) else {
            return nil
        }
        airtimeMicroseconds += pollingAirtime(answer)
        return answer
    }
}
