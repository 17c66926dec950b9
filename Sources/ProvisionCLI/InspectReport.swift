import Crypto
import NDEF
import NFCTags
import Provisioning
import TagEmulator

/// Everything `provision inspect` learns about one tag.
///
/// Encoded as the stable `--json` object (`version` 1, documented in `InspectCommand.help`). New keys
/// may be added; existing ones keep their name and meaning.
struct InspectReport: Codable, Sendable {
    /// The chip from GET_VERSION.
    struct Chip: Codable, Sendable {
        /// `ntag213` … `mf0ul21`, or `nil` for a generic Type 2 tag.
        var model: String?
        /// Marketing name, or `generic Type 2`.
        var name: String
        /// The GET_VERSION answer as hex, when there was one.
        var getVersion: String?
        /// The vendor byte as hex (`04` = NXP).
        var vendor: String?
        /// Vendor byte other than NXP's, or pages 0–2 inconsistent.
        var suspectedClone: Bool
        /// Why the tag is handled as generic Type 2.
        var genericReason: String?
    }

    /// One decoded NDEF record.
    struct Record: Codable, Sendable {
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
    struct NDEF: Codable, Sendable {
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

    /// Lock state.
    struct Locks: Codable, Sendable {
        /// LOCK0 LOCK1 (page 2 bytes 2–3) as hex.
        var staticBytes: String
        /// Pages 3–15 made read-only by static lock bits.
        var staticLockedPages: [Int]
        /// LOCK2 LOCK3 LOCK4 RFUI as hex; `nil` without a dynamic lock page or on a generic tag.
        var dynamicBytes: String?
        /// Pages from 16 up made read-only by dynamic lock bits, as `[first, last]` ranges.
        var dynamicLockedRanges: [[Int]]
        /// The capability container (page 3) as hex.
        var cc: String
        /// CC3 write-access nibble (0 writable, 15 read-only).
        var ccWriteAccess: Int
        /// CC3 is `00` or `0F` (phones read the tag).
        var ccPhoneCompatible: Bool
    }

    /// Password protection and configuration (CFG0/CFG1).
    struct Protection: Codable, Sendable {
        /// AUTH0: first page that needs the password.
        var auth0: Int
        /// Whether any user page needs the password.
        var passwordProtected: Bool
        /// PROT: reads need the password too.
        var prot: Bool
        /// CFGLCK: CFG0/CFG1 permanently locked.
        var cfglck: Bool
        /// AUTHLIM: allowed failed PWD_AUTH attempts (0 unlimited).
        var authlim: Int
        /// NFC_CNT_EN.
        var nfcCounterEnabled: Bool
        /// MIRROR byte as hex.
        var mirror: String
    }

    /// Originality signature (READ_SIG `3C 00`).
    struct Signature: Codable, Sendable {
        /// `nxp` (NXP's key), `testKey` (the repository's simulator key), `invalid`, or `unavailable`.
        var status: String
        /// The 32-byte r ‖ s as hex.
        var value: String?
        /// What was checked, in words.
        var detail: String
    }

    /// PWD_AUTH with the password derived from a job's `protect` key (`inspect --manifest`).
    struct Authentication: Codable, Sendable {
        /// The key id (never the key).
        var key: String
        /// `accepted` (the PACK matched), `refused`, or `notSent` (not an NTAG21x).
        var status: String
        /// What happened, in words.
        var detail: String
    }

    /// Exchanges and modelled airtime of the whole inspection.
    struct Cost: Codable, Sendable {
        var exchanges: Int
        /// `nil` on real readers.
        var airtimeMicroseconds: Double?
    }

    var version = 1
    var reader: String
    /// The tag family that handled the tag (`type2`).
    var family: String
    var uid: String
    var atqa: String
    var sak: String
    /// Inconsistencies in pages 0–2 (BCC, INT, UID0), empty when none.
    var uidAnomalies: [String]
    var chip: Chip
    var ndef: NDEF
    var locks: Locks?
    var protection: Protection?
    var signature: Signature
    /// With `--manifest` of a job that protects tags: the authentication, `nil` otherwise.
    var authentication: Authentication?
    /// Whether the reader path passes raw commands (GET_VERSION, FAST_READ, READ_SIG).
    var rawCommands: Bool
    /// Reader capability notes and notes about what could not be read.
    var notes: [String]
    /// With `--dump`: every readable page as hex, index = page number.
    var pages: [String]?
    var cost: Cost
}

extension InspectReport {
    /// Raw facts gathered on the reader's queue; `InspectReport(facts:)` interprets them outside it.
    struct Facts: Sendable {
        var identity: Type2Identity
        var anomalies: [String] = []
        var pages0to3: [[UInt8]] = []
        var configuration: Type2Configuration?
        var status: NDEFStatus = .notSupported
        var capacity = 0
        var messageLength: Int?
        var message: [UInt8]?
        var ndefError: String?
        var signature: [UInt8]?
        var authentication: Authentication?
        var notes: [String] = []
        var dump: [[UInt8]]?
        var cost = PhaseCost(name: "inspect")
        /// The family that handled the tag, and its chip where the family is not Type 2.
        var family = Type2Family.name
        var familyChip: TagChip?
        /// What identification cost.
        var identifyCost = PhaseCost(name: "identify")
    }

