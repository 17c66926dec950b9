import NFCTags

/// A FeliCa card behind a front end that polls it with a payload of its own (PN532 InListPassiveTarget at
/// 212 or 424 kbit/s, `docs/reference/type3.md` §2.1) rather than with a reader's ISO/IEC 14443-A activation.
public protocol FeliCaEndpoint: TagEndpoint {
    /// Polling `06 00 SC RC TSN` as the activation sends it (not counted as an exchange, as `activate()`).
    ///
    /// - Returns: the answer, LEN first (`12 01 IDm PMm` or `14 01 IDm PMm SC`), or `nil` when the card stays
    ///   silent (gone, or no system with that code).
    func activate(polling request: [UInt8]) -> [UInt8]?
}

extension FeliCaEmulator: FeliCaEndpoint {
    public func activate(polling request: [UInt8]) -> [UInt8]? {
        guard isPresent, request.count == 6, request[1] == 0x00 else { return nil }
        guard let answer = poll(request) else {
            // The reader waited out slot 0 and its width (one time slot: 256·64/fc) in vain.
            airtimeMicroseconds +=
                FeliCaTiming.frameMicroseconds(len: 6) + FeliCaTiming.pollingSlotZeroMicroseconds
                + FeliCaTiming.pollingSlotMicroseconds
            return nil
        }
        airtimeMicroseconds += pollingAirtime(answer)
        return answer
    }
}
