import NFCTags

/// The status words an emulated Type 4 tag answers (`docs/reference/type4.md` §1.7 ISO, §2.2 native).
enum Type4StatusWord {
    /// `90 00` success (ISO).
    static let success: UInt16 = 0x9000
    /// `67 00` wrong length.
    static let wrongLength: UInt16 = 0x6700
    /// `69 82` security status not satisfied (no free access right).
    static let securityStatus: UInt16 = 0x6982
    /// `69 85` conditions of use not satisfied (no file selected, beyond the file, pending sequence).
    static let conditions: UInt16 = 0x6985
    /// `6A 82` file or application not found.
    static let notFound: UInt16 = 0x6A82
    /// `6A 86` incorrect P1/P2.
    static let wrongParameters: UInt16 = 0x6A86
    /// `6D 00` instruction not supported.
    static let instructionNotSupported: UInt16 = 0x6D00
    /// `6E 00` class not supported.
    static let classNotSupported: UInt16 = 0x6E00
    /// `91 00` OPERATION_OK (native).
    static let operationOK: UInt16 = 0x9100
    /// `91 AF` ADDITIONAL_FRAME (native).
    static let additionalFrame: UInt16 = 0x91AF
    /// `91 1C` ILLEGAL_COMMAND_CODE (native).
    static let illegalCommand: UInt16 = 0x911C
    /// `91 7E` LENGTH_ERROR (native).
    static let lengthError: UInt16 = 0x917E
    /// `91 CA` COMMAND_ABORTED (native): a multi-frame command was interrupted.
    static let commandAborted: UInt16 = 0x91CA
    /// `91 0B` COMMAND_NOT_FOUND (native): listed for Read_Sig only (NT4H2421Gx Table 95).
    static let commandNotFound: UInt16 = 0x910B
    /// `91 0C` COMMAND_FORMAT_ERROR (native): listed for Read_Sig only (NT4H2421Gx Table 95).
    static let commandFormatError: UInt16 = 0x910C
    /// `91 1E` INTEGRITY_ERROR (native): wrong MAC, padding or CRC; CmdCtr exhausted.
    static let integrityError: UInt16 = 0x911E
    /// `91 40` NO_SUCH_KEY (native): key number above 4.
    static let noSuchKey: UInt16 = 0x9140
    /// `91 9D` PERMISSION_DENIED (native): right `F`, MF selected, SDM on a file other than 02, limit reached.
    static let permissionDenied: UInt16 = 0x919D
    /// `91 9E` PARAMETER_ERROR (native): bad option, offset or overlap.
    static let parameterError: UInt16 = 0x919E
    /// `91 AE` AUTHENTICATION_ERROR (native): wrong key, or the command needs another authentication.
    static let authenticationError: UInt16 = 0x91AE
    /// `91 BE` BOUNDARY_ERROR (native): ReadData/WriteData beyond the file's end.
    static let boundaryError: UInt16 = 0x91BE
    /// `91 F0` FILE_NOT_FOUND (native): no file with that number.
    static let fileNotFound: UInt16 = 0x91F0

    /// Whether a native status word reports success (`91 00`, or `91 AF` for a step that continues).
    static func isNativeSuccess(_ status: UInt16) -> Bool { status == operationOK || status == additionalFrame }

    /// `data` followed by the status word `status`.
    static func answer(_ data: [UInt8], _ status: UInt16) -> [UInt8] {
        data + [UInt8(status >> 8), UInt8(status & 0xFF)]
    }

    /// The status word `status` alone.
    static func answer(_ status: UInt16) -> [UInt8] { answer([], status) }
}

extension Type4FileSettingsError {
    /// The status word the chip answers for the refusal: `91 7E`, `91 9D` or `91 9E`.
    var status: UInt16 {
        switch self {
        case .length: Type4StatusWord.lengthError
        case .permission: Type4StatusWord.permissionDenied
        case .parameter: Type4StatusWord.parameterError
        }
    }
}
