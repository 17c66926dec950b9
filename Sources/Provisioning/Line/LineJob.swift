import Foundation
import Ledger
import NFCTags

/// What a line worker needs to know about a job, independent of where it came from (manifest,
/// template, command line).
public struct LineJob: Sendable {
    /// What happens to a row whose tag failed its last try after something was written.
    public enum FailurePolicy: String, Sendable, Hashable {
        /// The row goes back to pending and the next tag gets it.
        case reuse
        /// The row is consumed (its content may be on a failed tag that escapes).
        case burn
    }

    /// Renders the NDEF message bytes of a row for a tag: `(row, fields, uid, timestamp) → bytes`.
    public typealias Renderer = @Sendable (Int, [String: String], [UInt8], Date) throws -> [UInt8]

    /// The job name (the ledger key).
    public var name: String
    /// Chips the job accepts (empty: any chip of the job's families).
    public var acceptedChips: Set<TagChip>
    /// The families the job's tags are opened with (`TagTarget.families`; default: every family).
    public var families = TagFamilies.standard
    /// Whether tags are locked permanently after verify.
    public var lock: Bool
    /// Tries per tag while it stays in the field (1 = no retry; a manifest's `retries` + 1).
    public var tries: Int
    /// What happens to the row after the last try failed.
    public var onFailure: FailurePolicy
    /// The row renderer.
    public var render: Renderer
    /// The originality-signature check (`nil`: off).
    public var signature: SignatureCheck?
    /// What a tag whose pages 0–2 disagree with its identity gets (default `refuse`).
    public var identityCheck: IdentityCheck = .refuse
    /// Whether rendered records are appended to each tag's existing message (`mode: append`).
    public var append = false
    /// Whether blank tags without a CC are formatted first (`"format": true`).
    public var formatsBlankTags = false
    /// Where the mirror window lands for a row's message: `(row, fields, uid) → plan` (nil: no mirror).
    public var mirror: (@Sendable (Int, [String: String], [UInt8]) throws -> MirrorPlan?)?
    /// Password protection and the key its per-tag passwords derive from, when the job protects tags.
    public var protection: (settings: ManifestSecurity.Protection, key: SecretKey)?
    /// The key recorded with every tag (id and fingerprint only), when the job uses one.
    public var keyRecord: (id: String, fingerprint: String)?
    /// Keyed personalisation (the manifest's section of a family's `KeyedScheme`), in place of `lock`.
    public var keyed: KeyedLineOptions?

    /// Creates a job description.
    public init(
        name: String, acceptedChips: Set<TagChip>, lock: Bool, tries: Int, onFailure: FailurePolicy,
        signature: SignatureCheck? = nil, render: @escaping Renderer
    ) {
        self.signature = signature
        self.name = name
        self.acceptedChips = acceptedChips
        self.lock = lock
        self.tries = max(tries, 1)
        self.onFailure = onFailure
        self.render = render
    }
}

/// What a keyed job gives every tag: its scheme, the job's keys, the lock mode, and each row's dynamic message laid
/// out in the chip's memory (`DynamicMessageLayout`), from which the family's plan takes its settings.
public struct KeyedLineOptions: Sendable {
    /// The row's layout: `(row, fields, uid) → layout`.
    public typealias Layout = @Sendable (Int, [String: String], [UInt8]) throws -> any DynamicMessageLayout

    /// The job's scheme and section options.
    public var job: KeyedJob
    /// The job's master key.
    public var master: SecretKey
    /// Whether the lock mode is `permanent`.
    public var permanent: Bool
    /// The row's layout.
    public var layout: Layout

    /// Creates the options.
    public init(job: KeyedJob, master: SecretKey, permanent: Bool, layout: @escaping Layout) {
        self.job = job
        self.master = master
        self.permanent = permanent
        self.layout = layout
    }

    /// A tag's keys by key number.
    public var keys: TagKeys { job.tagKeys(master: master) }
}

