import Foundation
import JSONReader
import Ledger
import NDEF
import NFCTags

/// Turns a manifest's JSON tree into a `Manifest`, naming the JSON path of every problem.
struct ManifestDecoder {
    let file: String
    let folder: URL

    func fail(_ node: JSONNode, _ path: String, _ message: String) -> JobInputError {
        JobInputError(
            .manifestInvalid, file: file, position: node.position, path.isEmpty ? message : "\(path): \(message)")
    }

    func checkKeys(_ node: JSONNode, _ path: String, allowed: [String]) throws(JobInputError) -> [JSONNode
        .Member]
    {
        guard let members = node.members else {
            throw fail(node, path, "must be an object, found \(node.kindName)")
        }
        for member in members where !allowed.contains(member.key) {
            let place = path.isEmpty ? member.key : "\(path).\(member.key)"
            throw JobInputError(
                .manifestInvalid, file: file, position: member.keyPosition,
                "\(place): unknown key (expected one of: \(allowed.joined(separator: ", ")))")
        }
        return members
    }

    func required(_ root: JSONNode, _ key: String) throws(JobInputError) -> JSONNode {
        guard let value = root[key] else { throw fail(root, key, "missing") }
        return value
    }

    /// The member `key` of the section `parent`, or a `missing` error naming `parent.key`.
    func required(_ node: JSONNode, _ key: String, in parent: String) throws(JobInputError) -> JSONNode {
        guard let value = node[key] else { throw fail(node, "\(parent).\(key)", "missing") }
        return value
    }

    func string(_ node: JSONNode, _ path: String) throws(JobInputError) -> String {
        guard let text = node.string else { throw fail(node, path, "must be a string, found \(node.kindName)") }
        return text
    }

    func integer(_ node: JSONNode, _ path: String, in range: ClosedRange<Int>) throws(JobInputError) -> Int {
        guard case .number(let text) = node.kind, let value = Int(text) else {
            throw fail(
                node, path,
                "must be a whole number in \(range.lowerBound)...\(range.upperBound), found \(Self.show(node))")
        }
        guard range.contains(value) else {
            throw fail(
                node, path, "must be a whole number in \(range.lowerBound)...\(range.upperBound), found \(value)")
        }
        return value
    }

    static func show(_ node: JSONNode) -> String {
        switch node.kind {
        case .number(let text): text
        case .string(let text, _): "\"\(text)\""
        default: node.kindName
        }
    }

    func choice<T: RawRepresentable & CaseIterable>(_ node: JSONNode, _ path: String, _: T.Type)
        throws(JobInputError) -> T
    where T.RawValue == String {
        let text = try string(node, path)
        guard let value = T(rawValue: text) else {
            let names = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw fail(node, path, "unknown value '\(text)' (expected one of: \(names))")
        }
        return value
    }

    func path(_ node: JSONNode, _ key: String) throws(JobInputError) -> URL {
        let text = try string(node, key)
        guard !text.isEmpty else { throw fail(node, key, "must not be empty") }
        if text.hasPrefix("/") { return URL(fileURLWithPath: text).standardizedFileURL }
        return folder.appendingPathComponent(text).standardizedFileURL
    }

    /// The `ledger` value: a file path (relative to the manifest) or a PostgreSQL connection string without
    /// a password.
    func ledgerLocation(_ node: JSONNode) throws(JobInputError) -> LedgerLocation {
        let text = try string(node, "ledger")
        guard !text.isEmpty else { throw fail(node, "ledger", "must not be empty") }
        do {
            return try LedgerLocation(text, relativeTo: folder)
        } catch {
            throw fail(node, "ledger", error.message)
        }
    }

