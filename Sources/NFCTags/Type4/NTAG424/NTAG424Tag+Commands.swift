/// The NTAG 424 DNA native commands personalisation and audit use (`docs/reference/type4.md` §2.6–§2.9), each in the
/// communication mode the chip requires.
extension NTAG424Tag {
    /// GetKeyVersion `90 64 KeyNo`: free in plain; in MAC mode when a session is open.
    public func getKeyVersion(_ keyNumber: UInt8) throws -> UInt8 {
        let answer = try command(0x64, header: [keyNumber], mode: session == nil ? .plain : .mac)
        guard answer.count == 1 else { throw NTAG424Error(.malformedResponse, instruction: 0x64) }
        return answer[0]
    }

    /// GetFileSettings `90 F5 FileNo`: the settings bytes (FileType, FileOption, AccessRights, FileSize, SDM
    /// fields); MAC mode when a session is open.
    public func getFileSettings(_ file: UInt8) throws -> [UInt8] {
        try command(0xF5, header: [file], mode: session == nil ? .plain : .mac)
    }

    /// ChangeFileSettings `90 5F FileNo E(settings)`: always full mode, under the file's Change key.
    public func changeFileSettings(_ file: UInt8, settings: [UInt8]) throws {
        _ = try command(0x5F, header: [file], data: settings, mode: .full)
    }

    /// ChangeKey `90 C4 KeyNo E(KeyData)` in full mode, authenticated with key 0 (§2.8). Changing the session's
    /// own key ends the session: the tag answers `91 00` without a MAC.
    public func changeKey(_ keyNumber: UInt8, to newKey: [UInt8], from oldKey: [UInt8], version: UInt8) throws {
        let data = try NTAG424ChangeKey.keyData(keyNumber: keyNumber, newKey: newKey, oldKey: oldKey, version: version)
        guard keyNumber == authenticatedKey, let current = session else {
            _ = try command(0xC4, header: [keyNumber], data: data, mode: .full)
            return
        }
        let body = try current.encryptCommandData(data)
        let mac = try current.commandMAC(command: 0xC4, header: [keyNumber], data: body)
        defer { endSession() }
        guard try native(0xC4, [keyNumber] + body + mac, expect: 0x9100).isEmpty else {
            throw NTAG424Error(.malformedResponse, instruction: 0xC4)
        }
    }

    /// WriteData `90 8D FileNo Offset(3) Length(3) data` in `mode` (at most 248 bytes with secure messaging).
    public func writeData(_ file: UInt8, offset: Int, _ data: [UInt8], mode: NTAG424CommMode) throws {
        _ = try command(0x8D, header: Self.dataHeader(file, offset: offset, length: data.count), data: data, mode: mode)
    }

    /// ReadData `90 AD FileNo Offset(3) Length(3)` in `mode` (`length` 0: to the end of the file).
    public func readData(_ file: UInt8, offset: Int, length: Int, mode: NTAG424CommMode) throws -> [UInt8] {
        try command(0xAD, header: Self.dataHeader(file, offset: offset, length: length), mode: mode)
    }

    /// Read_Sig `90 3C 00`: the 56-byte originality signature `r ‖ s` (secp224r1), free unless Random ID is on.
    public func readSignature() throws -> [UInt8] {
        let answer = try command(0x3C, header: [0x00], mode: session == nil ? .plain : .full)
        guard answer.count == 56 else { throw NTAG424Error(.malformedResponse, instruction: 0x3C) }
        return answer
    }

    /// `FileNo ‖ Offset(3, LE) ‖ Length(3, LE)`.
    static func dataHeader(_ file: UInt8, offset: Int, length: Int) -> [UInt8] {
        func three(_ value: Int) -> [UInt8] { (0..<3).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        return [file] + three(offset) + three(length)
    }
}
