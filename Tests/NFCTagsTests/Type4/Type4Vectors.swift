import NDEF
import NFCTags
import TestSupport

/// The hex vectors the Type 4 family tests share (`docs/reference/type4.md` §1.3, §1.8, §2.3), and the scripted
/// steps built from them, so every test writes the exact APDUs expected and the exact answers.
enum Type4Vectors {
    static func hex(_ text: String) -> [UInt8] { Hex.bytes(text) ?? [] }
    static let ok = hex("90 00")

    /// GetVersion of an NTAG 424 DNA: AN12196's part 1 and 2 answers, §2.3's part 3 example.
    static let getVersion424: [ScriptedTransceiver.Step] = [
        .exchange(hex("90 60 00 00 00"), hex("04 04 02 30 00 11 05 91 AF")),
        .exchange(hex("90 AF 00 00 00"), hex("04 04 02 01 02 11 05 91 AF")),
        .exchange(hex("90 AF 00 00 00"), hex("04 96 8C AA 5C 5E 80 CD 65 93 5D 40 21 18 91 00")),
    ]
    /// The UID the 424's GetVersion part 3 names.
    static let uid424 = hex("04 96 8C AA 5C 5E 80")

    /// GetVersion of a MIFARE DESFire-like chip: HW type 01, HW major 12h.
    static let getVersionDESFire: [ScriptedTransceiver.Step] = [
        .exchange(hex("90 60 00 00 00"), hex("04 01 01 12 00 18 05 91 AF")),
        .exchange(hex("90 AF 00 00 00"), hex("04 01 01 12 00 18 05 91 AF")),
        .exchange(hex("90 AF 00 00 00"), hex("04 11 22 33 44 55 66 BA 01 02 03 04 05 30 19 91 00")),
    ]

    /// A generic T4T: GetVersion's CLA `90` refused with `6E 00`.
    static let getVersionRefused: [ScriptedTransceiver.Step] = [.exchange(hex("90 60 00 00 00"), hex("6E 00"))]

    /// The NTAG 424 DNA's CC at delivery (23 bytes of CCLEN in its 32-byte file, §1.8).
    static let cc424 = hex("00 17 20 01 00 00 FF 04 06 E1 04 01 00 00 00 05 06 E1 05 00 80 82 83")
    /// The whole 32-byte CC file of an NTAG 424 DNA at delivery.
    static let ccFile424 = cc424 + [UInt8](repeating: 0, count: 9)
    /// nfcpy's test CC: MLe 3Bh, MLc 34h, NDEF file E104h of 2,048 bytes, open.
    static let ccOpen = hex("00 0F 20 00 3B 00 34 04 06 E1 04 08 00 00 00")

    static let selectApplication = hex("00 A4 04 00 07 D2 76 00 00 85 01 01 00")
    static let selectCC = hex("00 A4 00 0C 02 E1 03")
    static let selectNDEF = hex("00 A4 00 0C 02 E1 04")

    /// Detection on a 424 the family identified: the CC's first 15 bytes (its proprietary file TLV is not
    /// needed to write), then NLEN.
    /// `whole` (inspect): one READ BINARY of the whole 32-byte CC file, proprietary TLV included.
    static func detection424(
        nlen: [UInt8], ccFile: [UInt8] = ccFile424, whole: Bool = false
    ) -> [ScriptedTransceiver.Step] {
        [
            .exchange(selectApplication, ok), .exchange(selectCC, ok),
            whole
                ? .exchange(hex("00 B0 00 00 20"), ccFile + ok)
                : .exchange(hex("00 B0 00 00 0F"), Array(ccFile.prefix(15)) + ok),
            .exchange(selectNDEF, ok), .exchange(hex("00 B0 00 00 02"), nlen + ok),
        ]
    }

    /// Detection on a generic T4T with a CC of 15 bytes: the T4T default READ BINARY of 15.
    static func detection(cc: [UInt8] = ccOpen, nlen: [UInt8]) -> [ScriptedTransceiver.Step] {
        [
            .exchange(selectApplication, ok), .exchange(selectCC, ok), .exchange(hex("00 B0 00 00 0F"), cc + ok),
            .exchange(selectNDEF, ok), .exchange(hex("00 B0 00 00 \(Hex.byte(UInt8(nlen.count)))"), nlen + ok),
        ]
    }

    /// A family tag on `script`, identified by the script's first steps.
    static func identified(_ script: ScriptedTransceiver, options: Type4Options = Type4Options()) throws
        -> Type4FamilyTag
    {
        let tag = Type4FamilyTag(
            Type4Tag(transceiver: script), activation: DetectedTag(uid: uid424, sak: 0x20, ats: ats424),
            options: options)
        try tag.identify()
        return tag
    }

    /// The NTAG 424 DNA's ATS (§1.1).
    static let ats424 = hex("06 77 77 71 02 80")
}
