import Foundation
import Ledger
import NDEF
import NFCTags
import Support

/// What an audit worker tells the operator display as it goes.
public enum AuditEvent: Sendable {
    /// The field is empty: place a tag.
    case placeTag(reader: String)
    /// Several tags are in the field.
    case removeExtraTags(reader: String, count: Int)
    /// The tag is audited: take it away.
    case removeTag(reader: String, uid: String)
    /// A tag got its verdict.
    case audited(reader: String, verdict: TagVerdict)
    /// A UID audited earlier in this session was presented again (audited once; earlier status given).
    case repeated(reader: String, uid: String, status: TagVerdict.Status?)
    /// The tag could not be read (silence, it left the field): present it again.
    case readFailed(reader: String, uid: String, error: TransportError)
    /// A reader call between tags failed and is tried again (`ReaderCalls.attempts` in all).
    case readerHiccup(reader: String, detail: String)
}

/// One reader's audit loop: poll → admit the UID → look it up → read back (no WRITE) → classify →
/// removal. Several workers (one per reader) share one `AuditSession`.
public struct AuditWorker: Sendable {
    let reader: any TagReader
    let ledger: any LedgerStore
    let auditor: TagAuditor
    let session: AuditSession
    let settings: WorkerSettings
    let events: @Sendable (AuditEvent) -> Void
    /// The operator's stop request, checked between tags, never in the middle of a read.
    let stop: StopRequest
    /// The families a presented tag is matched against.
    let families: TagFamilies
    let clock = ContinuousClock()

    /// Creates a worker. `stop` is checked between polls and tags, never in the middle of a read.
    public init(
        reader: any TagReader, ledger: any LedgerStore, auditor: TagAuditor, session: AuditSession,
        settings: WorkerSettings = .init(), events: @escaping @Sendable (AuditEvent) -> Void = { _ in },
        stop: StopRequest = StopRequest(), families: TagFamilies = .standard
    ) {
        self.families = families
        self.reader = reader
        self.ledger = ledger
        self.auditor = auditor
        self.session = session
        self.settings = settings
        self.events = events
        self.stop = stop
    }

    /// Runs until the session is full (`.jobComplete`), a stop is requested, the reader is exhausted
    /// or idle.
    ///
    /// - Throws: `LedgerError` when the ledger cannot be read, `TransportError` from polling.
    public func run() async throws -> WorkerStop {
        let wait = TagWait(calls: readerCalls, idleLimit: settings.idleLimit)
        var idleStart = clock.now
        while true {
            if stop.isRequested { return .stopRequested }
            if await session.isFull { return .jobComplete }
            let end = try await wait.next(idleSince: idleStart) { prompt in
                switch prompt {
                case .placeTag: events(.placeTag(reader: reader.name))
                case .removeExtraTags(let count): events(.removeExtraTags(reader: reader.name, count: count))
                }
            }
            switch end {
            case .tag(let detected):
                if try await handle(detected) == false { return .jobComplete }
                idleStart = clock.now
            case .exhausted: return .readerExhausted
            case .idle: return .idle
            case .stopRequested: return .stopRequested
            }
        }
    }

