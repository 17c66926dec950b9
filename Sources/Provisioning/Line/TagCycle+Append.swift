import NFCTags

/// What an append (`mode: append`) needs from the tag before the cycle writes: its current message.
extension TagCycle {
    /// The tag's NDEF message (`[]` when empty): GET_VERSION `60`, NFC Forum detection (READ `30` /
    /// FAST_READ `3A` of the CC and TLV), then the message bytes. Never throws: a tag without NDEF is
    /// `notNDEF`, any other failure its class.
    public static func existingMessage(on transceiver: any Transceiver) -> Result<[UInt8], CycleFailure> {
        let tag = Type2Tag(transceiver: transceiver)
        do {
            _ = try tag.identify()
            guard try tag.queryNDEFStatus().status != .notSupported else {
                return .failure(
                    CycleFailure(.notNDEF, phase: .identify, "the tag is not NDEF formatted: nothing to append to"))
            }
            return .success(try tag.readNDEF())
        } catch {
            return .failure(CycleFailure(classifying: error, phase: .identify))
        }
    }
}
