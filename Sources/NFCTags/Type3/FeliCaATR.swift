import NDEF

/// The PC/SC part 3 ATR a reader builds for a FeliCa card (`docs/reference/pcsc.md` §10.1), so the host and the vpcd
/// card share one definition.
///
/// ```
/// 3B 8F 80 01 80 4F 0C A0 00 00 03 06 11 00 3B 00 00 00 00 42
///                                     SS = 11: FeliCa (JIS X 6319-4); card name 00 3B FeliCa
///                                     (ACS also names F0 11 / F0 12 for FeliCa 212 / 424: a hint only)
/// ```
///
/// Every observed FeliCa ATR (ACS manuals, public dumps) is the one above; the emulator shows it on every
/// style. The host recognises any card name with standard byte `11`.
public struct FeliCaATR: Sendable, Hashable {
    /// The card-name bytes (`00 3B` FeliCa, `F0 11`/`F0 12` on some ACS readers).
    public let cardName: [UInt8]

    /// The part 3 standard byte of FeliCa.
    public static let standard: UInt8 = 0x11
    /// The card name the emulator shows: `00 3B` (FeliCa).
    public static let defaultCardName: [UInt8] = [0x00, 0x3B]

    /// Recognises a part 3 storage-card ATR whose standard byte is `11`; `nil` for any other ATR or a wrong
    /// length or TCK.
    public init?(_ atr: [UInt8]) {
        guard atr.count == 20, atr.starts(with: Type5ATR.prefix), atr[12] == Self.standard else { return nil }
        guard atr.dropFirst().reduce(0, ^) == 0 else { return nil }  // T0 … TCK XOR to zero
        cardName = Array(atr[13..<15])
    }

    /// The ATR a reader shows for a FeliCa card with card name `cardName`.
    public static func bytes(cardName: [UInt8] = defaultCardName) -> [UInt8] {
        let body = Array(Type5ATR.prefix.dropFirst()) + [standard] + cardName + [0x00, 0x00, 0x00, 0x00]
        return [0x3B] + body + [body.reduce(0, ^)]
    }
}

/// How a PC/SC reader's direct transmit (`FF 00 00 00 Lc …`) carries a FeliCa frame (LEN first, no CRC),
/// shared by `PCSCReader` and the vpcd card (`docs/reference/type3.md` §2.3, `docs/reference/pcsc.md` §10.3–10.4).
///
/// ```
/// pn532      (ACR122U)   FF 00 00 00 Lc D4 40 01 <frame>  → D5 41 00 <answer> 90 00 | silence D5 41 01 90 00
/// bareFrame  (ACR1252U)  FF 00 00 00 Lc <frame>           → <answer> 90 00          | silence 63 00
/// ```
///
/// The ACR122U passes PN532 commands (InDataExchange to target 1); the ACR1252U has no PN53x and takes the
/// bare FeliCa frame (ACS reference manuals of the ACR1252U family, "Accessing FeliCa tags"; its silence
/// answer `63 00` is [UNVERIFIED] on hardware).
public enum FeliCaDirectTransmit: Sendable, Hashable {
    /// PN532 InDataExchange inside the ACR122U's direct transmit.
    case pn532
    /// The bare FeliCa frame inside the direct transmit (ACR1252U family).
    case bareFrame

    /// The form of the reader style named `readerStyle` (`acr122u`, `acr1252u`); `nil` for a style without a
    /// FeliCa path. The one table the host's `PCSCReaderStyle` and the vpcd card's `VPCDReaderStyle` both read,
    /// so the two sides cannot disagree.
    public init?(readerStyle: String) {
        switch readerStyle {
        case "acr122u": self = .pn532
        case "acr1252u": self = .bareFrame
        default: return nil
        }
    }

    /// What the reader answered for one frame.
    public enum Answer: Sendable, Hashable {
        /// The card's frame, LEN first.
        case frame([UInt8])
        /// The card stayed silent (PN532 status `01`, or `63 00`).
        case silence
        /// Another PN532 status or status word: the reader failed.
        case failed(String)
    }

    /// The APDU carrying `frame`; `nil` when it is too long for a short APDU.
    public func apdu(_ frame: [UInt8]) -> [UInt8]? {
        let data = self == .pn532 ? [0xD4, 0x40, 0x01] + frame : frame
        guard !frame.isEmpty, data.count <= 0xFF else { return nil }
        return [0xFF, 0x00, 0x00, 0x00, UInt8(data.count)] + data
    }

    /// The frame an APDU carries in this form; `nil` for another APDU.
    public func frame(of apdu: [UInt8]) -> [UInt8]? {
        guard apdu.count > 5, apdu.starts(with: [0xFF, 0x00, 0x00, 0x00]), Int(apdu[4]) == apdu.count - 5 else {
            return nil
        }
        let data = Array(apdu[5...])
        guard self == .pn532 else { return data }
        guard data.count > 3, data.starts(with: [0xD4, 0x40, 0x01]) else { return nil }
        return Array(data[3...])
    }

    /// The reply an answer becomes (status word included).
    public func reply(_ answer: Answer) -> [UInt8] {
        switch (self, answer) {
        case (.pn532, .frame(let frame)): [0xD5, 0x41, 0x00] + frame + [0x90, 0x00]
        case (.pn532, .silence): [0xD5, 0x41, 0x01, 0x90, 0x00]
        case (.pn532, .failed): [0xD5, 0x41, 0x02, 0x90, 0x00]
        case (.bareFrame, .frame(let frame)): frame + [0x90, 0x00]
        case (.bareFrame, .silence): [0x63, 0x00]
        case (.bareFrame, .failed): [0x6F, 0x00]
        }
    }

    /// What a reply says: the card's frame (its LEN checked), silence, or a failure.
    public func answer(_ reply: [UInt8]) -> Answer {
        guard reply.count >= 2, reply.suffix(2) == [0x90, 0x00] else {
            return reply == [0x63, 0x00] ? .silence : .failed("status word \(Hex.string(reply.suffix(2)))")
        }
        var frame = Array(reply.dropLast(2))
        if self == .pn532 {
            guard frame.count >= 3, frame[0] == 0xD5, frame[1] == 0x41 else {
                return .failed("direct transmit answered \(Hex.string(frame.prefix(3)))")
            }
            switch frame[2] {
            case 0x00: frame.removeFirst(3)
            case 0x01: return .silence
            default: return .failed("PN532 status \(Hex.string([frame[2]]))h")
            }
        }
        guard let length = frame.first, Int(length) == frame.count else {
            return .failed("FeliCa answer '\(Hex.string(frame))' does not match its LEN")
        }
        return .frame(frame)
    }
}
