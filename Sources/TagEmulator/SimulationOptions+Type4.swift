import Crypto
import NDEF
import NFCTags

/// The `sim:` spec for Type 4 (ISO-DEP) tags: chips `ntag424` and `type4`, and their own options.
///
/// ```
/// sim:ntag424?…     NTAG 424 DNA in its delivery state (NDEF file E104 of 256 bytes, plain access)
/// sim:type4?…       a generic NFC Forum T4T (mapping 2.0, 2048-byte NDEF file, MLe/MLc 246)
///
/// size=N            generic: NDEF file size in bytes, its length field included (5…32767)
/// mapping=2|3       generic: T4T mapping version 2.0 (NLEN) or 3.0 (ENDEF TLV, ENLEN)
/// mle=N, mlc=N      generic: the largest R-APDU data (15…65535) and C-APDU data (1…65535) the CC announces
/// fwi=N             FWI the ATS announces (0…14): the frame waiting time the reader allows
/// wtx=on            the tag asks for a waiting-time extension (S(WTX)) before each answer
/// signer=HEX        ntag424: secp224r1 private key (56 hex digits) the tags sign Read_Sig with (default: the
///                   repository's `NTAG424TestSigningKey`); another key simulates chips from an untrusted source
/// ```
///
/// The other options apply as to Type 2 tags, except the Type 2 chip switches (identity, config, locks,
/// wrongpwd, unknown, rfui), which a Type 4 population refuses; `sim:type4` refuses `signer` too (a generic
/// Type 4 tag has no originality signature). `prog=MS` is the programming
/// time of one write frame. Faults: `tear` (the tag leaves during one of its first 16 frames), `noanswer`,
/// `readonly` (NDEF file refused for writing), `unformatted` (no NDEF application), `wrongchip` (an
/// NTAG21x arrives instead: a Type 2 tag the job must refuse) and `multi`.
extension SimulationOptions {
    /// The Type 2 chip switches a Type 4 population refuses.
    static let type2OnlyOptions: Set<String> = ["identity", "config", "locks", "wrongpwd", "unknown", "rfui"]

    /// The chip as the spec names it (`ntag215`, `ntag424`, `type4`).
    public var chipName: String { type3 ?? type5?.tagChip.id ?? type4?.tagChip.id ?? chip.rawValue }

    /// The Type 4 `sim:` chip names, each with its chip.
    static let type4Chips: [(name: String, chip: Type4EmulatedChip)] = [
        ("ntag424", .ntag424), ("type4", .genericDefault),
    ]

    /// The Type 4 chip a `sim:` chip name stands for (`nil`: not a Type 4 name).
    static func type4Chip(named name: String) -> Type4EmulatedChip? { type4Chips.first { $0.name == name }?.chip }

    /// Applies one Type 4 option (`true`), or returns `false` for a key that is not one.
    mutating func applyType4Option(
        _ key: String, _ value: String, _ bad: (String) -> ReaderSpecError
    ) throws(ReaderSpecError) -> Bool {
        guard let current = type4 else {
            guard !["size", "mapping", "mle", "mlc", "fwi", "wtx"].contains(key) else {
                throw bad("option '\(key)' is for \(Self.chips(of: Type4Family.name))")
            }
            return false
        }
        if Self.type2OnlyOptions.contains(key) { throw bad("option '\(key)' is for Type 2 chips, not \(chipName)") }
        func number(_ range: ClosedRange<Int>) throws(ReaderSpecError) -> Int {
            guard let n = Int(value), range.contains(n) else {
                throw bad("\(key) must be an integer in \(range.lowerBound)…\(range.upperBound), got '\(value)'")
            }
            return n
        }
        switch key {
        case "signer":
            guard current == .ntag424 else {
                throw bad(
                    "option 'signer' is for chips with an originality signature (ntag424, NTAG21x), not \(chipName)")
            }
            type4Configuration.signingKey = try Self.secp224r1Signer(value, bad)
        case "fwi": type4Configuration.frameWaitingInteger = UInt8(try number(0...14))
        case "wtx":
            guard value == "on" || value == "off" else { throw bad("wtx must be 'on' or 'off', got '\(value)'") }
            type4Configuration.requestsWaitingTimeExtension = value == "on"
        case "prog":
            guard let ms = Double(value), ms >= 0, ms <= 1000 else {
                throw bad("prog must be the programming time in ms (0…1000), got '\(value)'")
            }
            type4Configuration.writeFrameMicroseconds = ms * 1000
        case "size", "mapping", "mle", "mlc":
            guard case .generic(var mapping, var size, var mle, var mlc) = current else {
                throw bad("option '\(key)' is for sim:type4; the NTAG 424 DNA's files are fixed")
            }
            switch key {
            case "size": size = try number(5...0x7FFF)
            case "mapping": mapping = try number(2...3) == 3 ? 0x30 : 0x20
            case "mle": mle = try number(15...0xFFFF)
            default: mlc = try number(1...0xFFFF)
            }
            let chip = Type4EmulatedChip.generic(mapping: mapping, ndefFileSize: size, mle: mle, mlc: mlc)
            do { _ = try chip.deliveryFiles() } catch { throw bad("\(error)") }
            type4 = chip
        default: return false
        }
        return true
    }

    /// A `signer=` value for NTAG 424 DNA tags: a secp224r1 private scalar, 56 hex digits, non-zero and below the
    /// curve order (checked by deriving its public key with libcrypto).
    private static func secp224r1Signer(
        _ value: String, _ bad: (String) -> ReaderSpecError
    ) throws(ReaderSpecError) -> [UInt8] {
        guard value.count == 56, let bytes = Hex.bytes(value), bytes.count == 28,
            (try? OriginalitySignature.publicKey(forPrivateKey: bytes, curve: .secp224r1)) != nil
        else {
            throw bad("signer must be a secp224r1 private key for ntag424: 56 hex digits, non-zero, below the order")
        }
        return bytes
    }
}