    mutating func decode(_ root: JSONNode, manifestURL: URL, currentDirectory: URL) throws(JobInputError) -> Manifest {
        _ = try checkKeys(root, "", allowed: Manifest.knownKeys)
        let job = try string(try required(root, "job"), "job")
        let jobNode = try required(root, "job")
        guard LedgerName.isValid(job) else {
            throw fail(jobNode, "job", "'\(job)' is not a job name (\(LedgerName.rule))")
        }
        guard job != ".", job != ".." else { throw fail(jobNode, "job", "'\(job)' is not a job name") }
        let template = try path(try required(root, "template"), "template")
        let records = try decodeRecords(try required(root, "records"))
        let tag = try choice(try required(root, "tag"), "tag", TagTarget.self)
        let lock =
            try root["lock"].map { node throws(JobInputError) in try choice(node, "lock", Manifest.LockMode.self) }
            ?? .none
        let retries =
            try root["retries"].map { node throws(JobInputError) in try integer(node, "retries", in: 0...10) } ?? 2
        let onFailure =
            try root["onFailure"].map { node throws(JobInputError) in
                try choice(node, "onFailure", Manifest.FailurePolicy.self)
            } ?? .reuse
        let serial =
            try root["serial"].map { node throws(JobInputError) in try decodeSerial(node) } ?? SerialNumbering()
        let unique = try root["unique"].map { node throws(JobInputError) in try decodeUnique(node) } ?? []
        let readers = try root["readers"].map { node throws(JobInputError) in try decodeReaders(node) } ?? []
        let defaultFolder = currentDirectory.appendingPathComponent("reports").appendingPathComponent(job)
        let ledger =
            try root["ledger"].map { node throws(JobInputError) in try ledgerLocation(node) }
            ?? .file(defaultFolder.appendingPathComponent("ledger.sqlite").standardizedFileURL)
        let reports =
            try root["reports"].map { node throws(JobInputError) in try path(node, "reports") } ?? defaultFolder
        // Before the security sections, so a Type 4 job hears that `protect` is not for it at all.
        try checkType3(root, tag: tag)
        let type4 = try decodeType4(root, tag: tag)
        let security = try decodeSecurity(root)
        let keyed = try decodeKeyed(root, job: job, tag: tag, lock: lock, keys: security.keys)
        var manifest = Manifest(
            job: job, manifestURL: manifestURL.standardizedFileURL, templateURL: template, records: records, tag: tag,
            lock: lock, retries: retries, onFailure: onFailure, unique: unique, serial: serial, readers: readers,
            ledger: ledger, reportsURL: reports.standardizedFileURL,
            currentDirectory: currentDirectory)
        manifest.security = security
        manifest.type4 = type4
        manifest.keyed = keyed
        if let node = root["identityCheck"] {
            manifest.identityCheck = try choice(node, "identityCheck", IdentityCheck.self)
        }
        if let node = root["public"] { manifest.publicFields = try decodePublic(node) }
        if let node = root["publish"] { manifest.publish = try decodePublish(node) }
        if let node = root["mode"] { manifest.mode = try choice(node, "mode", Manifest.WriteMode.self) }
        if let node = root["format"] {
            guard case .bool(let value) = node.kind else {
                throw fail(node, "format", "must be true or false, found \(node.kindName)")
            }
            guard !value || tag.capabilities.formatsBlankTags else {
                throw fail(
                    node, "format",
                    "formatting blank tags is for " + TagTarget.list("jobs") { $0.capabilities.formatsBlankTags })
            }
            manifest.format = value
        }
        return manifest
    }

    private func decodeRecords(_ node: JSONNode) throws(JobInputError) -> Manifest.RecordSource {
        switch node.kind {
        case .string(let text, _):
            let url = try path(node, "records")
            switch url.pathExtension.lowercased() {
            case "csv": return .csv(url)
            case "jsonl", "ndjson": return .jsonLines(url)
            default:
                throw fail(node, "records", "'\(text)' must end in .csv, .jsonl or .ndjson")
            }
        case .array(let elements):
            guard !elements.isEmpty else { throw fail(node, "records", "the inline array is empty") }
            var rows: [JobRow] = []
            for (index, element) in elements.enumerated() {
                let fields = try JobRow.fields(of: element, file: file, row: index + 1, path: "records[\(index)]")
                rows.append(JobRow(row: index + 1, line: element.position.line, fields: fields))
            }
            return .inline(rows)
        default:
            throw fail(node, "records", "must be a file path or an array of objects, found \(node.kindName)")
        }
    }

    private func decodeSerial(_ node: JSONNode) throws(JobInputError) -> SerialNumbering {
        _ = try checkKeys(node, "serial", allowed: ["start", "step", "width", "prefix"])
        var serial = SerialNumbering()
        if let start = node["start"] { serial.start = try integer(start, "serial.start", in: 0...999_999_999_999) }
        if let step = node["step"] { serial.step = try integer(step, "serial.step", in: 1...1_000_000) }
        if let width = node["width"] { serial.width = try integer(width, "serial.width", in: 0...32) }
        if let prefix = node["prefix"] { serial.prefix = try string(prefix, "serial.prefix") }
        return serial
    }

    private func decodeUnique(_ node: JSONNode) throws(JobInputError) -> [String] {
        guard let elements = node.elements else {
            throw fail(node, "unique", "must be an array of names, found \(node.kindName)")
        }
        var names: [String] = []
        for (index, element) in elements.enumerated() {
            let name = try string(element, "unique[\(index)]")
            guard !name.isEmpty else { throw fail(element, "unique[\(index)]", "must not be empty") }
            if Template.lateBoundNames.contains(name) {
                throw fail(
                    element, "unique[\(index)]",
                    "'\(name)' is only known when the tag is written; the ledger checks UIDs")
            }
            guard !names.contains(name) else { throw fail(element, "unique[\(index)]", "'\(name)' is listed twice") }
            names.append(name)
        }
        return names
    }

    /// A simulated reader's relative `store=` path, resolved against the manifest's folder like every
    /// other path in a manifest (so `run` and `audit` find the same tags from any working directory).
    private func resolvingStore(_ spec: ReaderSpec) throws(ReaderSpecError) -> ReaderSpec {
        guard spec.scheme == "sim", let store = spec.option("store"), !store.hasPrefix("/"), !store.isEmpty else {
            return spec
        }
        let absolute = folder.appendingPathComponent(store).standardizedFileURL.path
        return try ReaderSpec(spec.text.replacingOccurrences(of: "store=\(store)", with: "store=\(absolute)"))
    }

    private func decodeReaders(_ node: JSONNode) throws(JobInputError) -> [ReaderSpec] {
        guard let elements = node.elements else {
            throw fail(node, "readers", "must be an array of reader specs, found \(node.kindName)")
        }
        var specs: [ReaderSpec] = []
        for (index, element) in elements.enumerated() {
            let text = try string(element, "readers[\(index)]")
            do {
                specs.append(try resolvingStore(try ReaderSpec(text)))
            } catch {
                throw fail(element, "readers[\(index)]", error.description)
            }
        }
        return specs
    }
}
