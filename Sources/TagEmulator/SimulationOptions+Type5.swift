import NDEF
import NFCTags

/// The `sim:` spec for Type 5 (ISO/IEC 15693) tags: chips `icode-slix`, `icode-slix2`, `st25tv02k` and
/// `type5`, and their own options (`Type5EmulatedChip` documents each chip's defaults).
///
/// ```
/// sim:icode-slix?…    NXP ICODE SLIX, 28 blocks of 4 bytes, factory CC E1 40 0E 01
/// sim:icode-slix2?…   NXP ICODE SLIX2, 80 blocks (79: counter), factory CC E1 40 28 01
/// sim:st25tv02k?…     ST ST25TV02K, 64 blocks, factory CC E1 40 1F 01
/// sim:type5?…         a generic NFC Forum Type 5 tag (manufacturer 16h), 64 blocks
///
/// uid=HEX          first UID, 16 hex digits MSB first (E0…); later tags count up its last 4 bytes
///                  (default: the chip's UID prefix, then bytes derived from seed)
/// blocks=N         st25tv02k/type5: the block count Get System Information reports (st25tv02k: 64 or 80)
/// icref=HEX        the IC reference Get System Information reports (2 hex digits)
/// prog=MS          tWrite: EEPROM programming time of one Write Single Block or Lock Block (default 5 ms)
/// unknown=ANS      error (default: 01 01) | silence: answer to an unknown standard command
/// optionwrite=ANS  refuse (03, default for NXP) | accept (default for ST and type5): Write Single Block and
///                  Lock Block with the option flag (unverified for SLIX/SLIX2, docs/reference/type5.md §4 item 5)
/// extgsi=on|off    whether Extended Get System Information 3B is answered (default off for NXP, on otherwise;
///                  an assumption)
/// ```
///
/// `timing=datasheet` waits the ISO 15693 airtime at 26.48 kbit/s (`Type5Timing`). Faults: `tear` (the tag
/// leaves during one of its first 16 requests; a torn block keeps its old or new content whole),
/// `noanswer`, `nak5` (one of blocks 4–15 answers Write Single Block with `01 13`), `readonly` (CC write access
/// `11` and every block locked), `unformatted` (blank memory) and `multi`; `plan=` entries `nak:C` answer `01 C`.
/// The Type 2 chip switches and `wrongchip`/`clone` are refused for a Type 5 population.
extension SimulationOptions {
    /// The Type 2 and Type 4 options a Type 5 population refuses.
    static let notType5Options: Set<String> = [
        "identity", "config", "locks", "wrongpwd", "rfui", "signer", "size", "mapping", "mle", "mlc", "fwi", "wtx",
    ]

    /// Applies one Type 5 option (`true`), or returns `false` for a key that is not one.
    mutating func applyType5Option(
        _ key: String, _ value: String, _ bad: (String) -> ReaderSpecError
    ) throws(ReaderSpecError) -> Bool {
        guard var current = type5 else {
            guard !["blocks", "icref", "optionwrite", "extgsi"].contains(key) else {
                throw bad("option '\(key)' is for \(Self.chips(of: Type5Family.name))")
            }
            return false
        }
        if Self.notType5Options.contains(key) { throw bad("option '\(key)' is not for Type 5 chips") }
        switch key {
        case "blocks":
            let allowed: ClosedRange<Int> = current.model == .generic ? 2...256 : 64...80
            guard current.model == .generic || current.model == .st25tv02k, let n = Int(value), allowed.contains(n),
                current.model == .generic || n == 64 || n == 80
            else { throw bad("blocks is 64 or 80 for st25tv02k, 2…256 for type5, got '\(value)'") }
            current.blockCount = n
        case "icref":
            guard value.count == 2, let byte = Hex.bytes(value)?.first else {
                throw bad("icref must be 2 hex digits, got '\(value)'")
            }
            current.icReference = byte
        case "prog":
            guard let ms = Double(value), ms >= 0, ms <= 1000 else {
                throw bad("prog must be the programming time in ms (0…1000), got '\(value)'")
            }
            current.writeMicroseconds = ms * 1000
        case "optionwrite":
            guard value == "refuse" || value == "accept" else {
                throw bad("optionwrite must be 'refuse' or 'accept', got '\(value)'")
            }
            current.acceptsOptionFlagOnWrites = value == "accept"
        case "extgsi":
            guard value == "on" || value == "off" else { throw bad("extgsi must be 'on' or 'off', got '\(value)'") }
            current.answersExtendedSystemInformation = value == "on"
        case "unknown":
            guard value == "error" || value == "silence" else { throw bad("unknown must be 'error' or 'silence'") }
            type5SilentToUnknown = value == "silence"
        default:
            return false
        }
        type5 = current
        return true
    }

    /// The UID of the Type 5 tag at `index`: the first UID with its last 4 bytes counted up.
    func type5UID(at index: Int, chip: Type5EmulatedChip) -> [UInt8] {
        let first = type5FirstUID ?? Self.derivedType5UID(prefix: chip.uidPrefix, seed: seed)
        var value: UInt64 = 0
        for byte in first[4...] { value = value << 8 | UInt64(byte) }
        value = (value &+ UInt64(index)) & 0xFFFF_FFFF
        return Array(first[..<4]) + (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(3 - $0))) }
    }

    /// The chip's UID prefix, then bytes derived from `seed` up to 8 bytes.
    static func derivedType5UID(prefix: [UInt8], seed: UInt64) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        let bits = rng.next()
        return prefix + (0..<(8 - prefix.count)).map { UInt8(truncatingIfNeeded: bits >> (8 * UInt64($0))) }
    }
}
