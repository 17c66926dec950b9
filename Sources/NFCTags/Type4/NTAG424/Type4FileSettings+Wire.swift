/// File settings on the wire: ChangeFileSettings `90 5F` data and the GetFileSettings `90 F5` answer
/// (NT4H2421Gx §10.7, `docs/reference/type4.md` §2.7).
///
/// ```
/// ChangeFileSettings data   FileOption(1) AccessRights(2, LSB first) [SDM block]
/// GetFileSettings answer    FileType(1)=00 FileOption(1) AccessRights(2) FileSize(3, LE) [SDM block]
/// FileOption                b6 SDM and mirroring, b1–b0 CommMode (00/10 plain, 01 MAC, 11 full)
/// ```
extension Type4FileSettings {
    /// FileOption: bit 6 SDM enabled, bits 1–0 the communication mode.
    public var fileOption: UInt8 { (sdm != nil ? 0x40 : 0x00) | communicationMode.rawValue }

    /// The data of ChangeFileSettings that sets these settings (before secure messaging).
    public var encoded: [UInt8] {
        [fileOption, UInt8(accessRights & 0xFF), UInt8(accessRights >> 8)] + (sdm?.encoded ?? [])
    }

    /// The GetFileSettings answer for a file of `fileSize` bytes (StandardData, FileType `00`).
    public func fileSettingsAnswer(fileSize: Int) -> [UInt8] {
        let size = (0..<3).map { UInt8(truncatingIfNeeded: fileSize >> (8 * $0)) }
        return [0x00, fileOption, UInt8(accessRights & 0xFF), UInt8(accessRights >> 8)] + size + (sdm?.encoded ?? [])
    }

    /// Decodes ChangeFileSettings data without judging the SDM values (see `validated`).
    ///
    /// - Parameters:
    ///   - data: FileOption, AccessRights and the SDM block, as the command carries them after secure messaging.
    ///   - sdmCapable: whether the file may enable SDM (the NTAG 424 DNA's file 02).
    /// - Throws: `.length` for data of the wrong length, `.permission` for SDM on another file, `.parameter`
    ///   for RFU FileOption bits or an access nibble that names no key.
    public init(decoding data: [UInt8], sdmCapable: Bool) throws(Type4FileSettingsError) {
        var cursor = data[...]
        guard cursor.count >= 3, let option = cursor.popFirst(), let low = cursor.popFirst(),
            let high = cursor.popFirst()
        else { throw .length }
        guard option & 0xBC == 0 else { throw .parameter("FileOption RFU bits set") }
        for nibble in [high >> 4, high & 0x0F, low >> 4, low & 0x0F] where (0x05...0x0D).contains(nibble) {
            throw .parameter("access nibble \(nibble) names no key")
        }
        let mode: CommunicationMode =
            switch option & 0x03 {
            case 0x01: .mac
            case 0x03: .full
            default: .plain
            }
        var sdm: Type4SDMSettings?
        if option & 0x40 != 0 {
            guard sdmCapable else { throw .permission }
            sdm = try Type4SDMSettings(decoding: &cursor)
        }
        guard cursor.isEmpty else { throw .length }
        self.init(communicationMode: mode, accessRights: UInt16(high) << 8 | UInt16(low), sdm: sdm)
    }

    /// These settings after the chip's checks for a file of `fileSize` bytes whose SDMReadCtr is
    /// `currentCounter`.
    ///
    /// - Throws: `.parameter` naming the rule an SDM block breaks.
    public func validated(fileSize: Int, currentCounter: UInt32) throws(Type4FileSettingsError) -> Self {
        try sdm?.validate(fileSize: fileSize, currentCounter: currentCounter)
        return self
    }
}
