import NDEF

/// The NDEF Message TLV of a Type 2 tag's data area: wrap a message, or find it in an area.
///
/// NFC Forum Type 2 Tag, TLV blocks (`docs/reference/type2.md` §5.2):
///
/// ```
/// 00            NULL, one byte, skipped
/// 01 L V        Lock Control (L = 3)
/// 02 L V        Memory Control (L = 3)
/// 03 L V        NDEF Message; L = 00–FE, or FF hi lo (00FF–FFFE, big-endian)
/// FD L V        Proprietary
/// FE            Terminator
/// ```
///
/// Small and pure: it does not know which bytes Lock or Memory Control TLVs reserve inside the area
/// (the memory-aware walker does); it only skips the TLVs themselves.
public enum NDEFTLV {
    /// Wraps a message as `03 LL <message> FE`, or `03 FF hi lo <message> FE` from 255 bytes on.
    ///
    /// A TLV length holds at most `FFFE` (65,534) bytes, far above any Type 2 tag; a longer message is
    /// cut to that length.
    public static func wrap(_ message: [UInt8]) -> [UInt8] {
        let body = message.prefix(0xFFFE)
        var out: [UInt8] = [0x03]
        if body.count < 0xFF {
            out.append(UInt8(body.count))
        } else {
            out += [0xFF, UInt8(body.count >> 8), UInt8(body.count & 0xFF)]
        }
        return out + body + [0xFE]
    }

    /// The message bytes of the first NDEF TLV in `area` (which starts at the first TLV, page 4 byte 0).
    ///
    /// Skips NULL, Lock Control, Memory Control and proprietary (`FD`) TLVs. An NDEF TLV of length 0
    /// gives an empty array (an initialised tag with no message).
    ///
    /// - Throws: `NDEFTLVError` with the offset in `area`.
    public static func extractMessage(fromArea area: [UInt8]) throws(NDEFTLVError) -> [UInt8] {
        Array(area[try locateMessage(inArea: area)])
    }

    /// Where the first NDEF TLV's value lies in `area`, for callers that report offsets.
    ///
    /// - Throws: `NDEFTLVError` with the offset in `area`.
    public static func locateMessage(inArea area: [UInt8]) throws(NDEFTLVError) -> Range<Int> {
        var cursor = ByteCursor(area)
        while true {
            let start = cursor.readerIndex
            guard let tag = cursor.readUInt8() else {
                throw NDEFTLVError(.noNDEF, at: start, "the area ends before an NDEF TLV")
            }
            switch tag {
            case 0x00:
                continue
            case 0xFE:
                throw NDEFTLVError(.terminatorBeforeNDEF, at: start, "a Terminator TLV comes before the NDEF TLV")
            case 0x01, 0x02, 0x03, 0xFD:
                let length = try readLength(&cursor, tlvStart: start)
                let valueStart = cursor.readerIndex
                guard cursor.skip(length) else {
                    throw NDEFTLVError(
                        .truncated, at: valueStart,
                        "the TLV at byte \(start) declares \(length) bytes, \(cursor.readableBytes) remain")
                }
                if tag == 0x03 { return valueStart..<(valueStart + length) }
            default:
                throw NDEFTLVError(.unknownTLV, at: start, "unknown TLV type \(Hex.string([tag]))")
            }
        }
    }

    private static func readLength(_ cursor: inout ByteCursor, tlvStart: Int) throws(NDEFTLVError) -> Int {
        let at = cursor.readerIndex
        guard let first = cursor.readUInt8() else {
            throw NDEFTLVError(.truncated, at: at, "the TLV at byte \(tlvStart) has no length")
        }
        guard first == 0xFF else { return Int(first) }
        guard let long = cursor.readUInt16BE() else {
            throw NDEFTLVError(.truncated, at: at, "the TLV at byte \(tlvStart) ends inside its 3-byte length")
        }
        guard long != 0xFFFF else {
            throw NDEFTLVError(.invalidLength, at: at, "TLV length FFFF is reserved")
        }
        return Int(long)
    }
}

/// A TLV area that holds no readable NDEF TLV, with the byte offset in the area.
public struct NDEFTLVError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, switchable error code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// The area ends inside a TLV.
        public static let truncated = Code("truncated")
        /// The area ends without any NDEF TLV.
        public static let noNDEF = Code("noNDEF")
        /// A Terminator TLV comes first.
        public static let terminatorBeforeNDEF = Code("terminatorBeforeNDEF")
        /// A TLV type this walker does not know.
        public static let unknownTLV = Code("unknownTLV")
        /// The reserved length `FF FF FF`.
        public static let invalidLength = Code("invalidLength")
        /// The code's name.
        public var description: String { name }
    }

    /// What is wrong.
    public let code: Code
    /// The byte offset in the area.
    public let offset: Int
    /// What happened, for a person.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, at offset: Int, _ message: String) {
        self.code = code
        self.offset = offset
        self.message = message
    }

    /// Equal when code and offset are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code && lhs.offset == rhs.offset }
    /// Hashes code and offset.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(offset)
    }

    /// `truncated at byte 4: …`.
    public var description: String { "\(code) at byte \(offset): \(message)" }
}
