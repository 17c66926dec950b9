import NDEF

/// One inconsistency between a Type 2 tag's pages 0–2 and its identity (`docs/reference/type2.md` §2.2, §11).
///
/// Pages 0–2 of a genuine NXP chip are `UID0 UID1 UID2 BCC0 · UID3 UID4 UID5 UID6 · BCC1 INT LOCK0
/// LOCK1`, with BCC0 = 88 ⊕ UID0 ⊕ UID1 ⊕ UID2, BCC1 = UID3 ⊕ … ⊕ UID6 and INT = `48`, and the UID
/// the same as the one the tag gave in anticollision. A clone ("magic" tag) whose UID pages were
/// written by hand, or a corrupted read, breaks one of these.
public enum UIDAnomaly: Sendable, Hashable, CustomStringConvertible {
    /// UID0 is not `04`, NXP's manufacturer code (informational: other makers' Type 2 tags exist).
    case notNXP(UInt8)
    /// BCC0 (page 0 byte 3) is not 88 ⊕ UID0 ⊕ UID1 ⊕ UID2.
    case bcc0(found: UInt8, expected: UInt8)
    /// BCC1 (page 2 byte 0) is not UID3 ⊕ UID4 ⊕ UID5 ⊕ UID6.
    case bcc1(found: UInt8, expected: UInt8)
    /// The internal byte (page 2 byte 1) is not `48`.
    case internalByte(UInt8)
    /// The UID in pages 0–1 is not the one anticollision returned.
    case uidDiffers(pages: [UInt8], anticollision: [UInt8])

    public var description: String {
        switch self {
        case .notNXP(let byte): "UID0 is \(Hex.string([byte])), not 04 (NXP)"
        case .bcc0(let found, let expected):
            "BCC0 is \(Hex.string([found])), expected \(Hex.string([expected])) (88 ^ UID0 ^ UID1 ^ UID2)"
        case .bcc1(let found, let expected):
            "BCC1 is \(Hex.string([found])), expected \(Hex.string([expected])) (UID3 ^ UID4 ^ UID5 ^ UID6)"
        case .internalByte(let byte): "internal byte is \(Hex.string([byte])), not 48"
        case .uidDiffers(let pages, let anticollision):
            "pages 0–1 hold UID \(Hex.compact(pages)), anticollision gave \(Hex.compact(anticollision))"
        }
    }
}

/// UID cross-checks of the pipeline's identification rule (`docs/reference/type2.md` §2.2, §11).
extension Type2Tag {
    /// The 7-byte UID from pages 0–1 (READ `30 00`, reused from the cache when detection ran).
    public func readUID() throws -> [UInt8] {
        try measure("uid") {
            if cache[0] == nil || cache[1] == nil || cache[2] == nil { _ = try read(page: 0) }
            guard let page0 = cache[0], let page1 = cache[1] else {
                throw Type2Error(.invalidResponse, "pages 0–1 could not be read", page: 0)
            }
            return Array(page0[0..<3]) + page1
        }
    }

    /// Anomalies in pages 0–2 that suggest a clone or a misread, empty when all is consistent.
    ///
    /// Checks UID0 = `04` (NXP), BCC0 = 88 ^ UID0 ^ UID1 ^ UID2, BCC1 = UID3 ^ … ^ UID6, INT = `48`,
    /// and, when given, that the UID equals the one from anticollision. Sends READ `30 00` only when
    /// pages 0–2 are not cached (after `readHeader` or NDEF detection it sends nothing).
    public func identityAnomalies(anticollisionUID: [UInt8]? = nil) throws -> [UIDAnomaly] {
        let uid = try readUID()
        guard let page0 = cache[0], let page2 = cache[2] else {
            throw Type2Error(.invalidResponse, "pages 0–2 could not be read", page: 0)
        }
        var out: [UIDAnomaly] = []
        if uid[0] != 0x04 { out.append(.notNXP(uid[0])) }
        let bcc0 = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
        if page0[3] != bcc0 { out.append(.bcc0(found: page0[3], expected: bcc0)) }
        let bcc1 = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
        if page2[0] != bcc1 { out.append(.bcc1(found: page2[0], expected: bcc1)) }
        if page2[1] != 0x48 { out.append(.internalByte(page2[1])) }
        if let anticollisionUID, !anticollisionUID.isEmpty, anticollisionUID != uid {
            out.append(.uidDiffers(pages: uid, anticollision: anticollisionUID))
        }
        return out
    }

    /// `identityAnomalies` in words (the `inspect` report).
    public func uidAnomalies(anticollisionUID: [UInt8]? = nil) throws -> [String] {
        try identityAnomalies(anticollisionUID: anticollisionUID).map(\.description)
    }
}
