import Crypto
import Ledger
import NDEF
import NFCTags

/// How `audit` judges the tags of a keyed job (docs/authentication.md), through its chip's dynamic message scheme:
/// read as a phone reads them, the message must be the row's template outside the dynamic windows and the windows
/// must verify under the tag's keys with a counter above every one seen before; the file's settings must be the
/// job's and the key versions the ledger's journal names. With `deep`, the master key is proven by one
/// authentication (the tag is otherwise never authenticated).
public struct KeyedAudit: Sendable {
    /// The row's NDEF message as `run` rendered it: `(row, fields, uid) → bytes`.
    public typealias Template = @Sendable (Int, [String: String], [UInt8]) throws -> [UInt8]
    /// The row's dynamic message layout as `run` made it: `(row, fields, uid) → layout`.
    public typealias Layout = @Sendable (Int, [String: String], [UInt8]) throws -> any DynamicMessageLayout

    /// The job's dynamic message.
    public var scheme: any DynamicMessageScheme
    /// The tag's keys, as the job's keyed scheme derives them.
    public var keys: TagKeys
    /// The row's template message.
    public var template: Template
    /// The row's layout.
    public var layout: Layout
    /// Whether each tag is authenticated with its master key (`audit --deep`).
    public var deep: Bool

    /// Creates the audit rules.
    public init(
        scheme: any DynamicMessageScheme, keys: @escaping TagKeys, template: @escaping Template,
        layout: @escaping Layout, deep: Bool
    ) {
        self.scheme = scheme
        self.keys = keys
        self.template = template
        self.layout = layout
        self.deep = deep
    }

    /// What one tag must show, from its row's fields, its key journal and the highest counter seen so far.
    public func expectation(
        row: Int, fields: [String: String], uid: [UInt8], keyVersions: [Int: Int], lastSeen: UInt32?
    ) throws -> KeyedExpectation {
        let keys = try keys(uid)
        return KeyedExpectation(
            scheme: scheme, message: try template(row, fields, uid), layout: try layout(row, fields, uid), keys: keys,
            keyVersions: keyVersions, lastSeen: lastSeen, deepKey: deep ? keys[scheme.deepKeyNumber] : nil)
    }
}

/// What one keyed tag must show an audit.
public struct KeyedExpectation: Sendable {
    /// The job's dynamic message.
    public var scheme: any DynamicMessageScheme
    /// The row's template message (zeros where the chip fills its windows).
    public var message: [UInt8]
    /// The row's layout (the settings the run made, the read-back check).
    public var layout: any DynamicMessageLayout
    /// The tag's keys.
    public var keys: [SecretKey]
    /// Key number → the version the ledger's journal says the tag holds.
    public var keyVersions: [Int: Int]
    /// The highest counter verified for this tag so far, if any.
    public var lastSeen: UInt32?
    /// The master key to prove with one authentication (`--deep`), else `nil`.
    public var deepKey: SecretKey?
}

extension TagAuditor {
    /// The verdict on a keyed tag read back unauthenticated, with what `expected` says it must show.
    func judgeKeyed(_ reading: TagReadBack, message: [UInt8], uid: [UInt8], row: Int, expected: KeyedExpectation)
        -> TagVerdict
    {
        func verdict(_ status: TagVerdict.Status, _ detail: String) -> TagVerdict {
            TagVerdict(uid: uid, row: row, status: status, detail: detail)
        }
        let name = expected.scheme.name
        let counter: UInt32?
        do {
            counter = try expected.layout.checkReadBack(
                message, written: expected.message, uid: uid, keys: expected.keys, counter: nil)
        } catch {
            return verdict(.mismatch, "\(name) read-back: \(error)")
        }
        if let counter, let last = expected.lastSeen, counter <= last {
            return verdict(
                .identityMismatch,
                "\(name) counter \(counter) is not above \(last), the highest seen (a replayed or cloned tag)")
        }
        guard let found = reading.keyed else {
            return verdict(.configMismatch, "the file settings and key versions could not be read")
        }
        var differences: [String] = []
        let settings = expected.layout.settingsAnswer
        if found.settings != settings {
            differences.append(
                "NDEF file settings expected \(Hex.compact(settings)), found \(Hex.compact(found.settings))")
        }
        // A key the journal never changed keeps its delivery version 00.
        for (number, version) in found.keyVersions.enumerated()
        where expected.keyVersions[number, default: 0] != Int(version) {
            let wanted = Hex.byte(UInt8(truncatingIfNeeded: expected.keyVersions[number, default: 0]))
            differences.append("K\(number) version expected \(wanted), found \(Hex.byte(version))")
        }
        let master = "K\(expected.scheme.deepKeyNumber)"
        if found.deepAuthentication == false { differences.append("the job's \(master) was refused (--deep)") }
        if lockRequired && !reading.isLockedReadOnly { differences.append(Self.lockState(reading)) }
        if !differences.isEmpty {
            let status: TagVerdict.Status = found.deepAuthentication == false ? .authFailed : .configMismatch
            return verdict(status, "\(name) verifies but " + differences.joined(separator: "; "))
        }
        let counterText = counter.map { ", counter \($0)" } ?? ""
        let deepText = found.deepAuthentication == true ? ", \(master) accepted" : ""
        let lockText = reading.isLockedReadOnly ? ", locked" : ""
        return verdict(
            .pass, "\(name) verifies\(counterText); settings and key versions as journaled\(lockText)\(deepText)")
    }
}
