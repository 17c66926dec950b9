import NFCTags

/// InCommunicateThru: raw frames to whatever tag is in the field (`docs/reference/pn532-libnfc.md` §4.6, §6), the path
/// of hosts that run the tag protocol themselves (libnfc's raw mode for Type 2, nfcpy for every type).
extension PN532Chip {
    /// InCommunicateThru `42 data`: the register state decides whether the chip adds CRC_A, how
    /// many bits of the last byte go out, and whether the answer's CRC is checked and stripped.
    /// Raw tag answers carry their CRC_A where the air frame has one (`TagEndpoint.receiveRaw`).
    func communicateThru(_ data: [UInt8]) -> [UInt8] {
        guard fieldOn, let tag = field.current else { return [0x01] }
        if tag is any FeliCaEndpoint { return communicateThruFeliCa(data, tag: tag) }
        lastExchangeUID = tag.uid
        let lastBits = registers.transmitLastBits
        let frame = registers.transmitCRC ? CRCA.appending(to: data) : data
        let answer = tag.receiveRaw(frame, lastByteBits: lastBits == 0 ? 8 : lastBits)
        switch answer {
        case .silence:
            return [0x01]
        case .ack, .nak:
            if registers.receiveCRC { return [0x02] }
            registers.setReceiveLastBits(4)
            if case .nak(let code) = answer { return [0x00, code & 0x0F] }
            return [0x00, 0x0A]
        case .data(let bytes):
            registers.setReceiveLastBits(0)
            guard registers.receiveCRC else { return [0x00] + bytes }
            // The chip checks and strips CRC_A; an answer without one (ATQA, anticollision) fails it.
            guard Self.answerCarriesCRC(to: data, lastBits: lastBits), CRCA.isValid(bytes) else { return [0x02] }
            return [0x00] + Array(bytes.dropLast(2))
        }
    }

    /// ATQA (answer to a short frame) and anticollision answers (`93/95/97` with NVB ≠ `70`) have
    /// no CRC on the air; every other tag answer has one (`docs/reference/type2.md` §1).
    static func answerCarriesCRC(to command: [UInt8], lastBits: Int) -> Bool {
        if lastBits == 7 && command.count == 1 { return false }
        if let first = command.first, [0x93, 0x95, 0x97].contains(first), command.count >= 2, command[1] != 0x70 {
            return false
        }
        return true
    }
}
