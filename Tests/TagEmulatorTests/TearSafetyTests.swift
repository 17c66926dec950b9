import NDEF
import NFCTags
import TagEmulator
import Testing

/// Issue 3: a tear after any single exchange of `Type2Tag.writeNDEF` leaves the tag holding the old
/// message, an empty NDEF message, or the new message — never anything else (`docs/reference/type2.md` §5.6).
///
/// Each case writes the old message to a fresh tag, then for every k the tag is re-presented with a
/// tear after k exchanges of the new write (the exchange in flight, a WRITE included, is torn with the
/// emulator's per-byte old/new mix), re-activated, and read back with a fresh session.
@Suite struct TearSafetyTests {
    /// One old → new rewrite; `old == nil` means the factory-fresh empty NDEF TLV.
    struct Case: Sendable, CustomStringConvertible {
        var chip: ChipModel
        var oldSize: Int?
        var newSize: Int
        var description: String { "\(chip) \(oldSize.map(String.init) ?? "factory") → \(newSize) bytes" }
    }

    static let cases: [Case] = [
        Case(chip: .ntag213, oldSize: nil, newSize: 16),
        Case(chip: .ntag213, oldSize: 16, newSize: 60),
        Case(chip: .ntag213, oldSize: 120, newSize: 20),
        Case(chip: .ntag213, oldSize: 40, newSize: 137),
        Case(chip: .ntag215, oldSize: nil, newSize: 300),
        Case(chip: .ntag215, oldSize: 20, newSize: 255),
        Case(chip: .ntag215, oldSize: 300, newSize: 24),
        Case(chip: .ntag215, oldSize: 300, newSize: 480),
        Case(chip: .ntag216, oldSize: 30, newSize: 400),
        Case(chip: .ntag216, oldSize: 600, newSize: 868),
        Case(chip: .ntag216, oldSize: 868, newSize: 12),
    ]

    static let uid: [UInt8] = [0x04, 0x7E, 0x41, 0x12, 0x4C, 0x28, 0x80]

    /// A valid NDEF message of exactly `size` bytes (one record of TNF unknown), filled from `seed`.
    static func message(size: Int, seed: UInt8) -> [UInt8] {
        // Short record header: 3 bytes + payload; long (SR clear) header: 6 bytes + payload.
        let payloadCount = size - 3 <= 255 ? size - 3 : size - 6
        let payload = (0..<payloadCount).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed)) }
        return NDEFMessage(records: [.unknown(payload: payload)]).bytes
    }

    /// A fresh tag of `chip` holding `old` (or factory-fresh), not in an active session.
    static func tag(_ chip: ChipModel, holding old: [UInt8]?) throws -> NTAGEmulator {
        let emulator = try NTAGEmulator(chip: chip, uid: uid)
        if let old {
            _ = emulator.activate()
            let session = Type2Tag(transceiver: EmulatorTransceiver(tag: emulator))
            try session.identify()
            try session.verify(try session.writeNDEF(old))
        }
        return emulator
    }

    /// What a fresh session reads from the tag after re-presenting it.
    static func readBack(_ emulator: NTAGEmulator) throws -> [UInt8] {
        emulator.represent()
        _ = emulator.activate()
        let session = Type2Tag(transceiver: EmulatorTransceiver(tag: emulator))
        try session.identify()
        return try session.readNDEF()
    }

    @Test(arguments: cases)
    func tearAfterEveryExchangeLeavesOldEmptyOrNew(_ testCase: Case) throws {
        let old = testCase.oldSize.map { Self.message(size: $0, seed: 0x11) }
        let new = Self.message(size: testCase.newSize, seed: 0x5A)
        #expect(new.count == testCase.newSize)
        #expect(old.map(\.count) == testCase.oldSize)
        let identity = Type2Identity(chip: testCase.chip, version: testCase.chip.version)

        // The clean write: how many exchanges it takes, and that it lands.
        let clean = try Self.tag(testCase.chip, holding: old)
        clean.represent()
        _ = clean.activate()
        let cleanSession = Type2Tag(transceiver: EmulatorTransceiver(tag: clean), identity: identity)
        try cleanSession.writeNDEF(new)
        let exchanges = cleanSession.total.exchanges
        #expect(exchanges >= 3)
        #expect(try Self.readBack(clean) == new)

        var outcomes: [String: Int] = [:]
        for k in 0..<exchanges {
            let emulator = try Self.tag(testCase.chip, holding: old)
            var faults = TagFaults()
            faults.removedAfterExchanges = k
            faults.seed = UInt64(k) &* 0x9E37_79B9
            emulator.represent(faults: faults)
            _ = emulator.activate()
            let session = Type2Tag(transceiver: EmulatorTransceiver(tag: emulator), identity: identity)
            #expect(throws: TransportError.tagLost, "tear after \(k) of \(exchanges) exchanges") {
                try session.writeNDEF(new)
            }
            #expect(!emulator.isPresent)
            let found = try Self.readBack(emulator)
            let outcome: String
            if found == new {
                outcome = "new"
            } else if found.isEmpty {
                outcome = "empty"
            } else if let old, found == old {
                outcome = "old"
            } else {
                outcome = "corrupt"
                let head = Hex.string(found.prefix(24))
                Issue.record("tear after \(k) of \(exchanges) exchanges left \(found.count) bytes: \(head)")
            }
            outcomes[outcome, default: 0] += 1
        }
        // The first exchange torn leaves the tag untouched; nothing is ever half a message.
        #expect(outcomes["corrupt"] == nil)
        #expect(outcomes[old == nil ? "empty" : "old", default: 0] >= 1)
        if old != nil { #expect(outcomes["empty", default: 0] >= 1, "the length must go to 0 before the data") }
    }

    @Test func tornFirstExchangeKeepsTheOldMessageExactly() throws {
        let old = Self.message(size: 40, seed: 1)
        let emulator = try Self.tag(.ntag213, holding: old)
        var faults = TagFaults()
        faults.removedAfterExchanges = 0
        emulator.represent(faults: faults)
        _ = emulator.activate()
        let session = Type2Tag(
            transceiver: EmulatorTransceiver(tag: emulator), identity: Type2Identity(chip: .ntag213))
        #expect(throws: TransportError.tagLost) { try session.writeNDEF(Self.message(size: 50, seed: 2)) }
        #expect(try Self.readBack(emulator) == old)
    }
}
