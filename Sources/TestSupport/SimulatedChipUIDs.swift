import NFCTags
import TagEmulator

/// A UID in each simulated chip's own form that is not its default, for tests that check a `uid=` is presented
/// exactly as given, on every `sim:` chip (`SimulationOptions.chipNames`: a new chip is covered at once).
public enum SimulatedChipUIDs {
    /// Every `sim:` chip name with a UID of its form (`uid(for:)`).
    public static func all() throws -> [(chip: String, uid: [UInt8])] {
        try SimulationOptions.chipNames.map { ($0, try uid(for: $0)) }
    }

    /// The chip's default first UID with its last three bytes changed and, where the family fixes no first
    /// byte, its first two as well (so a FeliCa IDm given as `02 27 …` must not become `01 2E …`).
    public static func uid(for chip: String) throws -> [UInt8] {
        let options = try SimulationOptions("sim:\(chip)")
        var uid = options.uid(at: 0)
        uid.replaceSubrange((uid.count - 3)..., with: [0xA1, 0xB2, 0xC3])
        if options.uidForm.firstByte == nil {
            uid[0] ^= 0x03
            uid[1] ^= 0x09
        }
        return uid
    }
}
