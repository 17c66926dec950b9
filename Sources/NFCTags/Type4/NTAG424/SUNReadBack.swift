import Crypto
import NDEF

/// The check of an NTAG 424 DNA's NDEF file as an unauthenticated reader (a phone) got it right after
/// personalisation: every byte the job wrote outside the SUN mirrors unchanged, and the mirrors filled the way
/// the job's keys predict (`docs/reference/type4.md` §3): the PICC data decrypts under K1 to this tag's UID and the
/// expected read counter, and the SDMMAC verifies under K2's session key over the bytes the settings name.
public struct SUNReadBack: Sendable {
    /// The NDEF file's SDM settings (`nil`: no mirror, only the bytes are compared).
    public var sdm: Type4SDMSettings?
    /// K1 (SDMMetaRead), for encrypted PICC data.
    public var metaReadKey: SecretKey
    /// K2 (SDMFileRead) of this tag, for the SDMMAC.
    public var fileReadKey: SecretKey

    /// Creates the check.
    public init(sdm: Type4SDMSettings?, metaReadKey: SecretKey, fileReadKey: SecretKey) {
        self.sdm = sdm
        self.metaReadKey = metaReadKey
        self.fileReadKey = fileReadKey
    }

    /// What the read-back showed.
    public struct Reading: Sendable, Hashable {
        /// The read counter the mirrors carry, when they carry one.
        public var counter: UInt32?
    }

    /// Checks `file` (the NDEF file from offset 0: NLEN, then the message) against `message` for the tag `uid`.
    ///
    /// - Parameter counter: the read counter the mirrors must show (`nil`: any value from 1 up, for a tag whose
    ///   counter this attempt did not reset).
    /// - Throws: `SUNReadBackError` naming the first byte or mirror that disagrees.
    public func check(_ file: [UInt8], message: [UInt8], uid: [UInt8], counter: UInt32?) throws -> Reading {
        let expected = [UInt8(message.count >> 8), UInt8(message.count & 0xFF)] + message
        guard file.count >= expected.count else {
            throw SUNReadBackError("the NDEF file read back \(file.count) bytes, the message needs \(expected.count)")
        }
        let windows = sdm?.windows ?? []
        for offset in expected.indices where file[offset] != expected[offset] {
            guard windows.contains(where: { $0.offset..<($0.offset + $0.length) ~= offset }) else {
                throw SUNReadBackError(
                    "NDEF file byte \(offset) reads \(Hex.byte(file[offset]))h, "
                        + "the job wrote \(Hex.byte(expected[offset]))h"
                )
            }
        }
        guard let sdm else { return Reading() }
        let (mirroredUID, mirroredCounter) = try mirrors(file, sdm)
        if let mirroredUID, mirroredUID != uid {
            throw SUNReadBackError("the SUN names UID \(Hex.compact(mirroredUID)), the tag is \(Hex.compact(uid))")
        }
        if let mirroredCounter {
            if let counter, mirroredCounter != counter {
                throw SUNReadBackError("the SUN read counter is \(mirroredCounter), expected \(counter)")
            }
            if mirroredCounter == 0 { throw SUNReadBackError("the SUN read counter is 0: SDM did not run") }
        }
        if sdm.fileReadKey != nil { try checkMAC(file, sdm, uid: mirroredUID, counter: mirroredCounter) }
        return Reading(counter: mirroredCounter)
    }

    /// The UID and counter the mirrors show: decrypted PICC data, or the plain ASCII mirrors.
    private func mirrors(_ file: [UInt8], _ sdm: Type4SDMSettings) throws -> ([UInt8]?, UInt32?) {
        if sdm.metaReadKey != nil {
            guard let cryptogram = Self.hex(file, at: sdm.piccDataOffset, count: 16),
                let data = try SUNCrypto.decryptPICCData(metaReadKey: metaReadKey.bytes, cryptogram),
                data.tag & 0xC0 == 0xC0
            else { throw SUNReadBackError("the PICC data does not decrypt under K1 to a UID and counter") }
            return (data.uid, data.counter)
        }
        let uid = sdm.hasPlainUID ? Self.hex(file, at: sdm.uidOffset, count: 7) : nil
        let counter =
            sdm.hasPlainCounterField && sdm.readCounterOffset != Type4SDMSettings.unmirroredOffset
            ? Self.hex(file, at: sdm.readCounterOffset, count: 3).map { $0.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
            : nil
        if sdm.hasPlainUID, uid == nil { throw SUNReadBackError("the UID mirror is not hex") }
        return (uid, counter)
    }

    /// The SDMMAC at its offset against CMAC under the session key from K2, over the bytes the settings name.
    private func checkMAC(_ file: [UInt8], _ sdm: Type4SDMSettings, uid: [UInt8]?, counter: UInt32?) throws {
        guard let mac = Self.hex(file, at: sdm.macOffset, count: 8) else {
            throw SUNReadBackError("the SDMMAC mirror is not 16 hex digits")
        }
        let key = try SUNCrypto.macKey(fileReadKey: fileReadKey.bytes, uid: uid, counter: counter)
        let input = Array(file[sdm.macInputOffset..<sdm.macOffset])
        guard try SUNCrypto.sdmMACMatches(macKey: key, input: input, presented: mac) else {
            throw SUNReadBackError("the SDMMAC does not verify under this tag's K2")
        }
    }

    /// `count` bytes from the upper-case ASCII hex at `offset` of `file`.
    static func hex(_ file: [UInt8], at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, offset + 2 * count <= file.count else { return nil }
        return Hex.bytes(String(decoding: file[offset..<(offset + 2 * count)], as: UTF8.self))
    }
}

/// A personalised NTAG 424 DNA whose unauthenticated read-back is not what the job's keys predict.
public struct SUNReadBackError: Error, Sendable, CustomStringConvertible {
    /// What disagreed.
    public let description: String

    init(_ description: String) { self.description = description }
}
