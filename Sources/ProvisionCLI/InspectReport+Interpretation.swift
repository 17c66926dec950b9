import Crypto
import Foundation
import NDEF
import NFCTags
import Reports

/// Turning the raw facts read from a tag into the report (off the reader's queue; signature checks
/// run here).
extension InspectReport {
    /// Interprets `facts` read from the tag `detected` on `reader`.
    init(facts: Facts, detected: DetectedTag, reader: any TagReader) {
        let inspection = facts.inspection
        let identity = inspection.identity
        self.reader = reader.name
        uid = Hex.compact(detected.uid)
        atqa = String(format: "%04X", detected.atqa)
        sak = String(format: "%02X", detected.sak)
        dsfid = detected.dsfid.map { String(format: "%02X", $0) }
        uidAnomalies = inspection.anomalies
        family = facts.family
        chip = Chip(
            model: identity.chip?.id, name: identity.chip?.displayName ?? identity.genericName,
            getVersion: identity.version.map { Hex.string($0) }, vendor: identity.vendor.map { Hex.string([$0]) },
            suspectedClone: identity.suspectedClone || !inspection.anomalies.isEmpty,
            genericReason: identity.genericReason)
        ndef = Self.ndef(inspection)
        locks = inspection.locks.map { Section(base: $0) }
        protection = inspection.protection.map { Section(base: $0) }
        signature = Self.signature(
            inspection.signature, uid: detected.uid, keys: inspection.signatureKeys,
            rawCommands: reader.capabilities.rawCommands, error: inspection.signatureError)
        authentication = inspection.authentication.flatMap { outcome in
            facts.keyID.map { Authentication(key: $0, status: outcome.status, detail: outcome.detail) }
        }
        rawCommands = reader.capabilities.rawCommands
        notes = reader.capabilities.notes + inspection.notes
        unitKind = TagWriteUnit.of(detected).kind
        units = inspection.dump.map { $0.map { Hex.string($0) } }
        let total = [inspection.identifyCost, inspection.cost]
        let known = total.allSatisfy { $0.airtimeMicroseconds != nil }
        let airtime = known ? total.compactMap(\.airtimeMicroseconds).reduce(0, +) : nil
        cost = Cost(
            exchanges: total.map(\.exchanges).reduce(0, +), airtimeMicroseconds: airtime.rounded(.microseconds))
    }

    private static func ndef(_ facts: TagInspection) -> NDEF {
        let status: String
        switch facts.status {
        case .readWrite: status = "readWrite"
        case .readOnly: status = "readOnly"
        case .notSupported: status = "notSupported"
        }
        var result = NDEF(
            status: status, capacity: facts.capacity, messageLength: facts.messageLength,
            messageHex: facts.message.map { Hex.string($0) }, records: [], error: facts.ndefError)
        if let message = facts.message, !message.isEmpty {
            do {
                let decoded = try NDEFMessage(bytes: message)
                result.records = decoded.records.enumerated().map { index, record in
                    Record(
                        index: index, tnf: record.typeNameFormat.description, type: printable(record.type),
                        id: printable(record.identifier), payloadHex: Hex.string(record.payload),
                        summary: record.summaryLine(index: index), record: RecordJSONObject(record))
                }
            } catch {
                result.error = "byte \(error.offset): \(error.code): \(error.message)"
            }
        }
        return result
    }

    /// Checks the signature against NXP's key for the chip family and against the repository's test
    /// keys (which only the simulator uses), each on the curve its length names, and says which one matched.
    static func signature(
        _ value: [UInt8]?, uid: [UInt8], keys: [OriginalityKey], rawCommands: Bool, error: String? = nil
    ) -> Signature {
        guard let value else {
            let why =
                keys.isEmpty
                ? "provision has no originality check for this chip"
                : error
                    ?? (rawCommands ? "the tag did not return a signature" : "this reader path cannot send READ_SIG")
            return Signature(status: "unavailable", value: nil, detail: why)
        }
        let nxpKeys = keys.map { ($0.name, $0.publicKey) }
        let hex = Hex.string(value)
        for (name, key) in nxpKeys where OriginalitySignature.verify(uid: uid, signature: value, publicKey: key) {
            return Signature(status: "nxp", value: hex, detail: "valid under the \(name): genuine NXP silicon")
        }
        let tried = nxpKeys.map(\.0).joined(separator: " and ")
        let testKeys = OriginalitySignature.repositoryTestPublicKeys
        if testKeys.contains(where: { OriginalitySignature.verify(uid: uid, signature: value, publicKey: $0) }) {
            return Signature(
                status: "testKey", value: hex,
                detail: "valid under the repository's test key only (a simulated tag; fails the \(tried))")
        }
        return Signature(
            status: "invalid", value: hex, detail: "fails the \(tried) and the test key: not NXP silicon (a clone?)")
    }

    /// Text when every byte is printable ASCII, else compact hex.
    private static func printable(_ bytes: [UInt8]) -> String {
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return String(decoding: bytes, as: UTF8.self) }
        return Hex.compact(bytes)
    }
}
