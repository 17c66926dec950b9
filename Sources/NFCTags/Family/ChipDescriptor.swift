import Crypto

/// One chip (or one group of a family's chips) as a family describes it to everything above the family: the
/// manifest `tag` value that selects it, the name people see, its memory and UID, the simulator chip that
/// presents it, what it can do, and how it is told apart.
///
/// Each family publishes its descriptors (`TagFamily.chips`, plus `TagFamily.anyChip` for "any tag of the
/// family"); the manifest's `tag` values, help texts, `readers`, `doctor`, the simulator's chip names and the
/// chip table in docs/manifest.md are generated from them, so a chip is described in its family's folder only.
public struct ChipDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// The family's name (`type2`).
    public var family: String
    /// The manifest `tag` value (`ntag215`), also the stable name in help texts.
    public var manifestName: String
    /// Other spellings a manifest may use for the same target.
    public var aliases: [String]
    /// The name shown to people (`NTAG215`, `any Type 2 tag`).
    public var displayName: String
    /// The chips a tag may identify as (empty: any chip of the family, generic tags included).
    public var accepts: Set<TagChip>
    /// Bytes of user memory the NDEF area lives in, when the chip fixes it (`nil` for a family-wide target).
    public var userMemory: Int?
    /// The largest NDEF message pre-flight allows (`PreFlightCapacity`).
    public var capacity: PreFlightCapacity
    /// Why the capacity is what it is (shown in the docs' chip table).
    public var capacityNote: String
    /// The identifier's form (`{{uid}}`, `uid=` of the simulator).
    public var uidForm: UIDForm
    /// The `sim:` chip name that presents exactly this target's chip, if the simulator has one.
    public var simulatorName: String?
    /// The `sim:` chip a job for this target runs on when it names no reader (its own chip where there is one).
    public var jobSimulatorName: String
    /// What the chip can do beyond reading and writing NDEF.
    public var capabilities: ChipCapabilities
    /// How the family tells this chip from its others (shown in docs and `inspect`).
    public var identification: String

    /// Creates a descriptor; `jobSimulatorName` defaults to `simulatorName`.
    public init(
        family: String, manifestName: String, aliases: [String] = [], displayName: String, accepts: Set<TagChip>,
        userMemory: Int?, capacity: PreFlightCapacity, capacityNote: String, uidForm: UIDForm,
        simulatorName: String?, jobSimulatorName: String? = nil, capabilities: ChipCapabilities,
        identification: String
    ) {
        self.family = family
        self.manifestName = manifestName
        self.aliases = aliases
        self.displayName = displayName
        self.accepts = accepts
        self.userMemory = userMemory
        self.capacity = capacity
        self.capacityNote = capacityNote
        self.uidForm = uidForm
        self.simulatorName = simulatorName
        self.jobSimulatorName = jobSimulatorName ?? simulatorName ?? manifestName
        self.capabilities = capabilities
        self.identification = identification
    }

    /// Whether the descriptor stands for any tag of its family rather than named chips.
    public var isFamilyWide: Bool { accepts.isEmpty }

    /// Every name a manifest may use for it: the manifest name, then the aliases.
    public var names: [String] { [manifestName] + aliases }

    /// The manifest name.
    public var description: String { manifestName }
}

/// The largest NDEF message pre-flight lets a job write, before any tag is seen.
public enum PreFlightCapacity: Sendable, Hashable {
    /// A fixed number of bytes (the factory layout's largest message).
    case bytes(Int)
    /// An NDEF file of the job's size (Type 4 `minimumFileSize`) less its `lengthField`-byte NLEN.
    case ndefFile(lengthField: Int)

    /// The bytes for a job whose NDEF file (where the target has one) is `fileSize` bytes.
    public func bytes(fileSize: Int) -> Int {
        switch self {
        case .bytes(let count): count
        case .ndefFile(let lengthField): fileSize - lengthField
        }
    }
}

/// What a chip can do beyond NDEF: how it is locked, what it mirrors, its originality signature, password
/// protection and formatting. Keyed personalisation is the family's (`TagFamily.isKeyed(_:)`).
public struct ChipCapabilities: Sendable, Hashable {
    /// How a permanent lock is made; several when a family-wide target's chips differ; empty: no lock.
    public var locks: [ChipLock]
    /// What the chip fills into its own NDEF message on reads.
    public var mirrors: [ChipMirror]
    /// The curve of its originality signature, if it has one.
    public var originalitySignature: OriginalityCurve?
    /// Whether a per-tag password can protect its memory (`protect` in a manifest).
    public var passwordProtection: Bool
    /// Whether a blank tag can be NDEF-formatted before writing (`format` in a manifest).
    public var formatsBlankTags: Bool

    /// Creates capabilities (defaults: none).
    public init(
        locks: [ChipLock] = [], mirrors: [ChipMirror] = [], originalitySignature: OriginalityCurve? = nil,
        passwordProtection: Bool = false, formatsBlankTags: Bool = false
    ) {
        self.locks = locks
        self.mirrors = mirrors
        self.originalitySignature = originalitySignature
        self.passwordProtection = passwordProtection
        self.formatsBlankTags = formatsBlankTags
    }
}

/// How a chip's NDEF memory is made read-only for good.
public enum ChipLock: String, Sendable, Hashable {
    /// Static and dynamic lock bits (Type 2).
    case lockBits = "lock bits"
    /// The NDEF file's access rights changed under the file's Change key (keyed Type 4 chips).
    case fileSettings = "file settings"
    /// The CC's write byte `FF`, where the chip honours it (Type 4).
    case ccWriteByte = "CC write byte"
    /// Lock Block on every CC and NDEF block (Type 5).
    case lockBlock = "Lock Block"
    /// The memory configuration block made read-only (Type 3).
    case memoryConfiguration = "memory configuration"
}

/// What a chip writes into its own NDEF message when it is read.
public enum ChipMirror: String, Sendable, Hashable {
    /// The UID and NFC counter as ASCII (`{{uidMirror}}`, `{{counterMirror}}`, `{{uidCounterMirror}}`).
    case uidCounterASCII = "UID/counter ASCII"
    /// Secure unique NFC messages (`{{sun.…}}` tokens).
    case sun = "SUN"
}
