import NDEF
import NFCTags
import Reports

/// Everything `provision inspect` learns about one tag.
///
/// Encoded as the stable `--json` object (docs/json.md, version 2; keys documented in `InspectCommand.help`).
struct InspectReport: Encodable, Sendable {
    /// The chip from GET_VERSION.
    struct Chip: Encodable, Sendable {
        /// The chip id (`TagChip.id`), or `nil` for a generic tag of the family.
        var model: String?
        /// Marketing name, or the family's generic name (`generic Type 2`).
        var name: String
        /// The identification answer as hex (Type 2: GET_VERSION), when there was one.
        var getVersion: String?
        /// The vendor byte as hex (`04` = NXP).
        var vendor: String?
        /// Another vendor than the chip's maker, or memory inconsistent with the UID.
        var suspectedClone: Bool
        /// Why the tag is handled as a generic tag of its family.
        var genericReason: String?
    }

    /// One decoded NDEF record.
    struct Record: Encodable, Sendable {
        var index: Int
        /// TNF name (`nfcWellKnown`, …).
        var tnf: String
        /// TYPE as text when printable, else hex.
        var type: String
        /// ID as text when printable, else hex (empty: no ID).
        var id: String
        /// Payload as hex.
        var payloadHex: String
        /// The one-line summary `provision ndef decode` prints.
        var summary: String
        /// The record JSON object `provision ndef decode --json` prints for this record (whole URIs
        /// and text; `provision ndef encode` turns it back into the record's bytes).
        var record: RecordJSONObject
    }

    /// NDEF status and content.
    struct NDEF: Encodable, Sendable {
        /// `readWrite`, `readOnly` or `notSupported`.
        var status: String
        /// The largest message that fits, in bytes (0 when not supported).
        var capacity: Int
        /// The current message length (0: empty NDEF TLV); `nil` when not NDEF.
        var messageLength: Int?
        /// The message bytes as hex.
        var messageHex: String?
        /// Decoded records.
        var records: [Record]
        /// Why the message could not be read or decoded.
        var error: String?
    }

    /// A family's own report section (Type 2: `locks` and `protection`), encoded as the family wrote it.
    struct Section: Encodable, Sendable {
        let base: any InspectionSection

        func encode(to encoder: any Encoder) throws { try base.encode(to: encoder) }
    }

    /// Originality signature (Type 2 READ_SIG `3C 00`, Type 4 Read_Sig `90 3C`).
    struct Signature: Encodable, Sendable {
        /// `nxp` (NXP's key), `testKey` (a repository simulator key), `invalid`, or `unavailable`.
        var status: String
        /// The r ‖ s as hex: 32 bytes (secp128r1) or 56 bytes (secp224r1).
        var value: String?
        /// What was checked, in words.
        var detail: String
    }

    /// PWD_AUTH with the password derived from a job's `protect` key (`inspect --manifest`).
    struct Authentication: Encodable, Sendable {
        /// The key id (never the key).
        var key: String
        /// `accepted` (the PACK matched), `refused`, or `notSent` (the chip has no password protection).
        var status: String
        /// What happened, in words.
        var detail: String
    }

    /// Exchanges and modelled airtime of the whole inspection.
    struct Cost: Encodable, Sendable {
        var exchanges: Int
        /// `nil` on real readers.
        var airtimeMicroseconds: Double?
    }

    var version = JSONDocument.version
    var reader: String
    /// The tag family that handled the tag (`type2`).
    var family: String
    var uid: String
    var atqa: String
    var sak: String
    /// The DSFID of an ISO 15693 (Type 5) tag's inventory answer; absent for ISO 14443-A tags.
    var dsfid: String?
    /// Inconsistencies in pages 0–2 (BCC, INT, UID0), empty when none.
    var uidAnomalies: [String]
    var chip: Chip
    var ndef: NDEF
    /// Type 2: static and dynamic lock bytes and the CC (`Type2LockSection`).
    var locks: Section?
    /// Type 2: AUTH0, ACCESS and MIRROR (`Type2ProtectionSection`).
    var protection: Section?
    var signature: Signature
    /// With `--manifest` of a job that protects tags: the authentication, `nil` otherwise.
    var authentication: Authentication?
    /// Whether the reader path passes raw commands (GET_VERSION, FAST_READ, READ_SIG).
    var rawCommands: Bool
    /// Reader capability notes and notes about what could not be read.
    var notes: [String]
    /// What a unit of `units` is: `page`, `block`, or `offset` (Type 4: 16-byte pieces of the NDEF file,
    /// entry n at offset 16·n) (`TagWriteUnit.kind`).
    var unitKind: String
    /// With `--dump`: every readable unit as hex, index = unit number.
    var units: [String]?
    var cost: Cost
}