    /// Audits one presented tag; `false` when the session took no more tags.
    private func handle(_ detected: DetectedTag) async throws -> Bool {
        let uid = detected.uid
        let uidText = Hex.compact(uid)
        switch await session.admit(uid) {
        case .full:
            return false
        case .repeated(let status):
            events(.repeated(reader: reader.name, uid: uidText, status: status))
        case .audit:
            let entries = try await ledger.tags(uid: uid)
            let record = auditor.record(in: entries)
            if let record, let conflict = auditor.keyConflict(record.tag, row: record.row) {
                await finish(conflict)
            } else if let record {
                let expected: ExpectedConfiguration?
                let keyed: KeyedExpectation?
                do {
                    let mirror = try await mirrorPlan(uid: uid, row: record.row)
                    expected = try auditor.expectedConfiguration(uid: uid, mirror: mirror)
                    keyed = try await keyedExpectation(uid: uid, row: record.row)
                } catch let error as LedgerError {
                    throw error
                } catch {
                    await finish(
                        TagVerdict(
                            uid: uid, row: record.row, status: .mismatch,
                            detail: "the row's mirror window cannot be placed as the run placed it: \(error)"))
                    try await remove(uidText)
                    return true
                }
                let reading: TagReadBack
                let password = try auditor.password(for: uid)
                do {
                    let families = families
                    reading = try await reader.withTransceiver {
                        try TagReadBack.read(
                            on: $0, activation: detected, families: families, password: password,
                            configuration: expected != nil, anticollisionUID: uid, keyedAudit: keyed)
                    }
                } catch let error as TransportError {
                    await session.abandon(uid, because: "\(error)")
                    events(.readFailed(reader: reader.name, uid: uidText, error: error))
                    try await remove(uidText)
                    return true
                }
                var verdict = auditor.classify(
                    reading, recorded: record.tag, row: record.row, expected: expected, keyed: keyed)
                if verdict.status == .mismatch {
                    try await addExpected(
                        to: &verdict, record: record, read: reading.message, expected: expected, keyed: keyed)
                }
                await finish(verdict)
            } else {
                // Read without a password (a blank tag has none): a never-written spare is told from a stranger.
                let reading: TagReadBack
                do {
                    let families = families
                    reading = try await reader.withTransceiver {
                        try TagReadBack.read(on: $0, activation: detected, families: families)
                    }
                } catch let error as TransportError {
                    await session.abandon(uid, because: "\(error)")
                    events(.readFailed(reader: reader.name, uid: uidText, error: error))
                    try await remove(uidText)
                    return true
                }
                await finish(
                    auditor.verdictWithoutRecord(
                        uid: uid, others: entries.map { RowReference(job: $0.job, row: $0.row) }, reading: reading))
            }
        }
        try await remove(uidText)
        return true
    }

    /// The row's mirror window as the run computed it (from the row's fields in the ledger), `nil`
    /// when the template has no mirror.
    private func mirrorPlan(uid: [UInt8], row: Int) async throws -> MirrorPlan? {
        guard let mirror = auditor.mirror else { return nil }
        let fields = try await ledger.record(job: auditor.job, row: row)?.fields ?? [:]
        return try mirror(row, fields, uid)
    }

    /// What a keyed tag of `row` must show (its template, settings, journaled key versions), `nil` for other jobs.
    private func keyedExpectation(uid: [UInt8], row: Int) async throws -> KeyedExpectation? {
        guard let rules = auditor.keyed else { return nil }
        let fields = try await ledger.record(job: auditor.job, row: row)?.fields ?? [:]
        let versions = try await ledger.keyVersions(job: auditor.job, uid: uid)
        let seen = try await ledger.highestSUNCounter(job: auditor.job, uid: uid).map { UInt32($0) }
        return try rules.expectation(row: row, fields: fields, uid: uid, keyVersions: versions, lastSeen: seen)
    }

    /// Puts the message the run wrote beside what a `mismatch` holds: the row rendered again from its ledger fields
    /// at its claim time (only for a mismatch: a matching tag costs nothing), or a keyed job's template message. When
    /// that is not what the ledger recorded, the detail says why no expected records are shown.
    private func addExpected(
        to verdict: inout TagVerdict, record: ProvisionedTag, read: [UInt8]?, expected: ExpectedConfiguration?,
        keyed: KeyedExpectation?
    ) async throws {
        let rendered: [UInt8]?
        if let keyed {
            rendered = keyed.message
        } else if let render = auditor.render, let info = try await ledger.record(job: auditor.job, row: record.row) {
            rendered = try? render(record.row, info.fields, record.tag.uid, info.claimedAt ?? record.tag.writtenAt)
        } else {
            return
        }
        verdict.expected = rendered.flatMap {
            auditor.expectedMessage(rendered: $0, recorded: record.tag, read: read, mirror: expected?.mirror)
        }
        if verdict.expected == nil && keyed == nil {
            verdict.detail +=
                "; the row no longer renders to the message the run wrote (ledger SHA-256), so the expected records "
                + "are not shown"
        }
    }

    private func finish(_ verdict: TagVerdict) async {
        await session.record(verdict)
        events(.audited(reader: reader.name, verdict: verdict))
    }

    /// Releases the tag and waits for it to leave, prompting until it does.
    private func remove(_ uid: String) async throws {
        try await readerCalls.remove { events(.removeTag(reader: reader.name, uid: uid)) }
    }

    /// Poll and release with hiccups retried, as the line worker does (`ReaderCalls`).
    private var readerCalls: ReaderCalls {
        ReaderCalls(reader: reader, settings: settings, stop: stop) { [events, reader] detail in
            events(.readerHiccup(reader: reader.name, detail: detail))
        }
    }
}
