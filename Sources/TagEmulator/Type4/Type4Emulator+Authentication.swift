import Crypto
import NFCTags

/// AES authentication of the emulated NTAG 424 DNA (NT4H2421Gx §9.1.5–9.1.7, §10.4; `docs/reference/type4.md`
/// §2.4): AuthenticateEV2First `90 71`, AuthenticateEV2NonFirst `90 77` and their second part `90 AF`.
///
/// ```
/// First     > 71 KeyNo LenCap [PCDcap2]    < E(K, RndB) 91 AF
///           > AF E(K, RndA ‖ RotL(RndB))    < E(K, TI ‖ RotL(RndA) ‖ PDcap2 ‖ PCDcap2) 91 00   (CmdCtr 0)
/// NonFirst  > 77 KeyNo                      < E(K, RndB) 91 AF
///           > AF E(K, RndA ‖ RotL(RndB))    < E(K, RotL(RndA)) 91 00                          (TI, CmdCtr kept)
/// ```
///
/// E is AES-128-CBC with IV 0 and no padding. Session keys come from the host's own derivation
/// (`NTAG424SecureMessaging.sessionKeys`), so chip and host cannot drift apart.
extension Type4Emulator {
    /// AuthenticateEV2First `90 71 00 00 Lc KeyNo LenCap [PCDcap2] 00`, part 1: any session ends, RndB is
    /// drawn and sent encrypted with `91 AF`.
    ///
    /// - Throws: `91 9D` at PICC level, `91 7E` when Lc does not match LenCap (at most 6), `91 40` for a key
    ///   number above 4.
    func authenticateFirst(_ apdu: ReceivedAPDU) throws(StatusFailure) -> [UInt8] {
        session.authentication = nil
        try requireApplication()
        let data = apdu.data
        guard data.count >= 2, data[1] <= 6, data.count == 2 + Int(data[1]) else {
            throw StatusFailure(Type4StatusWord.lengthError)
        }
        return try authenticationPart1(keyNumber: data[0], first: true, capabilities: Array(data[2...]))
    }

    /// AuthenticateEV2NonFirst `90 77 00 00 01 KeyNo 00`, part 1: only inside a session (which keeps its TI
    /// and CmdCtr).
    ///
    /// - Throws: `91 9D` when not authenticated or at PICC level, `91 7E` for data other than the key number,
    ///   `91 40` for a key number above 4.
    func authenticateNonFirst(_ apdu: ReceivedAPDU) throws(StatusFailure) -> [UInt8] {
        guard session.authentication != nil else { throw StatusFailure(Type4StatusWord.permissionDenied) }
        try requireApplication()
        guard apdu.data.count == 1 else { throw StatusFailure(Type4StatusWord.lengthError) }
        return try authenticationPart1(keyNumber: apdu.data[0], first: false, capabilities: [])
    }

    /// `E(K, RndB) 91 AF` with a fresh RndB; the `AF` step waits for the host's answer.
    private func authenticationPart1(
        keyNumber: UInt8, first: Bool, capabilities: [UInt8]
    ) throws(StatusFailure) -> [UInt8] {
        let key = try applicationKey(keyNumber)
        // ASSUMPTION: a key whose TotFailCtr reached its limit answers AUTHENTICATION_ERROR (the reference names
        // no other status word for it).
        if application.keys[Int(keyNumber)].isBlocked { throw StatusFailure(Type4StatusWord.authenticationError) }
        let rndB = drawn(.rndB, count: 16)
        let encrypted = try crypt { () throws(AES128Error) in try AES128.encryptCBC(key: key, rndB) }
        session.pending = .authentication(keyNumber: keyNumber, first: first, rndB: rndB, capabilities: capabilities)
        return Type4StatusWord.answer(encrypted, Type4StatusWord.additionalFrame)
    }

