import Foundation
import Ledger
import NDEF
import NFCTags

/// Why a keyed job's tap verifier cannot be made from its manifest.
public enum TapJobSetupError: Error, Sendable {
    /// The job has no keyed section with a dynamic message (an NTAG21x MAC mirror job is `MACMirrorVerifier`'s).
    case notKeyed(job: String)
    /// The template has no layout a tap URL can be read from.
    case layout(JobInputError)
    /// The master key cannot derive the chip's tag keys: its id and the manifest field naming it.
    case masterKey(id: String, field: String, chip: String)

    /// One line for the operator (no key material).
    public var message: String {
        switch self {
        case .notKeyed(let job):
            "job \(job) has no keyed section with a dynamic message (SUN)"
        case .layout(let error): error.description
        case .masterKey(let id, let field, let chip):
            "the master key '\(id)' (\(field)) must be AES-128, 16 bytes, for an \(chip) job"
        }
    }
}

extension TapJobVerifier {
    /// The verifier of a keyed job from its manifest, template and master key: the scheme, the URL layout the
    /// template gives, the tag keys derived from the master, and the URIs each row was written with (a genuine
    /// message pasted into another row's URL is `invalid`). What `verify-url` and `serve` both verify with.
    public init(manifest: Manifest, template: Template, master: SecretKey) throws(TapJobSetupError) {
        guard let keyed = manifest.keyed, let scheme = manifest.dynamicMessage,
            let options = manifest.dynamicMessageOptions
        else { throw .notKeyed(job: manifest.job) }
        let layout: any TapLayout
        do {
            layout = try template.tapLayout(scheme: scheme, options: options)
        } catch {
            throw .layout(error)
        }
        do {
            try self.init(job: manifest.job, scheme: scheme, key: keyed.tagKey(master: master), layout: layout)
        } catch {
            throw .masterKey(
                id: master.id, field: manifest.keyedMasterField ?? "master", chip: manifest.tag.displayName)
        }
        let rows = RowURICache { row, fields, uid in
            let message = try template.render(
                row: JobRow(row: row, line: 0, fields: fields), late: LateBound(uid: uid, timestamp: Date()))
            return try NDEFMessage(bytes: message.bytes).records.compactMap { record in
                if case .uri(let uri) = try record.content() { uri } else { nil }
            }
        }
        rowURIs = { row, fields, uid in try rows.uris(row: row, fields: fields, uid: uid) }
    }
}

/// One job a `TapService` verifies: its verifier (keyed or NTAG21x), the ledger holding its rows and counters, and
/// the row fields the manifest marks public (`"public"`), the only ones an answer shows.
public struct TapServiceJob: Sendable {
    public var verifier: any TapVerifier
    public var ledger: any LedgerStore
    public var publicFields: [String]

    public init(verifier: any TapVerifier, ledger: any LedgerStore, publicFields: [String]) {
        self.verifier = verifier
        self.ledger = ledger
        self.publicFields = publicFields
    }
}

/// What a `TapService` says about one tap URL.
public struct TapAnswer: Sendable {
    /// The job whose keys made the message; `nil` when no job's did (`invalid` from every job).
    public var job: String?
    /// The verifier's verdict (an `invalid` one from the first job when no job claims the URL).
    public var verdict: TapJobVerdict
    /// The tag's row fields the job marks public (`valid`, `replayed`, `suspicious`); empty otherwise.
    public var product: [String: String]
}

/// Verifies tap URLs against one or more jobs (keyed or NTAG21x), recording valid counters in each job's ledger:
/// the one verifier behind `provision verify-url` (one job) and `provision serve` (several), which differ only in
/// how they print the answer.
public struct TapService: Sendable {
    public let jobs: [TapServiceJob]
    /// Each job with its keyed verifier, when every job is keyed (`start(url:at:)`); `nil` otherwise.
    private let keyed: [(job: TapServiceJob, verifier: TapJobVerifier)]?

    public init(jobs: [TapServiceJob]) {
        self.jobs = jobs
        let keyed = jobs.compactMap { job in (job.verifier as? TapJobVerifier).map { (job: job, verifier: $0) } }
        self.keyed = keyed.count == jobs.count ? keyed : nil
    }

