import NFCTags
import TagEmulator
import Testing

/// The UID of the GetVersion example (`docs/reference/type4.md` §2.3).
let type4UID: [UInt8] = [0x04, 0x96, 0x8C, 0xAA, 0x5C, 0x5E, 0x80]

/// A delivery-state tag, already activated.
func activeType4Tag(
    _ chip: Type4EmulatedChip = .ntag424, configuration: Type4EmulatorConfiguration = .init(),
    faults: TagFaults = .init()
) throws -> Type4Emulator {
    let tag = try Type4Emulator(chip: chip, uid: type4UID, configuration: configuration, faults: faults)
    #expect(tag.activate() != nil)
    return tag
}

extension Type4Emulator {
    /// The R-APDU to an APDU written in hex; empty when the tag was silent.
    func send(_ apdu: String) throws -> [UInt8] {
        if case .data(let bytes) = exchange(try hex(apdu)) { return bytes }
        return []
    }

    /// A raw frame written in hex, CRC_A appended when `crc`; the answer bytes (empty: silence).
    func air(_ frame: String, crc: Bool = true, bits: Int = 8) throws -> [UInt8] {
        let bytes = try hex(frame)
        if case .data(let answer) = receiveRaw(crc ? CRCA.appending(to: bytes) : bytes, lastByteBits: bits) {
            return answer
        }
        return []
    }
}

/// Hex with its CRC_A appended (the expected raw answer).
func framed(_ text: String) throws -> [UInt8] { CRCA.appending(to: try hex(text)) }

/// A test-only `Transceiver` over `Type4Emulator.exchange`: the APDU path a PN532 or PC/SC reader gives
/// the host's `Type4Tag`.
final class Type4EmulatorTransceiver: Transceiver {
    let tag: Type4Emulator

    init(_ tag: Type4Emulator) { self.tag = tag }

    func transceive(_ command: [UInt8], timeoutMilliseconds: Int) throws(TransportError) -> [UInt8] {
        switch tag.exchange(command) {
        case .data(let bytes): return bytes
        case .silence: throw tag.isPresent ? .noAnswer : .tagLost
        case .ack: return [0x0A]
        case .nak(let code): throw .nak(code)
        }
    }

    func reactivate() throws(TransportError) {
        tag.halt()
        guard tag.activate() != nil else { throw .tagLost }
    }

    var modelledAirtimeMicroseconds: Double? { tag.airtimeMicroseconds }
}
