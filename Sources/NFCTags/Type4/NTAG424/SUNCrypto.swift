import Crypto

/// What an NTAG 424 DNA's encrypted PICCData mirror holds (`docs/reference/type4.md` §3.3).
public struct PICCData: Sendable, Hashable {
    /// PICCDataTag: bit 7 UID mirrored, bit 6 SDMReadCtr mirrored, bits 3–0 the UID length.
    public var tag: UInt8
    /// The UID, when mirrored.
    public var uid: [UInt8]?
    /// SDMReadCtr, when mirrored.
    public var counter: UInt32?

    /// Creates PICCData.
    public init(tag: UInt8, uid: [UInt8]?, counter: UInt32?) {
        self.tag = tag
        self.uid = uid
        self.counter = counter
    }
}

/// The cryptography of SUN (Secure Dynamic Messaging) in AES mode (`docs/reference/type4.md` §3.3–§3.6): what the
/// chip computes at each tap and what a verifier recomputes. Pure; AES through libcrypto (`AES128`).
public enum SUNCrypto {
    /// PICCData from its 16-byte cryptogram `AES-CBC(SDMMetaReadKey, IV 0, …)`; `nil` when the decrypted
    /// PICCDataTag is not a valid one (bits 5–4 set, or a UID length other than 7 with the UID mirrored).
    public static func decryptPICCData(metaReadKey: [UInt8], _ cryptogram: [UInt8]) throws(AES128Error) -> PICCData? {
        let plain = try AES128.decryptCBC(key: metaReadKey, cryptogram)
        let tag = plain[0]
        let hasUID = tag & 0x80 != 0
        let hasCounter = tag & 0x40 != 0
        guard tag & 0x30 == 0, !hasUID || tag & 0x0F == 7 else { return nil }
        let uid = hasUID ? Array(plain[1...7]) : nil
        let start = hasUID ? 8 : 1
        let counter = hasCounter ? plain[start..<start + 3].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) } : nil
        return PICCData(tag: tag, uid: uid, counter: counter)
    }

    /// SDMReadCtr as the crypto inputs take it: 3 bytes, least significant first.
    static func counterBytes(_ counter: UInt32) -> [UInt8] {
        (0..<3).map { UInt8(truncatingIfNeeded: counter >> (8 * $0)) }
    }

    /// SesSDMFileReadENCKey: `CMAC(SDMFileReadKey, C3 3C 00 01 00 80 ‖ UID ‖ SDMReadCtr)`.
    public static func encryptionKey(fileReadKey: [UInt8], uid: [UInt8], counter: UInt32) throws(AES128Error)
        -> [UInt8]
    {
        try AES128.cmac(key: fileReadKey, [0xC3, 0x3C, 0x00, 0x01, 0x00, 0x80] + uid + counterBytes(counter))
    }

    /// SesSDMFileReadMACKey: `CMAC(SDMFileReadKey, 3C C3 00 01 00 80 [‖ UID] [‖ SDMReadCtr] ‖ 00-padding)`,
    /// with the UID and counter only when they are mirrored, zero-padded to a multiple of 16.
    public static func macKey(fileReadKey: [UInt8], uid: [UInt8]?, counter: UInt32?) throws(AES128Error) -> [UInt8] {
        var vector: [UInt8] = [0x3C, 0xC3, 0x00, 0x01, 0x00, 0x80] + (uid ?? []) + (counter.map(counterBytes) ?? [])
        vector += [UInt8](repeating: 0, count: (16 - vector.count % 16) % 16)
        return try AES128.cmac(key: fileReadKey, vector)
    }

    /// SDMMAC: MACt of the file bytes between SDMMACInputOffset and SDMMACOffset as they left the chip (ASCII
    /// mirrors included; empty when the offsets are equal).
    public static func sdmMAC(macKey: [UInt8], input: [UInt8]) throws(AES128Error) -> [UInt8] {
        NTAG424SecureMessaging.truncated(try AES128.cmac(key: macKey, input))
    }

    /// Whether `presented` is the SDMMAC of `input` under `macKey`, compared in constant time (`ConstantTime`), so
    /// answer times do not reveal how many leading bytes of a forged MAC are right.
    public static func sdmMACMatches(macKey: [UInt8], input: [UInt8], presented: [UInt8]) throws(AES128Error) -> Bool {
        ConstantTime.equal(try sdmMAC(macKey: macKey, input: input), presented)
    }

    /// SDMENCFileData decrypted: `AES-CBC⁻¹(SesSDMFileReadENCKey, IV, cryptogram)` with IV =
    /// `E_ECB(SesSDMFileReadENCKey, SDMReadCtr ‖ 00×13)`.
    public static func decryptFileData(
        encryptionKey: [UInt8], counter: UInt32, _ cryptogram: [UInt8]
    ) throws(AES128Error) -> [UInt8] {
        let iv = try AES128.encryptECB(key: encryptionKey, counterBytes(counter) + [UInt8](repeating: 0, count: 13))
        return try AES128.decryptCBC(key: encryptionKey, iv: iv, cryptogram)
    }
}