/// What a worker tells the operator display as it goes.
public enum LineEvent: Sendable {
    /// The field is empty: place a tag.
    case placeTag(reader: String)
    /// Several tags are in the field.
    case removeExtraTags(reader: String, count: Int)
    /// The tag is done (or failed): take it away.
    case removeTag(reader: String, uid: String)
    /// A tag was committed.
    case done(reader: String, uid: String, row: Int, resumed: Bool)
    /// An attempt failed.
    case failed(reader: String, uid: String, row: Int?, failure: CycleFailure, willRetry: Bool)
    /// The UID was provisioned before.
    case duplicate(reader: String, uid: String, job: String, row: Int)
    /// A tag arrived but every row is done or held by another tag.
    case noRowForTag(reader: String, uid: String)
    /// A reader call between tags failed and is tried again (`ReaderCalls.attempts` in all).
    case readerHiccup(reader: String, detail: String)
    /// `count` tags in a row were refused or failed with `failureClass` (`cause`: what that most likely means):
    /// the reader stops taking tags until the operator fixes the cause and runs the job again.
    case failurePause(reader: String, failureClass: FailureClass, count: Int, cause: String)
    /// The job's last row is done and its tag (`uid`) is still on the reader: the run ends without waiting for
    /// its removal.
    case jobCompleteTagLeft(reader: String, uid: String)
    /// Every open row is held by another station's claim and `--wait` keeps the reader waiting for work (told
    /// once each time it runs out of rows to claim).
    case waitingForWork(reader: String)
    /// The ledger server cannot be reached: the reader pauses (nothing is claimed or written) and reconnects
    /// with backoff.
    case ledgerLost(reader: String, detail: String)
    /// The ledger server answers again after `after` of pause: the reader carries on.
    case ledgerBack(reader: String, after: Duration)
    /// The reader went away (unplugged, its daemon or port gone): its worker pauses and opens it again with a
    /// backoff, waiting for ever or for `timeout` (every reader of the run gone that long).
    case readerGone(reader: String, detail: String, timeout: Duration?)
    /// The reader opened again after `after`: its worker carries on (a tag left mid-write resumes by its UID).
    case readerBack(reader: String, after: Duration)
}

/// Knobs of the worker loop.
public struct WorkerSettings: Sendable {
    /// How long one poll waits for a tag (the loop checks for a stop request between polls).
    public var pollMilliseconds = 200
    /// How long to wait for a released tag to leave before prompting again.
    public var removalMilliseconds = 30_000
    /// Stop after this long without a tag (nil: wait for ever).
    public var idleSeconds: Double?
    /// `idleSeconds` as a duration, to the millisecond.
    public var idleLimit: Duration? { idleSeconds.map { .milliseconds(Int($0 * 1000)) } }
    /// Whether readers that can show the outcome (`OperatorFeedbackReader`) signal pass/fail before
    /// each release.
    public var feedback = true
    /// Consecutive tags refused or failed with one failure class after which the reader pauses (0: never).
    public var maxConsecutiveFailures = 5
    /// Whether a reader with no row left to claim (every open row held by another station) keeps waiting for
    /// work (`--wait`) instead of stopping (`WorkerStop.nothingToClaim`).
    public var waitsForWork = false
    /// How long another station's claim counts as a tag in progress there: a station with nothing else to claim
    /// waits that long for it to finish before it ends (a tag cycle takes about a second).
    public var claimInProgressSeconds: Double = 30
    /// The station's lease on a line of stations (checked before every claim and first write), else `nil`.
    public var lease: StationLease?
    /// The run's gone readers, shared by its workers (one settings value per run): a reader that went away
    /// pauses its worker until it returns, or until every reader has been gone for the tracker's timeout.
    public var readerAbsence = ReaderAbsence()
    /// Awaited before each wait for the next tag, `nil`: none. `run --publish-required` pauses the line there while
    /// too many events are unpublished; the hook returns once the line may go on (or a stop was requested).
    public var beforeNextTag: (@Sendable () async -> Void)?

    /// Creates settings.
    public init(
        pollMilliseconds: Int = 200, removalMilliseconds: Int = 30_000, idleSeconds: Double? = nil,
        feedback: Bool = true, maxConsecutiveFailures: Int = 5
    ) {
        self.pollMilliseconds = pollMilliseconds
        self.removalMilliseconds = removalMilliseconds
        self.idleSeconds = idleSeconds
        self.feedback = feedback
        self.maxConsecutiveFailures = maxConsecutiveFailures
    }
}

/// Why a worker stopped.
public enum WorkerStop: Sendable, Hashable, Error {
    /// Every row of the job is resolved.
    case jobComplete
    /// The operator asked to stop (SIGINT).
    case stopRequested
    /// The reader will present no more tags (simulated population used up).
    case readerExhausted
    /// No usable tag arrived within the idle time (tags the job must refuse do not count).
    case idle
    /// `maxConsecutiveFailures` tags in a row were refused or failed with this class: the reader paused.
    case failurePause(FailureClass)
    /// Rows remain, but every one is held by another station's claim: nothing is left for this reader to claim.
    case nothingToClaim
}