    /// Checks `url` against each job in turn; the first job whose keys made the message answers (only one can, as
    /// each job has its own master key). A URL no job's keys made is `invalid` with the first job's detail.
    ///
    /// - Throws: `LedgerError` when a ledger cannot be read or written; a bad URL is a verdict, not an error.
    public func verify(url: String, at time: Date = Date()) async throws(LedgerError) -> TapAnswer {
        var first: TapAnswer?
        for job in jobs {
            let verdict = try await job.verifier.verify(url: url, ledger: job.ledger, at: time)
            guard Self.claims(verdict) else {
                if first == nil { first = TapAnswer(job: nil, verdict: verdict, product: [:]) }
                continue
            }
            // A keyed job's verdict carries the row's fields it read; an NTAG21x one is read here.
            var fields = verdict.fields
            if fields == nil, let row = verdict.row, Self.showsProduct(verdict.kind), !job.publicFields.isEmpty {
                fields = try await job.ledger.record(job: job.verifier.job, row: row)?.fields ?? [:]
            }
            return Self.answer(job, verdict, fields: fields)
        }
        return first ?? TapAnswer(job: nil, verdict: Self.noJob, product: [:])
    }

    /// How `start(url:at:)` goes on: answered already, or waiting for the one ledger that decides.
    public enum TapStart: Sendable {
        /// No ledger was needed (no job's keys made the message).
        case answered(TapAnswer)
        /// The tap goes to its job's ledger when the caller calls this; the ledger's queue gets the answer.
        case ledger(@Sendable (_ answered: @escaping @Sendable (Result<TapAnswer, LedgerError>) -> Void) -> Void)
    }

    /// `verify(url:at:)` without a task, for `serve`'s HTTP worker threads: the message is checked against each job's
    /// keys on this thread, and the one job whose keys made it (only one can) decides on its ledger's queue, with
    /// one visit there for the tap (`LedgerStore.acceptTap`). `nil`, with nothing done, when a job is not keyed
    /// (an NTAG21x job verifies in a task).
    public func start(url: String, at time: Date = Date()) -> TapStart? {
        guard let keyed else { return nil }
        var first: TapAnswer?
        for (job, verifier) in keyed {
            switch verifier.check(url) {
            case .answered(let verdict):
                if first == nil { first = TapAnswer(job: nil, verdict: verdict, product: [:]) }
            case .genuine(let tap):
                return .ledger { answered in
                    verifier.record(tap, url: url, ledger: job.ledger, at: time) { outcome in
                        answered(
                            outcome.map { verdict in
                                Self.claims(verdict)
                                    ? Self.answer(job, verdict, fields: verdict.fields)
                                    : TapAnswer(job: nil, verdict: verdict, product: [:])
                            })
                    }
                }
            }
        }
        return .answered(first ?? TapAnswer(job: nil, verdict: Self.noJob, product: [:]))
    }

    /// Whether a job's verdict makes the URL that job's: anything but an `invalid` naming no row (the job's keys did
    /// not make the message, or a genuine one was pasted into another row's URL).
    private static func claims(_ verdict: TapJobVerdict) -> Bool {
        verdict.kind != .invalid || verdict.row != nil
    }

    /// The kinds whose answer shows the row's public fields.
    private static func showsProduct(_ kind: TapJobVerdict.Kind) -> Bool {
        kind == .valid || kind == .replayed || kind == .suspicious
    }

    /// The answer of the job whose keys made the message, with the public ones of the row's `fields`.
    private static func answer(_ job: TapServiceJob, _ verdict: TapJobVerdict, fields: [String: String]?) -> TapAnswer {
        var product: [String: String] = [:]
        if verdict.row != nil, showsProduct(verdict.kind), let fields {
            for name in job.publicFields { product[name] = fields[name] }
        }
        return TapAnswer(job: job.verifier.job, verdict: verdict, product: product)
    }

    /// Connects the jobs' ledgers again after a dropped connection, so the next request finds a server that is back
    /// (a ledger still away stays as it is). The request that met the drop is not repeated: its counter may have
    /// been committed before the answer was lost, and a second try would answer `replayed` for a genuine tap.
    public func reconnect() async {
        for job in jobs { try? await job.ledger.reconnect() }
    }

    private static let noJob = TapJobVerdict(
        kind: .invalid, uid: nil, counter: nil, row: nil, previousCounter: nil, keyVersions: nil,
        detail: "no job to verify with")
}
