/// One selected tag of one family on a transceiver: the operations of Core NFC's `NFCNDEFTag`
/// (identify, queryNDEFStatus, readNDEF, writeNDEF, writeLock), synchronous on the reader's queue.
///
/// The tag pipeline (`Provisioning/Pipeline`) knows only this protocol and its optional capabilities;
/// every chip fact (memory map, lock bits, protection range, mirror limits) stays inside the family.
/// Instances are confined to one reader's queue, like the transceiver they wrap (not `Sendable`).
public protocol FamilyTag: AnyObject {
    /// The family's name (`type2`), as its `TagFamily` gives it.
    var family: String { get }
    /// The chip, once `identify()` named one (`nil`: a generic tag of the family).
    var chip: TagChip? { get }
    /// How the chip was identified, appended to refusals (` by its CC size (…)`); empty for the usual way.
    var identificationNote: String { get }
    /// Everything sent so far: exchanges, re-activations, writes and modelled airtime.
    var cost: TagOperationCost { get }

    /// Identifies the chip with the family's free command (Type 2: GET_VERSION `60`; Type 4: GetVersion
    /// `90 60`, `90 AF`, `90 AF`).
    @discardableResult func identify() throws -> TagChip?
    /// The checks the chip model makes before anything is written (Type 2: AUTH0 against the user
    /// pages, refused configuration reads; Type 4: whether the chip can be locked at all).
    ///
    /// - Parameters:
    ///   - hasCredentials: the job can authenticate.
    ///   - lock: the job locks the tag after writing.
    /// - Throws: `TagError.readOnly` (protected, no key), `TagError.lockUnsupported` (the job locks and the
    ///   chip has no lock this tool can make and confirm), transport errors.
    func prepareWrite(hasCredentials: Bool, lock: Bool) throws
    /// Memory that contradicts the anticollision identity (a clone or a misread), in words; only what the
    /// chip model makes refusable.
    func identityAnomalies(anticollisionUID: [UInt8]) throws -> IdentityAnomalies
    /// NDEF detection: the status and the largest message that fits.
    ///
    /// - Throws: `TagError.notNDEF` (with the reason) when the tag holds no NDEF area; transport errors.
    func detectNDEF() throws -> (status: NDEFStatus, capacity: Int)
    /// Why detection found the status it did, when the status alone does not say (Type 4: a proprietary
    /// write access that makes the tag read-only to this tool); `nil` otherwise.
    var statusReason: String? { get }
    /// The NDEF message bytes (`[]` when the message is empty).
    func readNDEF() throws -> [UInt8]
    /// Writes `message` in the family's tear-safe order, skipping units that already match.
    func writeNDEF(_ message: [UInt8]) throws -> NDEFWriteResult
    /// Reads back and compares every written unit with what was meant (`mask`: byte ranges a mirror fills);
    /// Type 2 re-activates first.
    func verify(_ written: NDEFWriteResult, ignoring mask: [Range<Int>]) throws
    /// Makes the tag permanently read-only the chip-correct way and confirms it by reading back.
    func writeLock() throws
    /// The lock state as read back after `writeLock()`: unit number and bytes, for the operator.
    func lockReadBack() -> [(unit: Int, bytes: [UInt8])]
    /// The permanent-lock state from what NDEF detection read (no exchange); `nil` when it read nothing.
    func lockState() -> LockState?
    /// Ends the tag session and selects the tag again (clears authentication).
    func reactivate() throws

    /// Password protection, where the family has it.
    var passwordProtection: (any PasswordProtectable)? { get }
    /// The UID/counter mirror, where the chip has one.
    var mirror: (any MirrorConfigurable)? { get }
    /// The originality signature, where the chip has one.
    var originality: (any OriginalitySigned)? { get }
    /// The native command set a keyed scheme's plan runs on (`KeyedScheme.plan`), where the chip has one.
    var keyed: (any KeyedTag)? { get }
    /// Formatting of blank tags, where the family has it.
    var formatting: (any NDEFFormattable)? { get }
    /// The configuration read-back an audit compares, where the chip has configuration memory.
    var configuration: (any ConfigurationReadable)? { get }
    /// The family's full inspection (`provision inspect`), where it has more to show than the seam.
    var inspection: (any Inspectable)? { get }
}

