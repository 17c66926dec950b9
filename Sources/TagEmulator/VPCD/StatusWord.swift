/// ISO/IEC 7816-4 and PC/SC part 3 status words the virtual card answers with (`docs/reference/pcsc.md` §10.2).
enum StatusWord {
    /// `90 00`: success.
    static let success: [UInt8] = [0x90, 0x00]
    /// `63 00`: the reader could not complete the tag operation (NAK, silence, protected page).
    static let failed: [UInt8] = [0x63, 0x00]
    /// `6A 81`: function not supported.
    static let notSupported: [UInt8] = [0x6A, 0x81]
    /// `62 82`: fewer bytes than Le available (data follows before the SW).
    static let endReached: [UInt8] = [0x62, 0x82]
    /// `67 00`: wrong length.
    static let wrongLength: [UInt8] = [0x67, 0x00]
    /// `6B 00`: wrong P1 P2.
    static let wrongParameters: [UInt8] = [0x6B, 0x00]
    /// `6D 00`: instruction not supported.
    static let unknownInstruction: [UInt8] = [0x6D, 0x00]
    /// `6E 00`: class not supported (ISO 7816 APDUs cannot reach a Type 2 tag).
    static let unknownClass: [UInt8] = [0x6E, 0x00]

    /// `6C XX`: wrong Le; XX is the exact length available.
    static func wrongLe(_ exact: Int) -> [UInt8] { [0x6C, UInt8(truncatingIfNeeded: exact)] }
}
