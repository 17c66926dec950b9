import NFCTags

/// Key management of the emulated NTAG 424 DNA (NT4H2421Gx §10.6, `docs/reference/type4.md` §2.8, §4): ChangeKey
/// `90 C4` and GetKeyVersion `90 64`.
///
/// ```
/// ChangeKey   KeyNo ‖ E(KeyData ‖ 80 00…) ‖ MACt      (CommMode.Full, authenticated with K0)
/// KeyData     the session's own key:  NewKey (16) ‖ KeyVer (1)
///             another key:            (NewKey ⊕ OldKey) (16) ‖ KeyVer (1) ‖ CRC32NK(NewKey) (4, LE)
/// ```
///
/// The APDU is one frame (47 bytes ≤ FSC), so a tear delivers it whole or not at all: the key is old or new,
/// never mixed (§4.3, per-frame anti-tearing).
extension Type4Emulator {
    /// ChangeKey `90 C4 00 00 29 KeyNo E(KeyData) MACt 00`: writes the key and its version. Changing the
    /// session's own key ends the session and answers `91 00` without a MAC; another key answers the MAC.
    ///
    /// - Throws: `91 9D` at PICC level; `91 AE` unless authenticated with key 0; `91 7E` for Lc other than
    ///   41; `91 1E` for a wrong MAC, padding, key-data length or CRC32NK; `91 40` above K4.
    func changeKey(_ apdu: ReceivedAPDU) throws(StatusFailure) -> [UInt8] {
        try requireApplication()
        guard let authenticated = session.authentication?.keyNumber, authenticated == 0 else {
            throw StatusFailure(Type4StatusWord.authenticationError)
        }
        guard apdu.data.count == 1 + 32 + 8 else { throw StatusFailure(Type4StatusWord.lengthError) }
        let (header, keyData) = try unwrapCommand(apdu, headerLength: 1, mode: .full)
        let keyNumber = header[0]
        let oldKey = try applicationKey(keyNumber)
        let newKey: [UInt8]
        if keyNumber == authenticated {
            guard keyData.count == 17 else { throw StatusFailure(Type4StatusWord.integrityError) }
            newKey = Array(keyData[0..<16])
        } else {
            guard keyData.count == 21 else { throw StatusFailure(Type4StatusWord.integrityError) }
            newKey = zip(keyData[0..<16], oldKey).map { $0 ^ $1 }
            guard NTAG424ChangeKey.jamCRC32(newKey) == Array(keyData[17..<21]) else {
                throw StatusFailure(Type4StatusWord.integrityError)
            }
        }
        application.keys[Int(keyNumber)] = Type4Key(value: newKey, version: keyData[16])
        persistNonVolatileState()
        guard keyNumber != authenticated else {
            session.authentication = nil
            return Type4StatusWord.answer(Type4StatusWord.operationOK)
        }
        return try secureAnswer([], mode: .full)
    }

    /// GetKeyVersion `90 64 00 00 01 KeyNo 00` → `KeyVer 91 00`: free; CommMode.MAC when authenticated.
    ///
    /// - Throws: `91 9D` at PICC level, `91 7E` for data other than the key number, `91 40` above K4.
    func getKeyVersion(_ apdu: ReceivedAPDU) throws(StatusFailure) -> [UInt8] {
        try requireApplication()
        let (header, data) = try unwrapCommand(apdu, headerLength: 1, mode: .mac)
        guard data.isEmpty else { throw StatusFailure(Type4StatusWord.lengthError) }
        _ = try applicationKey(header[0])
        return try secureAnswer([application.keys[Int(header[0])].version], mode: .mac)
    }
}
