import NDEF
import NFCTags

/// The `sim:` spec for Type 3 (FeliCa) tags: chips `felica-lite-s` and `type3` (a FeliCa Lite-S),
/// `felica-standard` (a FeliCa Standard card with the NDEF system only, `FeliCaEmulator.standardPMm`), and the
/// behaviours `docs/reference/type3.md` leaves unverified.
///
/// ```
/// sim:felica-lite-s?…   FeliCa Lite-S (RC-S966), NDEF-formatted (MC SYS_OP 01, empty attribute block)
/// sim:type3?…           the same chip: the Type 3 tag the simulator presents
/// sim:felica-standard?… FeliCa Standard, system 12FC only: NmaxB 13, Nbr 8, Nbw 4, no MC (RWFlag only)
///
/// refused=XXXX     SF1 SF2 of a write MC refuses (default 01A5)
/// missing=XXXX     SF1 SF2 of a read or write of a block the chip lacks (default 01A8)
/// readservice=any|000B  whether Read accepts 0009 as well as 000B (default any)
/// wcnt=on|off      whether WCNT counts writes (default on)
/// wildcard=88B4|12FC  the system code Polling FFFF with RC 01 names while NDEF is on (default 88B4)
/// ```
///
/// IDm: `uid=` is the first tag's IDm, 16 hex digits taken as given (later tags count up its last six bytes);
/// without it, `01 2E` and six bytes derived from the seed (`FeliCaEmulator.idm(from:)`). `prog=MS` is the
/// time to program one block (default 3 ms). Faults: `tear` (the tag leaves during a frame; a Write then keeps
/// the old or the new block), `noanswer`, `readonly` (RWFlag 00 and MC locked), `unformatted` (SYS_OP 00: no
/// answer to Polling `12FC`), `wrongchip` (an NTAG21x arrives) and `multi`.
extension SimulationOptions {
    /// Applies one Type 3 option (`true`), or returns `false` for a key that is not one.
    mutating func applyType3Option(
        _ key: String, _ value: String, _ bad: (String) -> ReaderSpecError
    ) throws(ReaderSpecError) -> Bool {
        let keys: Set<String> = ["refused", "missing", "readservice", "wcnt", "wildcard"]
        guard type3 != nil else {
            guard !keys.contains(key) else { throw bad("option '\(key)' is for \(Self.chips(of: Type3Family.name))") }
            return false
        }
        if Self.type2OnlyOptions.contains(key) { throw bad("option '\(key)' is for Type 2 chips, not \(chipName)") }
        func flags() throws(ReaderSpecError) -> [UInt8] {
            guard value.count == 4, let bytes = Hex.bytes(value), bytes.count == 2, bytes[0] != 0 else {
                throw bad("\(key) must be SF1 SF2, 4 hex digits with SF1 not 00, got '\(value)'")
            }
            return bytes
        }
        switch key {
        case "refused": type3Configuration.refusedWriteStatus = try flags()
        case "missing": type3Configuration.missingBlockStatus = try flags()
        case "readservice":
            guard value == "any" || value == "000B" else { throw bad("readservice must be 'any' or '000B'") }
            type3Configuration.readAcceptsWriteService = value == "any"
        case "wcnt":
            guard value == "on" || value == "off" else { throw bad("wcnt must be 'on' or 'off'") }
            type3Configuration.countsWrites = value == "on"
        case "wildcard":
            guard value == "88B4" || value == "12FC" else { throw bad("wildcard must be '88B4' or '12FC'") }
            type3Configuration.wildcardSystemCode = value == "88B4" ? 0x88B4 : 0x12FC
        case "prog":
            guard let ms = Double(value), ms >= 0, ms <= 1000 else {
                throw bad("prog must be the programming time in ms (0…1000), got '\(value)'")
            }
            type3Configuration.writeMicroseconds = ms * 1000
        default: return false
        }
        return true
    }
}
