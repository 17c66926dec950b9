import Foundation
import JSONReader
import Ledger
import NDEF
import NFCTags

/// A decoded and validated job manifest (`jobs/*.json`), with every path resolved.
///
/// Relative paths written in the manifest resolve against the manifest's folder; the defaults for
/// `ledger` (`reports/<job>/ledger.sqlite`) and `reports` (`reports/<job>/`) resolve against the
/// current directory. Loading creates nothing on disk. Unknown keys are errors naming their JSON path.
public struct Manifest: Sendable {
    /// Where the rows come from.
    public enum RecordSource: Sendable {
        /// An RFC 4180 CSV file with a header row.
        case csv(URL)
        /// A JSON Lines file (one object per line).
        case jsonLines(URL)
        /// Objects written in the manifest itself.
        case inline([JobRow])
    }

    /// What `lock` asks for after a tag is written.
    public enum LockMode: String, Sendable, Hashable, CaseIterable {
        /// Leave the tag writable.
        case none
        /// Lock the tag permanently (static and dynamic lock bits, CC write access `0F`; on a keyed job the family's
        /// plan sets its chip's rights to never, e.g. the NDEF file's Write, ReadWrite and Change and the CC's write
        /// byte).
        case permanent
        /// Keyed jobs only: the message stays writable with the tag's write key, its settings changeable with the
        /// master key the scheme names.
        case keys
    }

    /// What happens to a row whose tag failed for good (`onFailure`).
    public enum FailurePolicy: String, Sendable, Hashable, CaseIterable {
        /// Give the row to the next tag.
        case reuse
        /// Mark the row used and move on (its serial is never reused).
        case burn
    }

    /// The job name (`[A-Za-z0-9._-]{1,64}`).
    public var job: String
    /// The manifest file.
    public var manifestURL: URL
    /// The template file.
    public var templateURL: URL
    /// The rows.
    public var records: RecordSource
    /// The chip the job expects.
    public var tag: TagTarget
    /// Whether to lock tags after writing (default `none`).
    public var lock: LockMode
    /// Extra attempts per tag while it stays in the field (default 2, at most 10).
    public var retries: Int
    /// What to do with the row of a failed tag (default `reuse`).
    public var onFailure: FailurePolicy
    /// Names whose values must be unique across the job (columns or `serial`, `row`, `job`).
    public var unique: [String]
    /// Serial numbering (default start 1, step 1, width 0, no prefix).
    public var serial: SerialNumbering
    /// Readers to use, in order; `--reader` on the command line overrides them (default: none given).
    public var readers: [ReaderSpec]
    /// The ledger: a SQLite file (default `reports/<job>/ledger.sqlite` in the current directory) or a
    /// PostgreSQL server (`postgresql://…`, docs/stations.md).
    public var ledger: LedgerLocation
    /// The reports folder (default `reports/<job>/` in the current directory).
    public var reportsURL: URL
    /// The directory paths in messages are shown relative to.
    public var currentDirectory: URL
    /// Keys, originality-signature policy and password protection (default: none, `off`, none).
    public var security = ManifestSecurity()
    /// What a tag whose pages 0–2 disagree with its anticollision UID, BCCs or INT gets (default `refuse`).
    public var identityCheck: IdentityCheck = .refuse
    /// `mode`: what the job does with a tag's existing message (default `write`: replace it).
    public var mode: WriteMode = .write
    /// `type4`: the NDEF file size and lock method a Type 4 job assumes (defaults for other tags).
    public var type4 = Type4JobOptions()
    /// Whether blank tags without a CC are formatted before writing (`"format": true`; Type 5 tags only).
    public var format = false
    /// The section of a family's `KeyedScheme` (keyed personalisation: master key and the scheme's options), as
    /// the scheme decoded it; `nil`: the tags are written through their plain, factory-default face.
    public var keyed: KeyedJob?
    /// The row fields a tap answer of `provision serve` may show (`"public"`), each with where the manifest names it.
    public var publicFields: [PublicField] = []
    /// `publish`: where `run --publish` sends the job's outbox when no flag says so (`nil`: nowhere).
    public var publish: PublishSettings?

    /// The largest NDEF message pre-flight allows for the job's tags.
    public var capacity: Int { tag.capacity(type4FileSize: type4.minimumFileSize) }

