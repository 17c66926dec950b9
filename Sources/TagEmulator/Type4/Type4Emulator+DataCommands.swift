import Crypto
import NFCTags

/// File data of the emulated NTAG 424 DNA through native commands (NT4H2421Gx §10.8, `docs/reference/type4.md`
/// §2.6, §5.3): ReadData `90 AD`, WriteData `90 8D`, and the access-rights evaluation they share.
///
/// ```
/// CmdHeader   FileNo (1) ‖ Offset (3, LE) ‖ Length (3, LE)      (always plain)
/// ReadData    Length 0 = to the end of the file                  → Data' [‖ MACt]
/// WriteData   CmdHeader ‖ Data' [‖ MACt]                         → [MACt]
/// ```
///
/// A right is granted when any matching condition holds (Read or RW for reading, Write or RW for writing).
/// A key right matched by the session's key uses the file's communication mode; a free (`E`) right is plain.
/// Unauthenticated, SDMFileRead with a key also grants reading, with the SUN mirrors applied (§3.1).
extension Type4Emulator {
    /// How a ReadData/WriteData may go ahead.
    struct DataAccess: Hashable {
        /// The secure-messaging mode of the command and its answer.
        let mode: NTAG424CommMode
        /// Whether the read returns the SDM output instead of the static bytes.
        let appliesSDM: Bool
    }

    /// Evaluates `settings` for reading or `writing` in the current authentication state.
    ///
    /// - Throws: `91 9D` when every matching right is `F`, `91 AE` when a key is needed that the session
    ///   (or its absence) does not give.
    func dataAccess(_ settings: Type4FileSettings, writing: Bool) throws(StatusFailure) -> DataAccess {
        let rights = writing ? [settings.write, settings.readWrite] : [settings.read, settings.readWrite]
        if let key = session.authentication?.keyNumber {
            if rights.contains(.key(key)) {
                let mode: NTAG424CommMode =
                    switch settings.communicationMode {
                    case .plain: .plain
                    case .mac: .mac
                    case .full: .full
                    }
                return DataAccess(mode: mode, appliesSDM: false)
            }
            if rights.contains(.free) { return DataAccess(mode: .plain, appliesSDM: false) }
        } else {
            if rights.contains(.free) { return DataAccess(mode: .plain, appliesSDM: !writing && settings.sdm != nil) }
            if !writing, settings.sdm?.fileReadKey != nil { return DataAccess(mode: .plain, appliesSDM: true) }
        }
        let denied = rights.allSatisfy { $0 == .never } && (writing || settings.sdm?.fileReadKey == nil)
        throw StatusFailure(denied ? Type4StatusWord.permissionDenied : Type4StatusWord.authenticationError)
    }

    /// ReadData `90 AD 00 00 Lc FileNo Offset Length [MACt] 00` → the bytes in the mode the rights give;
    /// an SDM file read unauthenticated returns its mirrors, authenticated its static bytes.
    ///
    /// - Throws: `91 9D`/`91 AE` from the rights, `91 F0` for no such file, `91 BE` beyond the file's end,
    ///   `91 7E` for a wrong Lc, `91 9D` once SDMReadCtr is at its limit, secure-messaging refusals.
    func readData(_ apdu: ReceivedAPDU) throws(StatusFailure) -> [UInt8] {
        try requireApplication()
        guard apdu.data.count >= 7 else { throw StatusFailure(Type4StatusWord.lengthError) }
        let index = try fileIndex(apdu.data[0])
        let file = application.files[index]
        let access = try dataAccess(file.settings, writing: false)
        let (header, data) = try unwrapCommand(apdu, headerLength: 7, mode: access.mode)
        guard data.isEmpty else { throw StatusFailure(Type4StatusWord.lengthError) }
        let offset = Self.littleEndian(header[1...3])
        let length = Self.littleEndian(header[4...6])
        let end = length == 0 ? file.size : offset + length
        guard offset < file.size, end <= file.size else { throw StatusFailure(Type4StatusWord.boundaryError) }
        let bytes = access.appliesSDM ? try sdmOutput(file: index, kind: .readData) : file.bytes
        return try secureAnswer(Array(bytes[offset..<end]), mode: access.mode)
    }

    /// WriteData `90 8D 00 00 Lc FileNo Offset Length Data' [MACt] 00`: writes the data in the mode the rights
    /// give. A chained WriteData torn after some frames has written the data of those frames (§5.3).
    ///
    /// - Throws: `91 9D`/`91 AE` from the rights, `91 F0` for no such file, `91 BE` beyond the file's end,
    ///   `91 7E` when Length is 0 or not the data's length, secure-messaging refusals.
    func writeData(_ apdu: ReceivedAPDU) throws(StatusFailure) -> [UInt8] {
        try requireApplication()
        guard apdu.data.count >= 7 else { throw StatusFailure(Type4StatusWord.lengthError) }
        let index = try fileIndex(apdu.data[0])
        let file = application.files[index]
        let access = try dataAccess(file.settings, writing: true)
        let offset = Self.littleEndian(apdu.data[1...3])
        let length = Self.littleEndian(apdu.data[4...6])
        if let delivered = tornDataLimit {
            guard delivered > 7, offset + length <= file.size else { return [] }
            programmedFrames = timing.commandBlocks(bytes: 5 + delivered)
            let received = Array(apdu.data[7..<min(delivered, apdu.data.count)])
            program(try tornPlaintext(received, mode: access.mode).prefix(length), file: index, at: offset)
            return []
        }
        let (_, data) = try unwrapCommand(apdu, headerLength: 7, mode: access.mode)
        guard length > 0, data.count == length else { throw StatusFailure(Type4StatusWord.lengthError) }
        guard offset + length <= file.size else { throw StatusFailure(Type4StatusWord.boundaryError) }
        programmedFrames = timing.commandBlocks(bytes: 6 + apdu.data.count)
        program(data[...], file: index, at: offset)
        return try secureAnswer([], mode: access.mode)
    }

    /// The plaintext of the data bytes a torn WriteData delivered: as received in plain and MAC mode (the MAC
    /// never arrived), the whole blocks decrypted under the command IV in full mode.
    private func tornPlaintext(_ received: [UInt8], mode: NTAG424CommMode) throws(StatusFailure) -> [UInt8] {
        guard mode == .full, let messaging = session.authentication?.messaging else { return received }
        let blocks = Array(received.prefix(received.count / 16 * 16))
        return try crypt { () throws(AES128Error) in
            try AES128.decryptCBC(key: messaging.encryptionKey, iv: try messaging.commandIV(), blocks)
        }
    }

    /// A 3-byte little-endian field.
    static func littleEndian(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
