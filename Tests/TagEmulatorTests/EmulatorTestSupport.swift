import NDEF
import NFCTags
import TagEmulator
import Testing

/// UID of the §2.2 / §6 examples.
let exampleUID: [UInt8] = [0x04, 0x51, 0x7C, 0xE1, 0xED, 0x25, 0x80]

/// A factory tag, already activated.
func activeTag(
    _ chip: ChipModel = .ntag213, uid: [UInt8] = exampleUID, configuration: EmulatorConfiguration = .init(),
    faults: TagFaults = .init()
) throws -> NTAGEmulator {
    let tag = try NTAGEmulator(chip: chip, uid: uid, configuration: configuration, faults: faults)
    #expect(tag.activate() != nil)
    return tag
}

/// Parses hex written with spaces, failing the test on bad hex.
func hex(_ text: String) throws -> [UInt8] { try #require(Hex.bytes(text)) }

/// The PN532's reply payload to a host payload written in hex (`D4 …`); an issue when it does not reply.
func send(_ chip: PN532Chip, _ payload: String) throws -> [UInt8] {
    guard case .reply(let answer) = chip.handle(try hex(payload)) else {
        Issue.record("no reply to \(payload)")
        return []
    }
    return answer
}

extension NTAGEmulator {
    /// WRITE `A2` and return the answer.
    func write(_ page: Int, _ bytes: [UInt8]) -> TagAnswer { exchange([0xA2, UInt8(page)] + bytes) }

    /// READ `30` answer bytes, or `nil` when not data.
    func readPages(_ page: Int) -> [UInt8]? {
        if case .data(let bytes) = exchange([0x30, UInt8(page)]) { return bytes }
        return nil
    }

    /// HLTA then activate (a reader's re-select).
    func reselect() {
        halt()
        _ = activate()
    }
}
