import Support

/// One tag's keyed personalisation as its family's scheme plans it (`KeyedScheme.plan`): the pipeline runs it in
/// place of write, lock and protect, and knows nothing of the chip's commands.
public protocol KeyedPlan: Sendable {
    /// Where the plan journals its key changes (the ledger's, in `run`).
    var journal: any KeyJournal { get }
    /// Whether the tag ends locked when the plan succeeds.
    var locks: Bool { get }
    /// Runs the plan on `tag`, writing `message` for the tag `uid`; `steps` times the phases and hears what
    /// reached the tag.
    ///
    /// - Returns: the counter the read-back's dynamic message showed, when it showed one.
    /// - Throws: `KeyedFailure` for the tag's failures the plan classifies; the journal's errors and transport
    ///   errors as they come.
    func run(on tag: any FamilyTag, message: [UInt8], uid: [UInt8], steps: any KeyedSteps) throws -> UInt32?
}

/// The phases of a tag's pass a keyed plan's work counts toward (the pipeline's phases of the same names).
public enum KeyedPhase: String, Sendable, Hashable {
    case identify, write, verify, lock
}

/// What a keyed plan tells the pipeline as it goes: the phase each exchange counts toward and what reached the tag.
public protocol KeyedSteps: AnyObject {
    /// Runs `body` as part of `phase` (its wall time and radio cost are the phase's).
    func timed<R>(_ phase: KeyedPhase, _ body: () throws -> R) throws -> R
    /// A key change may reach the tag from now on (its keys are then the journal's to name).
    func keysMayChange()
    /// A write reached the tag.
    func wrote()
    /// The tag already held what this attempt would have written (an earlier attempt made it).
    func foundWritten()
}

/// A keyed plan's failure on the tag, with the pipeline's failure class and phase.
public struct KeyedFailure: Error, Sendable, CustomStringConvertible {
    /// The failure classes a keyed plan reports (the pipeline's of the same names).
    public enum Kind: String, Sendable, Hashable {
        /// The tag is not a chip of the scheme.
        case wrongChip
        /// The tag refused the key the journal names, or holds neither journaled key.
        case protectFailed
        /// The read-back is not what the job's keys predict.
        case verifyMismatch
        /// The chip refused a settings or lock change.
        case lockFailed
    }

    /// The class.
    public var kind: Kind
    /// The phase it happened in.
    public var phase: KeyedPhase
    /// What happened, in words (no key material).
    public var description: String

    /// Creates a failure.
    public init(_ kind: Kind, phase: KeyedPhase, _ description: String) {
        self.kind = kind
        self.phase = phase
        self.description = description
    }
}

/// What a scheme plans one tag's personalisation from.
public struct KeyedPlanRequest: Sendable {
    /// The job's keys of a tag, by key number (`KeyedScheme.tagKeys`).
    public var keys: TagKeys
    /// The tag.
    public var uid: [UInt8]
    /// The row's dynamic message laid out in the chip's memory (`DynamicMessageScheme.layout`).
    public var layout: any DynamicMessageLayout
    /// Whether the job locks the tag for good.
    public var permanent: Bool
    /// The key journal.
    public var journal: any KeyJournal
    /// The tag's journaled key changes so far (a tag seen before may hold some of the job's keys).
    public var history: [KeyChange]
    /// Whether an earlier attempt may have changed the tag.
    public var resumed: Bool

    /// Creates a request.
    public init(
        keys: @escaping TagKeys, uid: [UInt8], layout: any DynamicMessageLayout, permanent: Bool,
        journal: any KeyJournal, history: [KeyChange], resumed: Bool
    ) {
        self.keys = keys
        self.uid = uid
        self.layout = layout
        self.permanent = permanent
        self.journal = journal
        self.history = history
        self.resumed = resumed
    }
}

/// A tag's keyed capability (`FamilyTag.keyed`): the native command set a keyed scheme's plan runs on.
public protocol KeyedTag: AnyObject {}
