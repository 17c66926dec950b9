import Crypto
import Foundation
import Ledger
import NDEF
import NFCTags
import Provisioning

/// A job loaded for `run`, `report`, `audit` and `release`: the manifest, its template, their hashes,
/// and the ledger, with every failure turned into the right exit code.
struct JobContext: Sendable {
    let manifest: Manifest
    var template: Template
    let manifestSHA256: String
    let templateSHA256: String
    /// The job's keys, once `loadKeys` ran (never printed: `SecretKey` shows only id and fingerprint).
    var keys: [String: SecretKey] = [:]

    /// Loads the manifest and template (exit 66 for a missing file, 65 for bad content).
    static func load(_ path: String, context: CommandContext, ledger: String? = nil) throws(CLIError) -> JobContext {
        let url = context.url(forPath: path)
        do {
            var manifest = try Manifest.load(from: url, currentDirectory: context.currentDirectory)
            if ledger != nil { manifest.ledger = try LedgerChoice(ledger: ledger).location(for: nil, context: context) }
            let template = try Template.load(for: manifest)
            return JobContext(
                manifest: manifest, template: template, manifestSHA256: try hash(of: manifest.manifestURL),
                templateSHA256: try hash(of: manifest.templateURL))
        } catch let error as JobInputError {
            throw ErrorTable.cliError(error, message: error.description)
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError(.ioError, "\(error)")
        }
    }

    /// Loads the manifest's `keys` from the environment or owner-only files.
    ///
    /// - Throws: `CLIError` 77 for a key file readable by group or others, 66 for a missing key, 65 for
    ///   a malformed one; the message names the key id and source, never key material.
    mutating func loadKeys(environment: [String: String], custody: KeyCustody = KeyCustody()) throws(CLIError) {
        do {
            let masters = Set([manifest.keyed?.options.masterKeyID].compactMap { $0 })
            keys = try manifest.security.loadKeys(environment: environment, aesKeys: masters, custody: custody)
            template.keys = keys
        } catch {
            throw Self.cliError(error)
        }
    }

    /// Loads only the `protect` key (for `audit` and `inspect`, which need no MAC key); `nil` when
    /// the job does not protect tags. Throws as `loadKeys` does.
    func loadProtectionKey(environment: [String: String], custody: KeyCustody = KeyCustody()) throws(CLIError)
        -> SecretKey?
    {
        guard let id = manifest.security.protection?.key, let source = manifest.security.keys[id] else { return nil }
        do {
            return try KeyLoader.load(id: id, from: source, environment: environment, kind: .hmac, custody: custody)
        } catch {
            throw Self.cliError(error)
        }
    }

    /// Refuses public trust material (test signing keys, documented sample keys, a keyed chip's delivery key)
    /// on a non-simulated reader unless `allowed` (`--allow-test-keys`); called before any reader is opened.
    ///
    /// `keys` are the loaded keys beyond `self.keys` (`audit` loads only the protection key). The message names
    /// keys by their manifest id, never by their bytes.
    /// - Throws: `CLIError` 65 naming the reader and each piece of test material.
    func refuseTestKeys(specs: [String], allowed: Bool, keys extra: [SecretKey] = []) throws(CLIError) {
        guard !allowed, let real = specs.first(where: { !ReaderFactory.isSimulated($0) }) else { return }
        let loaded = extra.reduce(into: keys) { $0[$1.id] = $1 }
        let problems = TestKeyMaterial.problems(trusted: manifest.security.trustedKeys, keys: loaded)
        guard !problems.isEmpty else { return }
        throw CLIError.data(
            "reader '\(real)' is not simulated and the job uses public test material: "
                + problems.joined(separator: "; ")
                + ". Use your own keys, or pass --allow-test-keys for a rehearsal on an emulated tag")
    }

    /// A key failure as the CLI reports it (`ErrorTable`: 77 permissions, 66 missing or unreadable,
    /// 65 malformed).
    static func cliError(_ error: KeyError) -> CLIError {
        ErrorTable.cliError(error, message: error.description)
    }

    /// Creates the ledger and reports folders (0700) and proves both writable with a probe file, before
    /// any tag is touched: an unwritable reports folder was once found only after every tag was
    /// programmed. The folders are where they always were (a started job finds its ledger).
    func prepareOutputFolders() throws(CLIError) {
        let ledgerFolder = manifest.ledger.fileURL.map { [("ledger", $0.deletingLastPathComponent())] } ?? []
        let folders = ledgerFolder + [("reports", manifest.reportsURL)]
        for (role, folder) in folders {
            let probe = folder.appendingPathComponent(".provision-probe-\(ProcessInfo.processInfo.processIdentifier)")
            do {
                try PrivateFiles.createFolder(folder)
                try PrivateFiles.write(Array("probe\n".utf8), to: probe)
                try FileManager.default.removeItem(at: probe)
            } catch {
                throw CLIError(
                    .cannotCreate,
                    "cannot write to the \(role) folder \(manifest.displayPath(folder)) "
                        + "(\(error.localizedDescription)); "
                        + "no tag was touched")
            }
        }
    }

