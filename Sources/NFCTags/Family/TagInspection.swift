import Crypto

/// Everything a family's inspection learned about one tag, as family-neutral values; the CLI turns it
/// into `provision inspect`'s report. Family-specific report sections (Type 2: lock bytes, CFG0/CFG1)
/// come as `InspectionSection`s that encode and describe themselves.
public struct TagInspection: Sendable {
    /// What identification found.
    public struct Identity: Sendable, Hashable {
        /// The chip, `nil` for a generic tag of the family.
        public var chip: TagChip?
        /// The name shown when no chip was identified (`generic Type 2`).
        public var genericName: String
        /// The identification answer (Type 2: GET_VERSION), when the tag gave one.
        public var version: [UInt8]?
        /// The vendor byte of that answer (`04` = NXP).
        public var vendor: UInt8?
        /// Whether the answer names another vendor than the chip's maker (a sign of a clone).
        public var suspectedClone: Bool
        /// Why the tag is handled as a generic tag of its family.
        public var genericReason: String?

        /// Creates an identity.
        public init(
            chip: TagChip?, genericName: String, version: [UInt8]? = nil, vendor: UInt8? = nil,
            suspectedClone: Bool = false, genericReason: String? = nil
        ) {
            self.chip = chip
            self.genericName = genericName
            self.version = version
            self.vendor = vendor
            self.suspectedClone = suspectedClone
            self.genericReason = genericReason
        }
    }

    /// The outcome of authenticating with a job's derived password.
    public struct Authentication: Sendable, Hashable {
        /// `accepted`, `refused` or `notSent`.
        public var status: String
        /// What happened, in words (never the password).
        public var detail: String

        /// Creates an outcome.
        public init(status: String, detail: String) {
            self.status = status
            self.detail = detail
        }
    }

    /// What identification found.
    public var identity: Identity
    /// Memory that contradicts the anticollision UID, one phrase each.
    public var anomalies: [String] = []
    /// The NDEF status.
    public var status: NDEFStatus = .notSupported
    /// The largest message that fits (0 when not NDEF).
    public var capacity = 0
    /// The current message length (0: empty); `nil` when not NDEF.
    public var messageLength: Int?
    /// The message bytes, when read.
    public var message: [UInt8]?
    /// Why the message could not be read.
    public var ndefError: String?
    /// The originality signature as the chip answered it.
    public var signature: [UInt8]?
    /// The published keys the signature is checked against, most likely first.
    public var signatureKeys: [OriginalityKey] = []
    /// Why the signature is missing although the chip has one (the command failed, Random ID hides it).
    public var signatureError: String?
    /// The authentication, when a password was given.
    public var authentication: Authentication?
    /// The lock state section (Type 2: static and dynamic lock bytes, CC).
    public var locks: (any InspectionSection)?
    /// The protection and configuration section (Type 2: CFG0/CFG1).
    public var protection: (any InspectionSection)?
    /// What could not be read, and other remarks.
    public var notes: [String] = []
    /// With a dump: every readable unit, index = unit number.
    public var dump: [[UInt8]]?
    /// What identification cost.
    public var identifyCost = TagOperationCost(name: "identify")
    /// What the rest of the inspection cost.
    public var cost = TagOperationCost(name: "inspect")

    /// Creates an inspection result.
    public init(identity: Identity) {
        self.identity = identity
    }
}

/// A published originality-signature key (the key bytes live in `Crypto.OriginalitySignature`).
public enum OriginalityKey: String, Sendable, Hashable, CaseIterable {
    /// NXP's NTAG21x key.
    case ntag21x
    /// NXP's MIFARE Ultralight EV1 key.
    case ultralightEV1
    /// NXP's NTAG 424 DNA key (secp224r1).
    case ntag424

    /// The key's name for people (`NXP NTAG21x key`).
    public var name: String {
        switch self {
        case .ntag21x: "NXP NTAG21x key"
        case .ultralightEV1: "NXP MIFARE Ultralight EV1 key"
        case .ntag424: "NXP NTAG 424 DNA key"
        }
    }

    /// The published public key, `04 ‖ X ‖ Y`.
    public var publicKey: [UInt8] {
        switch self {
        case .ntag21x: OriginalitySignature.ntag21xPublicKey
        case .ultralightEV1: OriginalitySignature.ultralightEV1PublicKey
        case .ntag424: OriginalitySignature.ntag424PublicKey
        }
    }
}

/// One family-specific section of an inspection report: its JSON object, and its lines for people.
public protocol InspectionSection: Encodable, Sendable {
    /// The text lines, label first (an empty label continues the line above).
    var lines: [(label: String, text: String)] { get }
}
