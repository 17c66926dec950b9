import NDEF

/// The Type 4 capability container (CC file `E103`, `docs/reference/type4.md` §1.3): mapping version, the
/// largest R-APDU and C-APDU data (MLe, MLc), and the NDEF file's control TLV.
public struct Type4CapabilityContainer: Sendable, Hashable {
    /// The file identifier of the CC.
    public static let fileIdentifier: UInt16 = 0xE103
    /// The NDEF Tag Application's DF name for mapping 2.0 and 3.0.
    public static let applicationName: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]
    /// The DF name mapping 1.0 tags answer to.
    public static let legacyApplicationName: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x00]

    /// How a file may be read or written (an access byte of the file control TLV).
    public enum Access: Sendable, Hashable, CustomStringConvertible {
        /// `00`: granted without security.
        case granted
        /// `80`–`FE`: a proprietary procedure (an authentication) is needed; the byte is kept.
        case proprietary(UInt8)
        /// `FF`: never.
        case denied
        /// `01`–`7F`: reserved for future use.
        case reserved(UInt8)

        init(_ byte: UInt8) {
            switch byte {
            case 0x00: self = .granted
            case 0x80...0xFE: self = .proprietary(byte)
            case 0xFF: self = .denied
            default: self = .reserved(byte)
            }
        }

        /// The byte as the CC holds it.
        public var byte: UInt8 {
            switch self {
            case .granted: 0x00
            case .proprietary(let byte), .reserved(let byte): byte
            case .denied: 0xFF
            }
        }

        /// The access in words, with its byte (`00h (granted)`, `83h (proprietary procedure)`).
        public var description: String {
            let byte = Hex.byte(byte) + "h"
            return switch self {
            case .granted: "\(byte) (granted)"
            case .proprietary: "\(byte) (proprietary procedure)"
            case .denied: "\(byte) (never)"
            case .reserved: "\(byte) (reserved)"
            }
        }
    }

    /// A Proprietary-File_Ctrl_TLV `05 06 FID size R W` after the NDEF file's TLV (NTAG 424 DNA: file E105).
    public struct ProprietaryFile: Sendable, Hashable {
        /// The file's identifier.
        public var file: UInt16
        /// The file's size.
        public var size: Int
        /// Read access.
        public var readAccess: Access
        /// Write access.
        public var writeAccess: Access
    }

    /// CCLEN: the CC's own length.
    public var length: Int
    /// The mapping version (`20` = 2.0, `30` = 3.0, `10` = 1.0).
    public var version: UInt8
    /// MLe: the most data bytes one R-APDU may carry.
    public var maxResponseData: Int
    /// MLc: the most data bytes one C-APDU may carry.
    public var maxCommandData: Int
    /// The NDEF file's identifier.
    public var ndefFile: UInt16
    /// The NDEF file's size, its length field included.
    public var ndefFileSize: Int
    /// Whether the file starts with a 4-byte ENLEN (the ENDEF TLV of mapping 3.0) instead of a 2-byte NLEN.
    public var extendedLength: Bool
    /// Read access to the NDEF file.
    public var readAccess: Access
    /// Write access to the NDEF file.
    public var writeAccess: Access
    /// Where the NDEF write-access byte sits in the CC file (setting it to `FF` reports read-only).
    public var writeAccessOffset: Int
    /// The proprietary file control TLVs after the NDEF file's, within CCLEN.
    public var proprietaryFiles: [ProprietaryFile] = []
    /// The CC's CCLEN bytes as read.
    public var bytes: [UInt8]

    /// Where the NDEF (or ENDEF) file control TLV sits in the CC file.
    public static let fileControlOffset = 7
    /// The NDEF (or ENDEF) file control TLV as the CC holds it.
    public var fileControl: [UInt8] {
        Array(bytes[Self.fileControlOffset..<(writeAccessOffset + 1)])
    }

    /// Bytes of the length field at the start of the NDEF file (NLEN 2, ENLEN 4).
    public var lengthFieldSize: Int { extendedLength ? 4 : 2 }
    /// The largest NDEF message the file holds: its size less the length field.
    public var capacity: Int { max(0, ndefFileSize - lengthFieldSize) }

    /// Parses a CC file's bytes: the whole file (CCLEN bytes), or its first 15 (17 with an ENDEF TLV), which
    /// hold everything the NDEF procedures need; proprietary file TLVs are parsed from the bytes given.
    ///
    /// - Throws: `TagError.unsupportedCC` for a major version above 3 or an MLe/MLc out of range,
    ///   `TagError.notNDEF` for a CC without an NDEF (or ENDEF) file control TLV or too short for its fields.
    public init(_ bytes: [UInt8]) throws(TagError) {
        guard bytes.count >= 15 else {
            throw TagError(.notNDEF, "the CC file has \(bytes.count) bytes, at least 15 needed")
        }
        length = Int(bytes[0]) << 8 | Int(bytes[1])
        version = bytes[2]
        guard (1...3).contains(version >> 4) else {
            throw TagError(
                .unsupportedCC, "T4T mapping version \(version >> 4).\(version & 0x0F) is not supported (1–3 are)")
        }
        maxResponseData = Int(bytes[3]) << 8 | Int(bytes[4])
        maxCommandData = Int(bytes[5]) << 8 | Int(bytes[6])
        guard maxResponseData >= 0x0F else {
            throw TagError(.unsupportedCC, "MLe \(maxResponseData) is below the 15 bytes every T4T supports")
        }
        guard maxCommandData >= 1 else { throw TagError(.unsupportedCC, "MLc 0: the tag takes no command data") }
        guard length >= 15 else { throw TagError(.notNDEF, "CCLEN \(length) is below the 15 bytes of a T4T CC") }
        let tlv = bytes[7...]
        switch tlv.first {
        case 0x04 where tlv.count >= 8 && tlv[8] == 0x06:
            ndefFile = UInt16(bytes[9]) << 8 | UInt16(bytes[10])
            ndefFileSize = Int(bytes[11]) << 8 | Int(bytes[12])
            (readAccess, writeAccess, writeAccessOffset, extendedLength) = (
                Access(bytes[13]), Access(bytes[14]), 14, false
            )
        case 0x06 where length >= 17 && bytes.count >= 17 && tlv[8] == 0x08:
            ndefFile = UInt16(bytes[9]) << 8 | UInt16(bytes[10])
            ndefFileSize = bytes[11...14].reduce(0) { $0 << 8 | Int($1) }
            (readAccess, writeAccess, writeAccessOffset, extendedLength) = (
                Access(bytes[15]), Access(bytes[16]), 16, true
            )
        default:
            throw TagError(.notNDEF, "the CC holds no NDEF file control TLV (04 06 or 06 08 at offset 7)")
        }
        self.bytes = Array(bytes.prefix(length))
        let known = self.bytes.count
        guard ndefFileSize > lengthFieldSize else {
            throw TagError(.notNDEF, "the NDEF file of \(ndefFileSize) bytes cannot hold its length field")
        }
        var offset = writeAccessOffset + 1
        while offset + 8 <= known, self.bytes[offset] == 0x05, self.bytes[offset + 1] == 0x06 {
            let tlv = self.bytes[offset..<(offset + 8)].map { $0 }
            proprietaryFiles.append(
                ProprietaryFile(
                    file: UInt16(tlv[2]) << 8 | UInt16(tlv[3]), size: Int(tlv[4]) << 8 | Int(tlv[5]),
                    readAccess: Access(tlv[6]), writeAccess: Access(tlv[7])))
            offset += 8
        }
    }
}