    /// The records file (CSV or JSON Lines), `nil` when the rows are written in the manifest.
    var recordsURL: URL? {
        switch manifest.records {
        case .csv(let url), .jsonLines(let url): url
        case .inline: nil
        }
    }

    /// SHA-256 of the records file, lower-case hex (`nil` for inline rows: the manifest's hash covers them).
    func recordsSHA256() throws(CLIError) -> String? {
        try recordsURL.map { url throws(CLIError) in try Self.hash(of: url) }
    }

    /// SHA-256 of a file, lower-case hex.
    static func hash(of url: URL) throws(CLIError) -> String {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CLIError(.noInput, "cannot read \(url.path)")
        }
        return Hex.compact(Digest.sha256(Array(data))).lowercased()
    }

    /// The serial of a row as the template renders it.
    func serial(row: Int) -> String { manifest.serial.value(forRow: row) ?? "" }

    /// The key recorded per tag: a keyed job's master key, the protection key, else the first key a `{{mac:…}}`
    /// uses.
    var recordedKey: SecretKey? {
        if let id = manifest.keyed?.options.masterKeyID, let key = keys[id] { return key }
        if let id = manifest.security.protection?.key, let key = keys[id] { return key }
        for placeholder in template.placeholders {
            if case .mac(let id, _, _) = placeholder.source, let key = keys[id] { return key }
        }
        return nil
    }

    /// Whether the template has a `{{uidMirror}}`, `{{counterMirror}}` or `{{uidCounterMirror}}` token.
    var hasMirror: Bool {
        !template.mirrorTokens.isEmpty
    }

    /// The line worker's view of this job.
    func lineJob() -> LineJob {
        let template = self.template
        var job = LineJob(
            name: manifest.job,
            acceptedChips: manifest.tag.acceptedChips,
            lock: manifest.lock == .permanent, tries: manifest.retries + 1,
            onFailure: manifest.onFailure == .burn ? .burn : .reuse,
            signature: SignatureCheck(manifest.security)
        ) { row, fields, uid, time in
            try template.render(
                row: JobRow(row: row, line: 0, fields: fields), late: LateBound(uid: uid, timestamp: time)
            ).bytes
        }
        job.families = manifest.tag.families(type4: manifest.type4)
        job.keyRecord = recordedKey.map { ($0.id, $0.fingerprint) }
        job.identityCheck = manifest.identityCheck
        job.formatsBlankTags = manifest.format
        job.append = manifest.mode == .append
        if hasMirror {
            job.mirror = { row, fields, uid in
                try template.mirrorPlan(
                    row: JobRow(row: row, line: 0, fields: fields), late: LateBound(uid: uid, timestamp: Date()))
            }
        }
        if let settings = manifest.security.protection, let key = keys[settings.key] {
            job.protection = (settings, key)
        }
        job.keyed = keyedLineOptions()
        if job.keyed != nil { job.lock = false }  // the lock mode is the keyed plan's
        return job
    }

    /// How `audit` judges a keyed job's tags through its dynamic message (its master key loaded), else `nil`.
    func keyedAudit(deep: Bool) -> KeyedAudit? {
        let job = lineJob()
        guard let keyed = job.keyed, let scheme = keyed.job.scheme.dynamicMessage else { return nil }
        let render = job.render
        return KeyedAudit(
            scheme: scheme, keys: keyed.keys, template: { row, fields, uid in try render(row, fields, uid, Date()) },
            layout: keyed.layout, deep: deep)
    }

    /// The keyed options of a job with a keyed scheme's section (its master key loaded), else `nil`: each row's
    /// dynamic message is laid out by the scheme (the scheme's empty layout when the template has no token).
    func keyedLineOptions() -> KeyedLineOptions? {
        guard let keyed = manifest.keyed, let master = keys[keyed.options.masterKeyID],
            let scheme = keyed.scheme.dynamicMessage
        else { return nil }
        let (template, manifest) = (self.template, self.manifest)
        let options = manifest.dynamicMessageOptions ?? .init(rights: .never, macCoversMessage: true)
        let permanent = manifest.lock == .permanent
        return KeyedLineOptions(job: keyed, master: master, permanent: permanent) { row, fields, uid in
            let jobRow = JobRow(row: row, line: 0, fields: fields)
            let late = LateBound(uid: uid, timestamp: Date())
            return try template.dynamicLayout(row: jobRow, late: late, manifest: manifest)
                ?? scheme.layout(messageOffsets: [:], options: options)
        }
    }

    /// Opens the ledger at `location`: a SQLite file (`openLedger(at:)`), or a PostgreSQL server whose
    /// connection records its attempts as `station`.
    ///
    /// A server that cannot be reached is unavailable (69); a schema this build does not know is refused
    /// with what to do (`provision ledger migrate`, or a newer provision). A server over TCP without a verified
    /// certificate is refused (64) unless `tls` allows it, then warned about on `notes` and recorded (`LedgerTLS`).
    static func openLedger(
        _ location: LedgerLocation, create: Bool, readOnly: Bool = false, station: String = "provision",
        notes: TextSink? = nil, tls: LedgerTLS = LedgerTLS()
    ) async throws(CLIError) -> any LedgerStore {
        switch location {
        case .file(let url):
            return try await openLedger(at: url, create: create, readOnly: readOnly, notes: notes)
        case .server(let conninfo):
            try tls.check(conninfo, warnings: notes)
            let ledger: PostgresLedger
            do {
                ledger = try await PostgresLedger.open(conninfo: conninfo.text, station: station)
            } catch  where error.code == .cannotOpen {
                throw ErrorTable.cliError(LedgerServerUnreachable(error.message))
            } catch  where error.code == .schemaTooOld {
                // The message says to run `provision ledger migrate`; a server is never upgraded by opening it.
                throw ErrorTable.cliError(error, message: "ledger: \(error.message)")
            } catch {
                throw cliError(error)
            }
            if tls.recordsOnOpen { try await tls.record(on: location, in: ledger) }
            return ledger
        }
    }

    /// Refuses a ledger that holds no job `job` (66): the reading commands (audit, status, events) name the ledger
    /// and ask whether the job has run.
    static func requireJob(_ job: String, in ledger: any LedgerStore, at location: LedgerLocation) async throws {
        guard try await ledger.job(named: job) != nil else {
            throw CLIError(.noInput, "the ledger \(location) has no job '\(job)' (has it run?)")
        }
    }

    /// Opens (creating the folder if `create`) the job's SQLite ledger.
    ///
    /// A ledger an older `provision` wrote is upgraded to this build's schema, and `notes` says so (older
    /// versions cannot open it afterwards). A read-only open (report, audit) upgrades it too when the
    /// file and its folder can be written: after an upgrade the first command an engineer runs is often a
    /// report or an audit. A file that cannot be written is refused, naming both versions.
    static func openLedger(
        at url: URL, create: Bool, readOnly: Bool = false, notes: TextSink? = nil
    ) async throws(CLIError) -> Ledger {
        if create {
            do {
                try PrivateFiles.createFolder(url.deletingLastPathComponent())
                try PrivateFiles.createEmptyFile(url)
            } catch {
                throw CLIError(.cannotCreate, "cannot create the ledger folder \(url.deletingLastPathComponent().path)")
            }
        } else if !FileManager.default.fileExists(atPath: url.path) {
            throw CLIError(.noInput, "no ledger at \(url.path) (has the job run yet?)")
        }
        let exists = FileManager.default.fileExists(atPath: url.path)
        let before = exists ? try? Ledger.storedSchemaVersion(path: url.path) : nil
        func noteUpgrade() {
            guard let before, before > 0, before < Ledger.schemaVersion else { return }
            notes?.write(
                "note: upgraded the ledger \(url.path) from schema version \(before) to \(Ledger.schemaVersion) "
                    + "(docs/ledger.md, 'Migrations'); older provision versions cannot open it now\n")
        }
        do {
            let ledger = try await Ledger.open(path: url.path, readOnly: readOnly)
            if !readOnly { noteUpgrade() }
            return ledger
        } catch
            where error.code == .schemaTooOld && FileManager.default.isWritableFile(atPath: url.path)
            && FileManager.default.isWritableFile(atPath: url.deletingLastPathComponent().path)
        {
            do {
                _ = try await Ledger.open(path: url.path)
                noteUpgrade()
                return try await Ledger.open(path: url.path, readOnly: true)
            } catch {
                throw cliError(error)
            }
        } catch {
            throw cliError(error)
        }
    }

    /// A ledger failure as the CLI reports it, with `ErrorTable`'s exit code (cannot open/create → 73,
    /// locked → 69, job or row problems → 65, else 74).
    static func cliError(_ error: LedgerError) -> CLIError {
        let message =
            switch error.code {
            case .schemaTooOld:
                "ledger: \(error.message); the file or its folder is not writable, so it cannot be upgraded "
                    + "here: run any provision command once on a writable copy"
            case .busy: "ledger is locked by another process: \(error.message)"
            default: "ledger: \(error.message)"
            }
        return ErrorTable.cliError(error, message: message)
    }
}
