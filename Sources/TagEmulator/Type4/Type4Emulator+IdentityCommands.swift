import Crypto
import NFCTags

/// The emulated NTAG 424 DNA's identity commands (NT4H2421Gx §10.5.3, §10.10.1; `docs/reference/type4.md` §2.9,
/// §2.10): Read_Sig `90 3C` (the originality signature) and GetCardUID `90 51`.
extension Type4Emulator {
    /// Read_Sig `90 3C 00 00 01 00 00` → the 56-byte signature `r ‖ s` (`originalitySignature`): free and plain;
    /// CommMode.Full (encrypted answer) when authenticated.
    ///
    /// - Throws: `91 7E` without the address byte; `91 0C` COMMAND_FORMAT_ERROR for an address other than `00`
    ///   or extra data; `91 0B` COMMAND_NOT_FOUND when the tag has no signature (ASSUMPTION, see the
    ///   configuration); secure-messaging refusals.
    func readSignature(_ apdu: ReceivedAPDU) throws(StatusFailure) -> [UInt8] {
        let mode: NTAG424CommMode = session.authentication == nil ? .plain : .full
        let (header, data) = try unwrapCommand(apdu, headerLength: 1, mode: mode)
        guard header[0] == 0x00, data.isEmpty else { throw StatusFailure(Type4StatusWord.commandFormatError) }
        guard let signature = originalitySignature, signature.count == 56 else {
            throw StatusFailure(Type4StatusWord.commandNotFound)
        }
        return try secureAnswer(signature, mode: mode)
    }

    /// The tag's originality signature: the configuration's fixed bytes, else the UID signed with its
    /// `signingKey` by libcrypto (ECDSA secp224r1 on the raw UID, `OriginalitySignature.sign`); `nil` when it
    /// has neither, or the key is not a secp224r1 scalar.
    ///
    /// Signed once per tag and key, on the first Read_Sig, and kept: a real chip answers the same bytes every
    /// time (ECDSA's random nonce would make each fresh signature differ), and a tag that is never asked costs
    /// the host no ECDSA.
    public var originalitySignature: [UInt8]? {
        if let fixed = configuration.originalitySignature { return fixed }
        guard let key = configuration.signingKey else { return nil }
        if let signed = signedUID, signed.key == key { return signed.signature }
        guard let signature = try? OriginalitySignature.sign(uid: uid, privateKey: key, curve: .secp224r1) else {
            return nil
        }
        signedUID = (key, signature)
        return signature
    }

    /// GetCardUID `90 51 00 00 08 MACt 00` → `E(UID ‖ 80 00…) MACt 91 00`: the 7-byte UID, in CommMode.Full
    /// after an authentication with any key.
    ///
    /// - Throws: `91 AE` when not authenticated, `91 7E` for data besides the MAC, secure-messaging refusals.
    func getCardUID(_ apdu: ReceivedAPDU) throws(StatusFailure) -> [UInt8] {
        guard session.authentication != nil else { throw StatusFailure(Type4StatusWord.authenticationError) }
        let (_, data) = try unwrapCommand(apdu, headerLength: 0, mode: .full)
        guard data.isEmpty else { throw StatusFailure(Type4StatusWord.lengthError) }
        return try secureAnswer(uid, mode: .full)
    }
}
