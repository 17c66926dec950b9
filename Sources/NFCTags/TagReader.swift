/// What a reader reports about a tag it has selected (ISO/IEC 14443-3 activation results, or an ISO/IEC
/// 15693 Inventory answer: `dsfid` set, an 8-byte UID in display order `E0…`, ATQA and SAK 0).
public struct DetectedTag: Sendable, Hashable {
    /// The UID from anticollision (7 bytes for NTAG21x, first byte `04`), or from an ISO 15693 Inventory
    /// (8 bytes, display order MSB first: `E0 MM TT …`, `docs/reference/type5.md` §1.1).
    public var uid: [UInt8]
    /// ATQA as PN53x readers report it (high byte first), e.g. `0x0044`.
    public var atqa: UInt16
    /// SAK of the last cascade level, `00` for a Type 2 tag, `20` for an ISO-DEP (Type 4) tag.
    public var sak: UInt8
    /// The ATS of an ISO-DEP tag, TL byte first (`06 77 77 71 02 80`); empty when the reader sent no RATS.
    public var ats: [UInt8]
    /// The FeliCa Polling answer of a Type 3 tag (its IDm is then `uid`); `nil` for ISO/IEC 14443-A tags.
    public var felica: FeliCaActivation?

    /// The DSFID of an ISO/IEC 15693 VICC from its Inventory answer; `nil` for an ISO/IEC 14443-A tag.
    public var dsfid: UInt8?
    /// Creates a detection record.
    public init(uid: [UInt8], atqa: UInt16 = 0x0044, sak: UInt8 = 0x00, ats: [UInt8] = []) {
        self.uid = uid
        self.atqa = atqa
        self.sak = sak
        self.ats = ats
    }
    /// Creates the record of an ISO/IEC 15693 Inventory: `uid` in display order (`E0` first).
    public init(iso15693UID uid: [UInt8], dsfid: UInt8) {
        self.init(uid: uid, atqa: 0, sak: 0)
        self.dsfid = dsfid
    }
    /// Whether the tag answered an ISO/IEC 15693 Inventory (a Type 5 tag).
    public var isISO15693: Bool { dsfid != nil }

    /// A FeliCa tag's detection record: the IDm as UID, no 14443-A data.
    public init(felica: FeliCaActivation) {
        self.init(uid: felica.idm, atqa: 0, sak: 0)
        self.felica = felica
    }
}

/// The state of a reader's field as seen by one poll.
public enum FieldState: Sendable, Hashable {
    /// No tag answered.
    case empty
    /// Exactly one tag is present and selected.
    case tag(DetectedTag)
    /// More than one tag answered; the operator must remove the extras.
    case multipleTags(count: Int)
    /// No tag will ever arrive again (a simulated population that is used up). Real readers never
    /// report this.
    case exhausted
}

/// A reader backend: polls its field, lends the selected tag's transceiver, and reports removal.
///
/// One actor per physical (or simulated) reader. Blocking backends run on their own serial queue, so
/// the closures given to `withTransceiver` run there too and may call the transceiver synchronously.
public protocol TagReader: Actor {
    /// The reader's display name (stable within a run; used in logs and the ledger).
    nonisolated var name: String { get }

    /// Polls until a tag is selected, several tags are seen, or `timeoutMilliseconds` passes.
    ///
    /// Returns `.empty` on timeout. Never waits forever.
    func poll(timeoutMilliseconds: Int) async throws(TransportError) -> FieldState

    /// Runs `body` with the transceiver of the currently selected tag.
    ///
    /// - Throws: `TransportError.tagLost` if no tag is selected, or whatever `body` throws.
    func withTransceiver<Result: Sendable>(
        _ body: @Sendable (any Transceiver) throws -> Result
    ) async throws -> Result

    /// Tells the reader the host is done with the current tag (deselect/release), then waits up to
    /// `timeoutMilliseconds` for it to leave the field.
    ///
    /// - Returns: `true` when the tag is gone.
    func release(waitingForRemovalMilliseconds timeoutMilliseconds: Int) async throws(TransportError) -> Bool

    /// What this reader can do (raw commands, FAST_READ, signature).
    nonisolated var capabilities: ReaderCapabilities { get }

    /// Opens the reader again after it went away (`TransportError.readerGone`): the same PC/SC reader name, the
    /// same libnfc connection string. Any tag session is forgotten; the next `poll` selects afresh.
    ///
    /// - Throws: `.readerGone` while the reader is still away.
    func reopen() async throws(TransportError)
}

extension TagReader {
    /// A reader that cannot go away (simulated, in memory) cannot come back either.
    public func reopen() async throws(TransportError) {
        throw .readerGone("reader \(name) cannot be opened again")
    }
}

/// What a reader path can send to a tag.
public struct ReaderCapabilities: Sendable, Hashable {
    /// Raw Type 2 commands beyond READ/WRITE (GET_VERSION, FAST_READ, READ_SIG, PWD_AUTH, READ_CNT).
    public var rawCommands: Bool
    /// Human-readable notes about degraded paths (shown by `inspect`).
    public var notes: [String]

    /// Creates a capability set.
    public init(rawCommands: Bool = true, notes: [String] = []) {
        self.rawCommands = rawCommands
        self.notes = notes
    }
}
