/// A clone ("magic") tag whose pages 0–2 do not match its identity (`docs/reference/type2.md` §2.2, §11): the
/// `identity=` option and the `clone` fault of a `sim:` spec.
///
/// Anticollision still answers the tag's UID with correct BCCs (a reader would drop anything else);
/// only the stored bytes a READ or FAST_READ of pages 0–2 returns differ, as on a UID-changeable tag
/// whose UID pages were written by hand or from another tag's dump.
public enum IdentityFault: String, Sendable, Hashable, CaseIterable {
    /// Pages 0–2 hold another tag's UID (UID3–UID6 differ), with BCCs right for that UID.
    case uid
    /// BCC0 (page 0 byte 3) is wrong.
    case bcc0
    /// BCC1 (page 2 byte 0) is wrong.
    case bcc1
    /// The internal byte (page 2 byte 1) is `00` instead of `48`.
    case int

    /// Rewrites pages 0–2 of a factory `image` of the tag `uid` for this fault.
    public func apply(to image: inout [UInt8], uid: [UInt8]) {
        guard uid.count == 7, image.count >= 12 else { return }
        switch self {
        case .uid:
            let other = Array(uid[0..<3]) + uid[3..<7].map { $0 ^ 0xA5 }
            image.replaceSubrange(4..<8, with: other[3..<7])
            image[8] = other[3] ^ other[4] ^ other[5] ^ other[6]
        case .bcc0: image[3] ^= 0x01
        case .bcc1: image[8] ^= 0x01
        case .int: image[9] = 0x00
        }
    }

    /// A deterministic list for `identity=`: entry `i` for the `i`-th tag, `-` for a tag that behaves.
    ///
    /// - Throws: a message naming the bad entry.
    static func parseList(_ text: String) throws(FaultPlanError) -> [IdentityFault?] {
        try text.split(separator: ",", omittingEmptySubsequences: false).map { item throws(FaultPlanError) in
            let word = item.filter { $0 != " " }
            if word == "-" { return nil }
            guard let fault = IdentityFault(rawValue: word) else {
                throw FaultPlanError("unknown identity fault '\(word)'")
            }
            return fault
        }
    }
}
