import Crypto
import Foundation
import NDEF
import NFCTags
import Reports
import TagEmulator

/// Turning the raw facts read from a tag into the report (off the reader's queue; signature checks
/// run here).
extension InspectReport {
    /// Interprets `facts` read from the tag `detected` on `reader`, adding the identification cost.
    init(facts: Facts, detected: DetectedTag, reader: any TagReader, identifyCost: PhaseCost) {
        let identity = facts.identity
        self.reader = reader.name
        uid = Hex.compact(detected.uid)
        atqa = String(format: "%04X", detected.atqa)
        sak = String(format: "%02X", detected.sak)
        uidAnomalies = facts.anomalies
        family = facts.family
        chip = Chip(
            model: identity.chip?.rawValue ?? facts.familyChip?.id,
            name: identity.chip?.displayName ?? facts.familyChip?.displayName
                ?? (facts.family == Type2Family.name ? "generic Type 2" : "generic \(facts.family) tag"),
            getVersion: identity.version.map { Hex.string($0) }, vendor: identity.vendor.map { Hex.string([$0]) },
            suspectedClone: identity.isSuspectedClone || !facts.anomalies.isEmpty,
            genericReason: identity.genericReason)
        ndef = Self.ndef(facts)
        locks = Self.locks(facts)
        protection = facts.configuration.flatMap { configuration in
            identity.chip.map { chip in
                Protection(
                    auth0: Int(configuration.auth0), passwordProtected: configuration.isPasswordProtected(on: chip),
                    prot: configuration.readProtected, cfglck: configuration.configLock,
                    authlim: configuration.authLimit, nfcCounterEnabled: configuration.nfcCounterEnabled,
                    mirror: Hex.string([configuration.mirror]))
            }
        }
        signature = Self.signature(
            facts.signature, uid: detected.uid, chip: identity.chip, rawCommands: reader.capabilities.rawCommands)
        authentication = facts.authentication
        rawCommands = reader.capabilities.rawCommands
        notes = reader.capabilities.notes + facts.notes
        pages = facts.dump.map { $0.map { Hex.string($0) } }
        let total = PhaseCost.sum([identifyCost, facts.cost])
        cost = Cost(
            exchanges: total.exchanges, airtimeMicroseconds: total.airtimeMicroseconds.rounded(.microseconds))
    }

    private static func ndef(_ facts: Facts) -> NDEF {
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
                        summary: NDEFCommand.describe(record, index: index), record: RecordJSONObject(record))
                }
            } catch {
                result.error = "byte \(error.offset): \(error.code): \(error.message)"
            }
        }
        return result
    }

    private static func locks(_ facts: Facts) -> Locks? {
        guard facts.pages0to3.count == 4 else { return nil }
        let page2 = facts.pages0to3[2]
        let cc = facts.pages0to3[3]
        let word = Int(page2[2]) | Int(page2[3]) << 8
        let staticPages = (3...15).filter { word & (1 << $0) != 0 }
        var ranges: [[Int]] = []
        if let chip = facts.identity.chip, let configuration = facts.configuration {
            for page in configuration.dynamicallyLockedPages(on: chip) {
                if let last = ranges.last, last[1] + 1 == page {
                    ranges[ranges.count - 1][1] = page
                } else {
                    ranges.append([page, page])
                }
            }
        }
        return Locks(
            staticBytes: Hex.string(page2[2..<4]), staticLockedPages: staticPages,
            dynamicBytes: facts.configuration?.dynamicLock.map { Hex.string($0) }, dynamicLockedRanges: ranges,
            cc: Hex.string(cc), ccWriteAccess: Int(cc[3] & 0x0F), ccPhoneCompatible: cc[3] == 0x00 || cc[3] == 0x0F)
    }

    /// Checks the signature against NXP's key for the chip family and against the repository's test
    /// key (which only the simulator uses), and says which one matched.
    static func signature(_ value: [UInt8]?, uid: [UInt8], chip: ChipModel?, rawCommands: Bool) -> Signature {
        guard let value else {
            let why = rawCommands ? "the tag did not return a signature" : "this reader path cannot send READ_SIG"
            return Signature(status: "unavailable", value: nil, detail: why)
        }
        let nxpKeys: [(String, [UInt8])]
        switch chip {
        case .mf0ul11, .mf0ul21:
            nxpKeys = [("NXP MIFARE Ultralight EV1 key", OriginalitySignature.ultralightEV1PublicKey)]
        case .ntag213, .ntag215, .ntag216: nxpKeys = [("NXP NTAG21x key", OriginalitySignature.ntag21xPublicKey)]
        case nil:
            nxpKeys = [
                ("NXP NTAG21x key", OriginalitySignature.ntag21xPublicKey),
                ("NXP MIFARE Ultralight EV1 key", OriginalitySignature.ultralightEV1PublicKey),
            ]
        }
        let hex = Hex.string(value)
        for (name, key) in nxpKeys where OriginalitySignature.verify(uid: uid, signature: value, publicKey: key) {
            return Signature(status: "nxp", value: hex, detail: "valid under the \(name): genuine NXP silicon")
        }
        let tried = nxpKeys.map(\.0).joined(separator: " and ")
        if OriginalitySignature.verify(uid: uid, signature: value, publicKey: TestSigningKey.publicKey) {
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