    /// Reads everything `inspect` shows, with the fewest exchanges: READ `30 00` (UID, locks, CC),
    /// one READ of the dynamic lock / configuration pages, the NDEF TLV walk and message (FAST_READ),
    /// READ_SIG `3C 00`, and with `dump` the remaining readable pages. With `password` (a job's
    /// derived password and key id) PWD_AUTH `1Bh` comes first, so read-protected pages can be read.
    static func gather(
        _ tag: Type2Tag, anticollisionUID: [UInt8], dump: Bool, password: (key: String, value: TagPassword)? = nil
    ) throws -> Facts {
        var facts = Facts(identity: tag.identity ?? Type2Identity(chip: nil, genericReason: "not identified"))
        let meter = PhaseMeter(tag)
        try meter.run("inspect") {
            if let password { facts.authentication = try authenticate(tag, with: password) }
            facts.anomalies = try tag.uidAnomalies(anticollisionUID: anticollisionUID)
            facts.pages0to3 = (0..<4).compactMap { tag.cachedPage($0) }
            if tag.chip != nil {
                do {
                    facts.configuration = try tag.readConfiguration()
                } catch let error as Type2Error {
                    facts.notes.append("configuration pages not readable: \(error.message)")
                } catch let error as TransportError where error != .tagLost {
                    facts.notes.append("configuration pages not readable (\(error)): " + protectedHint(facts))
                }
            }
            do {
                let (status, capacity) = try tag.queryNDEFStatus()
                facts.status = status
                facts.capacity = capacity
                if status != .notSupported {
                    facts.messageLength = tag.area?.messageLength
                    facts.message = try tag.readNDEF()
                }
            } catch let error as Type2Error {
                facts.ndefError = error.message
            } catch let error as TransportError where error != .tagLost {
                facts.ndefError = "the tag refused to read the NDEF area (\(error)): " + protectedHint(facts)
            }
            if tag.transceiver.supportsRawCommands {
                do {
                    facts.signature = try tag.readSignature()
                } catch let error as TransportError where error != .tagLost {
                    facts.notes.append("READ_SIG refused: \(error)")
                } catch let error as Type2Error {
                    facts.notes.append("READ_SIG failed: \(error.message)")
                }
            }
            if dump {
                let authenticated = facts.authentication?.status == "accepted"
                facts.dump = try dumpPages(
                    tag, configuration: facts.configuration, authenticated: authenticated, notes: &facts.notes)
            }
        }
        facts.cost = meter.phases.last ?? PhaseCost(name: "inspect")
        return facts
    }

    /// PWD_AUTH with the derived password; the outcome in words (never the password).
    private static func authenticate(
        _ tag: Type2Tag, with password: (key: String, value: TagPassword)
    ) throws -> Authentication {
        guard tag.chip?.isNTAG == true else {
            return Authentication(key: password.key, status: "notSent", detail: "not an NTAG21x: no PWD_AUTH sent")
        }
        do {
            try tag.authenticate(password: password.value.pwd, expectedPACK: password.value.pack)
            return Authentication(
                key: password.key, status: "accepted",
                detail: "PWD_AUTH with the password derived from key \(password.key) for this UID; the PACK matched")
        } catch let error as Type2Error where error.code == .authenticationFailed {
            return Authentication(
                key: password.key, status: "refused",
                detail: "the password derived from key \(password.key) was refused (\(error.message)); "
                    + "each refusal counts toward AUTHLIM")
        }
    }

    /// Why a READ was refused, when the tag is read-protected.
    private static func protectedHint(_ facts: Facts) -> String {
        switch facts.authentication?.status {
        case "accepted": "refused although authenticated"
        case "refused": "read-protected (PROT), and the password was refused"
        default: "read-protected (PROT)? use --manifest with the job that protected it"
        }
    }

    /// Every page the tag lets us read: all pages of a known chip (up to AUTH0 when PROT is set and the
    /// tag is not authenticated), or pages 0 to the end of the CC's data area on a generic tag.
    private static func dumpPages(
        _ tag: Type2Tag, configuration: Type2Configuration?, authenticated: Bool, notes: inout [String]
    ) throws -> [[UInt8]] {
        var last: Int
        if let chip = tag.chip {
            last = chip.lastPage
            if let configuration, configuration.readProtected, !authenticated, Int(configuration.auth0) <= last {
                last = Int(configuration.auth0) - 1
                notes.append("dump stops before page \(configuration.auth0) (AUTH0 with PROT: reads need the password)")
            }
        } else {
            let cc = tag.cachedPage(3).flatMap(CapabilityContainer.init)
            last = (cc?.hasNDEFMagic ?? false) ? (cc?.dataAreaEnd ?? 64) / 4 - 1 : 15
            notes.append("generic Type 2 tag: dump limited to pages 0–\(last) (the size is unknown)")
        }
        let bytes = try tag.readPages(0...last)
        return stride(from: 0, to: bytes.count, by: 4).map { Array(bytes[$0..<$0 + 4]) }
    }
}
