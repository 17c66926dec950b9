import NDEF
import NFCTags
import TagEmulator

/// An emulated NTAG 424 DNA left as a keyed SUN job leaves it (message, file settings, K0–K4), and tapped the way
/// a phone reads it: activation, then an unauthenticated NDEF read, which the chip answers with fresh SUN mirrors
/// and one more SDMReadCtr (`docs/reference/type4.md` §3.1).
///
/// Not `Sendable`: it drives a non-Sendable emulator; keep it inside one test.
public final class SUNTag {
    /// The chip.
    public let emulator: Type4Emulator

    /// Writes `message` to the NDEF file of a delivery-state tag `uid`, then applies `settings` to file 02
    /// (SDMReadCtr starts at 0) and sets K0–K4 to `keys` (16 bytes each) with `version`.
    ///
    /// - Throws: when the emulator refuses the message, the settings or a key.
    public init(uid: [UInt8], message: [UInt8], settings: Type4FileSettings, keys: [[UInt8]], version: UInt8) throws {
        emulator = try Type4Emulator(chip: .ntag424, uid: uid)
        _ = emulator.activate()
        _ = try Type4Tag(transceiver: EmulatorTransceiver(tag: emulator)).writeNDEF(message)
        try emulator.setFileSettings(settings, ofFile: 2)
        for (number, key) in keys.enumerated() { try emulator.setKey(number, to: key, version: version) }
        emulator.fieldOff()
    }

    /// One tap: the URI of the message's first record as the chip serves it (`TagError` when it is not a URI).
    public func tap() throws -> String {
        emulator.fieldOff()
        _ = emulator.activate()
        defer { emulator.fieldOff() }
        let bytes = try Type4Tag(transceiver: EmulatorTransceiver(tag: emulator)).readNDEF()
        guard case .uri(let uri) = try NDEFMessage(bytes: bytes).records.first?.content() else {
            throw TagError(.notNDEF, "the tag's first record is not a URI")
        }
        return uri
    }
}