    /// Part 2 (`90 AF 00 00 20 E(K, RndA ‖ RotL(RndB)) 00`): checks RotL(RndB), opens the session and proves
    /// the key with RotL(RndA).
    ///
    /// - Throws: `91 7E` for data other than 32 bytes, `91 AE` when RotL(RndB) does not match (a wrong key).
    func authenticationPart2(
        _ apdu: ReceivedAPDU, keyNumber: UInt8, first: Bool, rndB: [UInt8], capabilities: [UInt8]
    ) throws(StatusFailure) -> [UInt8] {
        guard apdu.data.count == 32 else { throw StatusFailure(Type4StatusWord.lengthError) }
        let key = try applicationKey(keyNumber)
        let plain = try crypt { () throws(AES128Error) in try AES128.decryptCBC(key: key, apdu.data) }
        let rndA = Array(plain[0..<16])
        guard Array(plain[16..<32]) == NTAG424Authentication.rotatedLeft(rndB) else {
            countAuthentication(keyNumber: keyNumber, failed: true)
            throw StatusFailure(Type4StatusWord.authenticationError)
        }
        countAuthentication(keyNumber: keyNumber, failed: false)
        let keys = try crypt { () throws(AES128Error) in
            try NTAG424SecureMessaging.sessionKeys(key: key, rndA: rndA, rndB: rndB)
        }
        let rotatedA = NTAG424Authentication.rotatedLeft(rndA)
        let answer: [UInt8]
        let messaging: NTAG424SecureMessaging
        if first {
            let ti = drawn(.transactionIdentifier, count: 4)
            let pcdCapabilities = Array((capabilities + [UInt8](repeating: 0, count: 6)).prefix(6))
            let proof = ti + rotatedA + [UInt8](repeating: 0, count: 6) + pcdCapabilities
            answer = try crypt { () throws(AES128Error) in try AES128.encryptCBC(key: key, proof) }
            messaging = NTAG424SecureMessaging(
                encryptionKey: keys.encryption, macKey: keys.mac, transactionIdentifier: ti)
        } else {
            guard let previous = session.authentication?.messaging else {
                throw StatusFailure(Type4StatusWord.permissionDenied)
            }
            answer = try crypt { () throws(AES128Error) in try AES128.encryptCBC(key: key, rotatedA) }
            messaging = NTAG424SecureMessaging(
                encryptionKey: keys.encryption, macKey: keys.mac, transactionIdentifier: previous.transactionIdentifier,
                commandCounter: previous.commandCounter)
        }
        session.authentication = Type4Authentication(keyNumber: keyNumber, messaging: messaging)
        return Type4StatusWord.answer(answer, Type4StatusWord.operationOK)
    }

    /// TotFailCtr of key `keyNumber`: one up for a failure, `decrementOnSuccess` down for a success (NVM).
    private func countAuthentication(keyNumber: UInt8, failed: Bool) {
        var key = application.keys[Int(keyNumber)]
        let before = key.failures
        key.failures =
            failed ? min(Type4Key.failureLimit, before + 1) : before - min(before, Type4Key.decrementOnSuccess)
        guard key.failures != before else { return }
        application.keys[Int(keyNumber)] = key
        secureStateWritten()
    }

    /// The value of application key `keyNumber`.
    ///
    /// - Throws: `91 40` NO_SUCH_KEY above K4.
    func applicationKey(_ keyNumber: UInt8) throws(StatusFailure) -> [UInt8] {
        guard Int(keyNumber) < application.keys.count else { throw StatusFailure(Type4StatusWord.noSuchKey) }
        return application.keys[Int(keyNumber)].value
    }

    /// `count` bytes from `random` for `purpose` (a source giving another length is cut or zero-filled).
    func drawn(_ purpose: Type4RandomPurpose, count: Int) -> [UInt8] {
        Array((random(purpose, count) + [UInt8](repeating: 0, count: count)).prefix(count))
    }

    /// Runs one libcrypto operation; its refusal (keys are always 16 bytes, so never in practice) is `91 1E`.
    func crypt<T>(_ operation: () throws(AES128Error) -> T) throws(StatusFailure) -> T {
        do { return try operation() } catch { throw StatusFailure(Type4StatusWord.integrityError) }
    }
}
