import Crypto
import Ledger
import NDEF
import NFCTags

/// How `audit` judges the tags of a keyed NTAG 424 DNA job (docs/authentication.md): read as a phone reads them,
/// the message must be the row's template outside the SUN mirrors and the SUN must verify under K1 and the tag's
/// K2 with a counter above every one seen before; the NDEF file's settings must be the job's and the key versions
/// the ledger's journal names. With `deep`, K0 is proven by one authentication (the tag is otherwise never
/// authenticated).
public struct NTAG424Audit: Sendable {
    /// The row's NDEF message as `run` rendered it: `(row, fields, uid) → bytes`.
    public typealias Template = @Sendable (Int, [String: String], [UInt8]) throws -> [UInt8]

    /// The job's keys.
    public var keys: NTAG424JobKeys
    /// The row's template message.
    public var template: Template
    /// The row's NDEF file settings (`NTAG424LineOptions.settings`).
    public var settings: NTAG424LineOptions.Settings
    /// Whether each tag is authenticated with its job K0 (`audit --deep`).
    public var deep: Bool

    /// Creates the audit rules.
    public init(
        keys: NTAG424JobKeys, template: @escaping Template, settings: @escaping NTAG424LineOptions.Settings,
        deep: Bool
    ) {
        self.keys = keys
        self.template = template
        self.settings = settings
        self.deep = deep
    }

    /// What one tag must show, from its row's fields, its key journal and the highest counter seen so far.
    public func expectation(
        row: Int, fields: [String: String], uid: [UInt8], keyVersions: [Int: Int], lastSeen: UInt32?
    ) throws -> SUNExpectation {
        let keys = try keys.keys(uid: uid)
        let settings = try settings(row, fields, uid)
        return SUNExpectation(
            message: try template(row, fields, uid), settings: settings, keyVersions: keyVersions,
            readBack: SUNReadBack(sdm: settings.sdm, metaReadKey: keys[1], fileReadKey: keys[2]), lastSeen: lastSeen,
            deepKey: deep ? keys[0] : nil)
    }
}

/// What one keyed NTAG 424 DNA must show an audit.
public struct SUNExpectation: Sendable {
    /// The row's template message (zeros where the chip mirrors).
    public var message: [UInt8]
    /// The NDEF file's settings the run made.
    public var settings: Type4FileSettings
    /// Key number → the version the ledger's journal says the tag holds.
    public var keyVersions: [Int: Int]
    /// The read-back check with the tag's keys.
    public var readBack: SUNReadBack
    /// The highest read counter verified for this tag so far, if any.
    public var lastSeen: UInt32?
    /// K0 to prove with one authentication (`--deep`), else `nil`.
    public var deepKey: SecretKey?
}

extension TagAuditor {
    /// The verdict on a keyed NTAG 424 DNA read back unauthenticated, with what `expected` says it must show.
    func judgeSUN(_ reading: TagReadBack, message: [UInt8], uid: [UInt8], row: Int, expected: SUNExpectation)
        -> TagVerdict
    {
        func verdict(_ status: TagVerdict.Status, _ detail: String) -> TagVerdict {
            TagVerdict(uid: uid, row: row, status: status, detail: detail)
        }
        let file = [UInt8(message.count >> 8), UInt8(message.count & 0xFF)] + message
        let counter: UInt32?
        do {
            counter = try expected.readBack.check(file, message: expected.message, uid: uid, counter: nil).counter
        } catch {
            return verdict(.mismatch, "SUN read-back: \(error)")
        }
        if let counter, let last = expected.lastSeen, counter <= last {
            return verdict(
                .identityMismatch,
                "SUN counter \(counter) is not above \(last), the highest seen (a replayed or cloned tag)")
        }
        guard let found = reading.ntag424 else {
            return verdict(.configMismatch, "the file settings and key versions could not be read")
        }
        var differences: [String] = []
        let settings = expected.settings.fileSettingsAnswer(fileSize: NTAG424Personalisation.ndefFileSize)
        if found.fileSettings != settings {
            differences.append(
                "NDEF file settings expected \(Hex.compact(settings)), found \(Hex.compact(found.fileSettings))")
        }
        // A key the journal never changed keeps its delivery version 00.
        for (number, version) in found.keyVersions.enumerated()
        where expected.keyVersions[number, default: 0] != Int(version) {
            let wanted = Hex.byte(UInt8(truncatingIfNeeded: expected.keyVersions[number, default: 0]))
            differences.append("K\(number) version expected \(wanted), found \(Hex.byte(version))")
        }
        if found.deepAuthentication == false { differences.append("the job's K0 was refused (--deep)") }
        if lockRequired && !reading.isLockedReadOnly { differences.append(Self.lockState(reading)) }
        if !differences.isEmpty {
            let status: TagVerdict.Status = found.deepAuthentication == false ? .authFailed : .configMismatch
            return verdict(status, "SUN verifies but " + differences.joined(separator: "; "))
        }
        let counterText = counter.map { ", counter \($0)" } ?? ""
        let deepText = found.deepAuthentication == true ? ", K0 accepted" : ""
        let lockText = reading.isLockedReadOnly ? ", locked" : ""
        return verdict(
            .pass, "SUN verifies\(counterText); settings and key versions as journaled\(lockText)\(deepText)")
    }
}