    /// `mode` in a manifest.
    public enum WriteMode: String, Sendable, Hashable, CaseIterable {
        /// The rendered message replaces whatever the tag holds.
        case write
        /// The rendered records are added after the tag's existing ones (read-modify-write); the message
        /// found at a tag's first presentation is kept in the ledger, so a resumed append writes the whole.
        case append
    }

    /// The keys a manifest may contain: the common ones, then every keyed scheme's section
    /// (`TagFamilies.keyedSchemes`).
    public static var knownKeys: [String] {
        [
            "job", "template", "records", "tag", "lock", "retries", "onFailure", "unique", "serial", "readers",
            "ledger", "reports", "keys", "signature", "protect", "identityCheck", "mode", "type4",
        ] + TagFamilies.standard.keyedSchemes.map(\.section) + ["format", "public", "publish"]
    }

    /// Creates a manifest from values (tests and tools; no validation beyond the types).
    public init(
        job: String, manifestURL: URL, templateURL: URL, records: RecordSource, tag: TagTarget,
        lock: LockMode = .none, retries: Int = 2, onFailure: FailurePolicy = .reuse, unique: [String] = [],
        serial: SerialNumbering = SerialNumbering(), readers: [ReaderSpec] = [], ledger: LedgerLocation,
        reportsURL: URL,
        currentDirectory: URL
    ) {
        self.job = job
        self.manifestURL = manifestURL
        self.templateURL = templateURL
        self.records = records
        self.tag = tag
        self.lock = lock
        self.retries = retries
        self.onFailure = onFailure
        self.unique = unique
        self.serial = serial
        self.readers = readers
        self.ledger = ledger
        self.reportsURL = reportsURL
        self.currentDirectory = currentDirectory
    }

    /// Loads and validates the manifest at `url`.
    ///
    /// - Throws: `JobInputError` with code `fileMissing` (exit 66) or a data code (exit 65).
    public static func load(from url: URL, currentDirectory: URL) throws(JobInputError) -> Manifest {
        let file = DisplayPath.make(url, relativeTo: currentDirectory)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw JobInputError.missing(file: file, url: url)
        }
        return try Manifest(parsing: Array(data), manifestURL: url, currentDirectory: currentDirectory)
    }

    /// Decodes a manifest from its bytes; `manifestURL` locates relative paths.
    public init(parsing bytes: [UInt8], manifestURL: URL, currentDirectory: URL) throws(JobInputError) {
        let file = DisplayPath.make(manifestURL, relativeTo: currentDirectory)
        let root: JSONNode
        do {
            root = try JSONScanner.parse(bytes)
        } catch {
            throw JobInputError(.jsonSyntax, file: file, position: error.position, error.message)
        }
        var decoder = ManifestDecoder(file: file, folder: manifestURL.deletingLastPathComponent())
        self = try decoder.decode(root, manifestURL: manifestURL, currentDirectory: currentDirectory)
    }

    /// The manifest's path as shown in messages.
    public var file: String { displayPath(manifestURL) }

    /// A path as shown in messages: relative to the current directory when under it.
    public func displayPath(_ url: URL) -> String { DisplayPath.make(url, relativeTo: currentDirectory) }

    /// Opens the rows for streaming.
    public func openRows(chunkSize: Int = 64 * 1024) throws(JobInputError) -> any RowReading {
        switch records {
        case .csv(let url): try CSVReader(url: url, file: displayPath(url), chunkSize: chunkSize)
        case .jsonLines(let url): try JSONLinesReader(url: url, file: displayPath(url), chunkSize: chunkSize)
        case .inline(let rows): InlineRowReader(rows: rows, file: file)
        }
    }
}

/// Shows paths relative to a base directory when they lie under it.
public enum DisplayPath {
    /// `url`'s path relative to `base` when it lies under it, else its whole path.
    public static func make(_ url: URL, relativeTo base: URL) -> String {
        let path = url.standardizedFileURL.path
        var basePath = base.standardizedFileURL.path
        if !basePath.hasSuffix("/") { basePath += "/" }
        if path.hasPrefix(basePath) { return String(path.dropFirst(basePath.count)) }
        return path
    }
}
