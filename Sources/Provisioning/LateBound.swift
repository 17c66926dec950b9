import Foundation
import NDEF
import NFCTags

/// Values known only when a tag is in the field: its UID and the write time.
///
/// Both render at a fixed length (14 upper-case hex digits for a 7-byte UID, 16 for a Type 5 UID;
/// `YYYY-MM-DDTHH:MM:SSZ`, 20 characters), and every filter maps equal-length inputs of these shapes to equal-length
/// outputs, so `sizing` renders exactly as long as any real tag will.
public struct LateBound: Sendable, Hashable {
    /// The tag's UID (7 bytes for Type 2 tags).
    public var uid: [UInt8]
    /// The write time.
    public var timestamp: Date
    /// Render mirror windows with a marker instead of their placeholder bytes (to locate them).
    public var marksMirror = false
    /// Render this dynamic-message token's window with a marker instead of `0`s (to locate it).
    public var markedDynamic: DynamicToken?

    /// Creates late-bound values for one tag.
    public init(uid: [UInt8], timestamp: Date) {
        self.uid = uid
        self.timestamp = timestamp
    }

    /// Stand-ins sized at their maximum, used by pre-flight: UID `04FFFFFFFFFFFF`, 9999-12-31T23:59:59Z.
    public static let sizing = LateBound(
        uid: [0x04, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], timestamp: Date(timeIntervalSince1970: 253_402_300_799))

    /// The stand-ins for a Type 5 job: an 8-byte UID `E0FFFFFFFFFFFFFF` (16 hex digits), the same time.
    public static let sizingType5 = LateBound(
        uid: [0xE0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], timestamp: sizing.timestamp)
    /// The stand-ins for a job whose tags have `uidLength`-byte UIDs (8: Type 5; else 7).
    public static func sizing(uidLength: Int) -> LateBound { uidLength == 8 ? sizingType5 : sizing }
    /// `sizing.uidText` and `sizing.timestampText`, formatted once (pre-flight renders them for every row).
    static let sizingUIDText = sizing.uidText
    static let sizingTimestampText = sizing.timestampText

    /// The UID as compact upper-case hex.
    public var uidText: String { Hex.compact(uid) }

    /// The timestamp as ISO 8601 in UTC without fractions (`2026-12-02T15:59:46Z`).
    public var timestampText: String { timestamp.formatted(Date.ISO8601FormatStyle()) }
}
