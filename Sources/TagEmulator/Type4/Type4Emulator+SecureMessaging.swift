import Crypto
import NFCTags

/// The chip side of NTAG 424 DNA secure messaging in AES mode (`docs/reference/type4.md` §2.5): checking a
/// command's MAC and decrypting its data, MACing and encrypting the answer, moving CmdCtr. The MAC, IV
/// and padding rules are the host's own (`NTAG424SecureMessaging`), run from the other end.
///
/// ```
/// command   Cmd ‖ CmdHeader ‖ CmdData' ‖ MACt        MACt over Cmd ‖ CmdCtr ‖ TI ‖ CmdHeader ‖ CmdData'
/// answer    RespData' ‖ MACt ‖ 91 00                 MACt over 00 ‖ CmdCtr+1 ‖ TI ‖ RespData'
/// Full      CmdData' = E(SesAuthENCKey, IVc, CmdData ‖ 80 00…), RespData' likewise under IVr
/// ```
///
/// Unauthenticated, everything is plain. Authenticated, a native command in any mode moves CmdCtr once it
/// is accepted; the answer's MAC and IV use the moved value.
extension Type4Emulator {
    /// The CmdHeader (`headerLength` bytes, always plain) and the CmdData of `apdu` after secure messaging in
    /// `mode`; plain when not authenticated.
    ///
    /// - Throws: `91 7E` when the data is too short for the header or the MAC, or a cryptogram holds only
    ///   padding; `91 1E` for CmdCtr `FFFF`, a wrong MAC, a cryptogram that is not whole blocks or bad padding.
    func unwrapCommand(
        _ apdu: ReceivedAPDU, headerLength: Int, mode: NTAG424CommMode
    ) throws(StatusFailure) -> (header: [UInt8], data: [UInt8]) {
        guard apdu.data.count >= headerLength else { throw StatusFailure(Type4StatusWord.lengthError) }
        let header = Array(apdu.data.prefix(headerLength))
        let rest = Array(apdu.data.dropFirst(headerLength))
        guard let messaging = session.authentication?.messaging else { return (header, rest) }
        guard messaging.commandCounter != 0xFFFF else { throw StatusFailure(Type4StatusWord.integrityError) }
        guard mode != .plain else { return (header, rest) }
        guard rest.count >= 8 else { throw StatusFailure(Type4StatusWord.lengthError) }
        let body = Array(rest.dropLast(8))
        do {
            let expected = try messaging.commandMAC(command: apdu.ins, header: header, data: body)
            guard expected == Array(rest.suffix(8)) else { throw StatusFailure(Type4StatusWord.integrityError) }
            guard mode == .full, !body.isEmpty else { return (header, body) }
            guard body.count % 16 == 0,
                let plain = NTAG424SecureMessaging.unpadded(
                    try AES128.decryptCBC(key: messaging.encryptionKey, iv: try messaging.commandIV(), body))
            else { throw StatusFailure(Type4StatusWord.integrityError) }
            // Only CmdData is encrypted: a command without data carries no cryptogram, not a padding block.
            guard !plain.isEmpty else { throw StatusFailure(Type4StatusWord.lengthError) }
            return (header, plain)
        } catch let failure as StatusFailure {
            throw failure
        } catch {
            throw StatusFailure(Type4StatusWord.integrityError)
        }
    }

    /// The successful answer `data' ‖ [MACt] ‖ 91 00` of a native command in `mode`; moves CmdCtr when
    /// authenticated. Unauthenticated it is `data ‖ 91 00`.
    ///
    /// - Throws: `91 1E` only if libcrypto refuses (keys are always 16 bytes).
    func secureAnswer(_ data: [UInt8], mode: NTAG424CommMode) throws(StatusFailure) -> [UInt8] {
        guard let messaging = session.authentication?.messaging else {
            return Type4StatusWord.answer(data, Type4StatusWord.operationOK)
        }
        let payload: [UInt8]
        do {
            switch mode {
            case .plain:
                payload = data
            case .mac:
                payload = data + (try messaging.responseMAC(data: data))
            case .full:
                let cryptogram =
                    data.isEmpty
                    ? []
                    : try AES128.encryptCBC(
                        key: messaging.encryptionKey, iv: try messaging.responseIV(),
                        NTAG424SecureMessaging.padded(data))
                payload = cryptogram + (try messaging.responseMAC(data: cryptogram))
            }
        } catch {
            throw StatusFailure(Type4StatusWord.integrityError)
        }
        session.authentication?.messaging.advance()
        return Type4StatusWord.answer(payload, Type4StatusWord.operationOK)
    }
}
