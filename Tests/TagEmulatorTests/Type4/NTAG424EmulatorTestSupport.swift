import Crypto
import NFCTags
import TagEmulator
import Testing

/// AN12196's worked authentication (Table 14, `docs/reference/type4.md` §2.4): the chip's RndB and TI, the host's
/// RndA, the factory key 0, and the exchange they give.
enum AN12196 {
    static let rndB = "B9E2FC789B64BF237CCCAA20EC7E6E48"
    static let transactionIdentifier = "9D00C4DF"
    static let rndA = "13C5DB8A5930439FC3DEF9A4C675360F"
    static let zeroKey = [UInt8](repeating: 0, count: 16)
    static let part1 = ("90 71 00 00 02 00 00 00", "A04C124213C186F22399D33AC2A30215 91 AF")
    static let part2 = (
        "90 AF 00 00 20 35C3E05A752E0144BAC0DE51C1F22C56B34408A23D8AEA266CAB947EA8E0118D 00",
        "3FA64DB5446D1F34CD6EA311167F5E4985B89690C04A05F17FA7AB2F08120663 91 00"
    )
    static let sessionEncryptionKey = "1309C877509E5A215007FF0ED19CA564"
    static let sessionMACKey = "4C6626F5E72EA694202139295C7A7FC7"
}

/// The ISO SELECT of the NDEF application by name.
let selectNDEFApplication = "00 A4 04 00 07 D2 76 00 00 85 01 01 00"

/// An activated NTAG 424 DNA with the NDEF application selected; `random` fixes the bytes drawn per purpose
/// (the others come from libcrypto).
func activeNTAG424(
    uid: [UInt8] = type4UID, random: [Type4RandomPurpose: String] = [:],
    configuration: Type4EmulatorConfiguration = .init()
) throws -> Type4Emulator {
    let tag = try Type4Emulator(chip: .ntag424, uid: uid, configuration: configuration)
    #expect(tag.activate() != nil)
    let fixed = try random.mapValues { try hex($0) }
    tag.random = { purpose, count in fixed[purpose] ?? SecureRandom.bytes(count) }
    #expect(try tag.send(selectNDEFApplication) == hex("90 00"))
    return tag
}

/// The host's `NTAG424Tag` driving `tag` through the in-process transceiver, NDEF application selected;
/// `rndA` fixes the host's RndA.
func hostNTAG424(_ tag: Type4Emulator, rndA: String? = nil) throws -> NTAG424Tag {
    let type4 = Type4Tag(transceiver: Type4EmulatorTransceiver(tag))
    try type4.selectNDEFApplication()
    let host = NTAG424Tag(type4)
    if let rndA {
        let fixed = try hex(rndA)
        host.random = { _ in fixed }
    }
    return host
}

extension Type4Emulator {
    /// The open session's secure-messaging state (`nil`: not authenticated).
    var messaging: NTAG424SecureMessaging? { session.authentication?.messaging }

    /// The R-APDU to `apdu`; empty when the tag was silent.
    func send(_ apdu: [UInt8]) -> [UInt8] {
        if case .data(let bytes) = exchange(apdu) { return bytes }
        return []
    }
}

extension NTAG424SecureMessaging {
    /// A native APDU `90 ins 00 00 Lc header ‖ data' ‖ MACt 00` in MAC (`full` false) or full mode at the
    /// current CmdCtr, as the host would build it.
    func apdu(_ ins: UInt8, header: [UInt8] = [], data: [UInt8] = [], full: Bool = false) throws -> [UInt8] {
        let body = full && !data.isEmpty ? try encryptCommandData(data) : data
        let payload = header + body + (try commandMAC(command: ins, header: header, data: body))
        return [0x90, ins, 0x00, 0x00, UInt8(payload.count)] + payload + [0x00]
    }
}