extension FamilyTag {
    /// Core NFC's `queryNDEFStatus`: a tag that fails detection is `.notSupported` with capacity 0;
    /// transport failures are thrown.
    public func queryNDEFStatus() throws -> (status: NDEFStatus, capacity: Int) {
        do {
            return try detectNDEF()
        } catch let error as TagError where error.code == .notNDEF || error.code == .unsupportedCC {
            return (.notSupported, 0)
        }
    }
}

/// What the identity cross-check found: refusable anomalies in words, and the unit that shows them.
public struct IdentityAnomalies: Sendable, Hashable {
    /// The anomalies, one phrase each; empty when the tag is what anticollision said.
    public var descriptions: [String]
    /// The unit (page) the anomalies were read from.
    public var unit: Int?

    /// Creates a finding.
    public init(_ descriptions: [String] = [], unit: Int? = nil) {
        self.descriptions = descriptions
        self.unit = unit
    }
}

/// Making an empty NDEF tag of a blank one (no CC), where the family knows how (Type 5, `docs/reference/type5.md`
/// §2.5).
public protocol NDEFFormattable: AnyObject {
    /// Whether the tag holds no CC at all (a tag with a CC but no NDEF TLV is not formatted over).
    func isBlank() throws -> Bool
    /// Writes a CC for the chip and an empty NDEF TLV, refusing a tag with a locked block.
    ///
    /// - Throws: `TagError.readOnly` when a block is locked; transport errors.
    func formatBlank() throws
}

/// Password protection a family offers (NTAG21x PWD_AUTH `1Bh` with AUTH0).
public protocol PasswordProtectable: AnyObject {
    /// Authenticates when the tag arrived protected (re-provisioning, a resumed tag).
    ///
    /// - Returns: whether it was protected.
    func unlockIfProtected(_ protection: PasswordProtection) throws -> Bool
    /// Authenticates with `password`, expecting `acknowledge` back (an audit of a protected tag).
    ///
    /// - Throws: `TagError.authenticationFailed` when the tag refuses it or answers another acknowledge.
    func authenticate(password: [UInt8], acknowledge: [UInt8]) throws
    /// Sets protection in the chip's safe order, then checks that the password works and that an
    /// unauthenticated write is refused.
    func protect(_ protection: PasswordProtection) throws
}

/// A chip's ASCII mirror of UID and counter (NTAG21x, `docs/reference/type2.md` §6).
public protocol MirrorConfigurable: AnyObject {
    /// The window the chip's current configuration mirrors into (READ shows ASCII there, not EEPROM).
    func activeMirrorWindow() throws -> [Range<Int>]
    /// Configures `mirror` and checks that the window reads as the UID (and counter) of `uid`.
    func configureMirror(_ mirror: MirrorPlan, uid: [UInt8]) throws
}

/// A chip's originality signature (NTAG21x READ_SIG `3Ch`, NTAG 424 DNA Read_Sig `90 3C`).
public protocol OriginalitySigned: AnyObject {
    /// The command's name as the chip's data sheet spells it (`READ_SIG`, `Read_Sig`), for messages.
    var signatureCommand: String { get }
    /// Whether the reader path can send the command.
    var canReadSignature: Bool { get }
    /// The signature bytes as the chip answers them.
    func readSignature() throws -> [UInt8]
    /// The UID the signature signs, from the tag's memory.
    func signedUID() throws -> [UInt8]
}

extension OriginalitySigned {
    /// NTAG21x and Ultralight EV1 spelling.
    public var signatureCommand: String { "READ_SIG" }
}

extension PasswordProtectable {
    /// Authenticates with the tag's password while setting protection.
    ///
    /// - Throws: `TagError.protectFailed` when the tag refuses it.
    public func authenticate(_ protection: PasswordProtection) throws {
        do {
            try authenticate(password: protection.password, acknowledge: protection.acknowledge)
        } catch let error as TagError where error.code == .authenticationFailed {
            throw TagError(.protectFailed, "PWD_AUTH with the derived password failed: \(error.message)")
        }
    }
}

extension FamilyTag {
    public var statusReason: String? { nil }
    public var passwordProtection: (any PasswordProtectable)? { nil }
    public var mirror: (any MirrorConfigurable)? { nil }
    public var originality: (any OriginalitySigned)? { nil }
    public var keyed: (any KeyedTag)? { nil }
    /// No formatting unless the family has it.
    public var formatting: (any NDEFFormattable)? { nil }
}
