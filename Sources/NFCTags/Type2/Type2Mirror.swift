import Support

/// What an NTAG21x ASCII mirror shows (`docs/reference/type2.md` §6): MIRROR_CONF 01, 10 or 11.
public enum MirrorKind: String, Sendable, Hashable, CaseIterable {
    /// 14 upper-case hex digits of the UID.
    case uid
    /// 6 upper-case hex digits of the NFC counter, most significant first.
    case counter
    /// UID, `x`, counter: 21 characters.
    case uidAndCounter

    /// Characters the window takes.
    public var length: Int {
        switch self {
        case .uid: 14
        case .counter: 6
        case .uidAndCounter: 21
        }
    }

    /// MIRROR_CONF (CFG0 byte 0, bits 7–6).
    public var configuration: UInt8 {
        switch self {
        case .uid: 0b01
        case .counter: 0b10
        case .uidAndCounter: 0b11
        }
    }

    /// Whether the counter is shown (NFC_CNT_EN must be set).
    public var usesCounter: Bool { self != .uid }

    /// The bytes written into the window: `0`s (with the `x` separator), or a marker run to locate it.
    public func placeholder(marked: Bool) -> String {
        if marked { return String(repeating: "Z", count: length) }
        return self == .uidAndCounter
            ? String(repeating: "0", count: 14) + "x" + "000000" : String(repeating: "0", count: length)
    }

    /// Whether `shown` (a window's characters as read) is what the chip mirrors for `uid` (any UID
    /// when `uid` is empty): the UID's 14 hex digits and/or six upper-case hex counter digits.
    public func isMirrored(_ shown: String, uid: [UInt8]) -> Bool {
        guard shown.count == length else { return false }
        let uidPart = self == .counter ? "" : String(ascii(uid: uid, counter: 0).prefix(14))
        let counterPart = self == .uid ? "" : String(shown.suffix(6))
        return (uid.isEmpty || shown.hasPrefix(uidPart)) && counterPart.allSatisfy { $0.isHexDigit && !$0.isLowercase }
    }

    /// What a READ shows for `uid` and `counter`.
    public func ascii(uid: [UInt8], counter: Int) -> String {
        let uidText = HexEncoding.encode(uid)
        var counterText = String(counter & 0xFF_FFFF, radix: 16, uppercase: true)
        counterText = String(repeating: "0", count: 6 - counterText.count) + counterText
        switch self {
        case .uid: return uidText
        case .counter: return counterText
        case .uidAndCounter: return uidText + "x" + counterText
        }
    }
}

/// Where a mirror window lands on the tag: computed from the encoded TLV.
public struct MirrorPlan: Sendable, Hashable {
    /// What the window shows.
    public var kind: MirrorKind
    /// MIRROR_PAGE.
    public var page: Int
    /// MIRROR_BYTE (0–3).
    public var byte: Int

    /// Creates a plan.
    public init(kind: MirrorKind, page: Int, byte: Int) {
        self.kind = kind
        self.page = page
        self.byte = byte
    }

    /// The plan for a window at byte `offset` of the NDEF message `message` written from page 4
    /// (TLV `03 L` or `03 FF LL LL` first).
    public init(kind: MirrorKind, offsetInMessage offset: Int, messageLength: Int) {
        let absolute = 16 + (messageLength < 0xFF ? 2 : 4) + offset
        self.init(kind: kind, page: absolute / 4, byte: absolute % 4)
    }

    /// The MIRROR byte (CFG0 byte 0) the run writes: MIRROR_CONF (b7–6), MIRROR_BYTE (b5–4), and
    /// STRG_MOD_EN (b2) kept from `current`.
    public func mirrorByte(keeping current: UInt8) -> UInt8 {
        kind.configuration << 6 | UInt8(byte & 0x03) << 4 | (current & 0x04)
    }

    /// The window's byte addresses (READ shows ASCII there, not EEPROM).
    public var window: Range<Int> { (page * 4 + byte)..<(page * 4 + byte + kind.length) }

    /// The last page the window touches.
    public var lastPage: Int { (page * 4 + byte + kind.length - 1) / 4 }
}
