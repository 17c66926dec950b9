import Crypto
import NFCTags
import Support

/// What an SDM-enabled file looks like as it leaves the chip on an unauthenticated read (NT4H2421Gx §9.3,
/// `docs/reference/type4.md` §3.2–3.6): the static bytes with every mirror written over its placeholder, as
/// upper-case ASCII hex. Pure; the SDM session keys and SDMMAC are the verifier's own (`SUNCrypto`).
///
/// ```
/// UID (plain)        14 chars   EncodeASCII(UID)                              MetaRead E, b7
/// SDMReadCtr (plain)  6 chars   counter, most significant byte first          MetaRead E, b6
/// PICCData           32 chars   AES-CBC(K_MetaRead, IV 0, PICCDataTag ‖ [UID] ‖ [ctr LE] ‖ padding)
/// SDMENCFileData      L chars   AES-CBC(SesSDMFileReadENC, IV, plaintext in the window's first L/2 bytes)
/// SDMMAC             16 chars   MACt(SesSDMFileReadMAC, output[SDMMACInputOffset ..< SDMMACOffset])
/// ```
extension Type4SDMSettings {
    /// PICCDataTag: bit 7 UID mirrored, bit 6 SDMReadCtr mirrored, bits 3–0 the UID length (7 or 0).
    public var piccDataTag: UInt8 { (mirrorsUID ? 0x87 : 0x00) | (mirrorsReadCounter ? 0x40 : 0x00) }

    /// Random padding bytes that fill PICCData to 16 bytes (5 with UID and counter).
    public var piccDataPaddingLength: Int { 16 - 1 - (mirrorsUID ? 7 : 0) - (mirrorsReadCounter ? 3 : 0) }

    /// `file` with the mirrors of these settings for `uid` and SDMReadCtr `counter`.
    ///
    /// - Parameters:
    ///   - padding: PICCData's random padding (`piccDataPaddingLength` bytes; fewer are zero-filled).
    ///   - key: the application key with a number (SDMMetaRead, SDMFileRead).
    /// - Throws: `AES128Error` only for keys that are not 16 bytes.
    public func mirrored(
        _ file: [UInt8], uid: [UInt8], counter: UInt32, padding: [UInt8], key: (UInt8) -> [UInt8]
    ) throws(AES128Error) -> [UInt8] {
        var out = file
        func put(_ bytes: [UInt8], at offset: Int) {
            let ascii = Array(HexEncoding.encode(bytes).utf8)
            out.replaceSubrange(offset..<(offset + ascii.count), with: ascii)
        }
        let counterLE = (0..<3).map { UInt8(truncatingIfNeeded: counter >> (8 * UInt32($0))) }
        if hasPlainUID { put(uid, at: uidOffset) }
        if hasPlainCounterField && readCounterOffset != Self.unmirroredOffset {
            put(counterLE.reversed(), at: readCounterOffset)
        }
        if let metaReadKey {
            let filler = Array((padding + [UInt8](repeating: 0, count: 16)).prefix(piccDataPaddingLength))
            let plain = [piccDataTag] + (mirrorsUID ? uid : []) + (mirrorsReadCounter ? counterLE : []) + filler
            put(try AES128.encryptCBC(key: key(metaReadKey), plain), at: piccDataOffset)
        }
        guard let fileReadKey else { return out }
        let fileKey = key(fileReadKey)
        if encryptsFileData {
            let sessionKey = try SUNCrypto.encryptionKey(fileReadKey: fileKey, uid: uid, counter: counter)
            let iv = try AES128.encryptECB(key: sessionKey, counterLE + [UInt8](repeating: 0, count: 13))
            let plain = Array(file[encryptedDataOffset..<(encryptedDataOffset + encryptedDataLength / 2)])
            put(try AES128.encryptCBC(key: sessionKey, iv: iv, plain), at: encryptedDataOffset)
        }
        let macKey = try SUNCrypto.macKey(
            fileReadKey: fileKey, uid: uidIsMirrored ? uid : nil, counter: counterIsMirrored ? counter : nil)
        put(try SUNCrypto.sdmMAC(macKey: macKey, input: Array(out[macInputOffset..<macOffset])), at: macOffset)
        return out
    }
}
