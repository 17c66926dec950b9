import Foundation
import JSONReader
import Support

/// One event of the ledger's outbox (docs/events.md): a row outcome, written in the outcome's own transaction, for a
/// plant's MES to read (`provision events`) or a publisher to send.
public struct OutboxEvent: Sendable, Hashable {
    /// What happened; the raw value is the `outbox.outcome` column and the payload's `outcome`.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// A row's tag was written, verified and committed.
        case done
        /// A claimed row was given up for good.
        case failed
        /// A tag whose originality signature did not verify was refused before any write (`signatureInvalid`).
        case quarantined
        /// A claimed row's tag was discarded (`onFailure: burn`).
        case burned
        /// The operator released a row back to pending.
        case released
        /// A done row was issued again as a new row.
        case reissued
        /// A journalled key change was resolved as not made (the tag kept its old key).
        case keyChangeAbandoned
        /// A station's lease ran out and another process took its name over (a ledger server only).
        case leaseLost
    }

    /// The payload's format version (`"v"`).
    public static let payloadVersion = 1

    /// The event's id: a time-ordered random UUID, unique across stations and ledgers; consumers dedupe by it.
    public var id: String
    /// The store's order of events.
    public var sequence: Int
    /// The job, and the row (`nil` for an event about no row, such as a lost lease).
    public var job: String?
    public var row: Int?
    /// The station the event is about (`nil` on a ledger file whose readers name none).
    public var station: String?
    /// What happened.
    public var outcome: Outcome
    /// The versioned JSON payload, as stored.
    public var payload: String
    /// When the event was written, and when it was published (`nil` until then).
    public var createdAt: Date
    public var publishedAt: Date?

    /// Creates an event (the ledger reads them; tests may build them).
    public init(
        id: String, sequence: Int, job: String?, row: Int?, station: String?, outcome: Outcome, payload: String,
        createdAt: Date, publishedAt: Date?
    ) {
        self.id = id
        self.sequence = sequence
        self.job = job
        self.row = row
        self.station = station
        self.outcome = outcome
        self.payload = payload
        self.createdAt = createdAt
        self.publishedAt = publishedAt
    }

    /// `date` as the ledger writes times (ISO 8601 UTC, milliseconds), for printing events as they are stored.
    public static func timestamp(_ date: Date) -> String { LedgerTime.format(date) }

    /// A new event id: a UUID version 7 (48 bits of Unix milliseconds, then random bits), lower case. Time-ordered
    /// ids land at the right edge of the outbox's unique index, so an insert touches one index page, not a random one.
    public static func makeID(at date: Date = Date()) -> String {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255) }
        let milliseconds = UInt64(max(0, date.timeIntervalSince1970 * 1000))
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (40 - 8 * UInt64(index))) }
        bytes[6] = 0x70 | (bytes[6] & 0x0F)
        bytes[8] = 0x80 | (bytes[8] & 0x3F)
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            let start = hex.index(hex.startIndex, offsetBy: range.lowerBound)
            return String(hex[start..<hex.index(hex.startIndex, offsetBy: range.upperBound)])
        }
        return parts.joined(separator: "-")
    }
}

/// What an outbox event's payload says (docs/events.md, version 1): every key is present, `null` where it does not
/// apply, so consumers read one shape. Key bytes never appear: keys are named by id and fingerprint.
struct OutboxFacts {
    var outcome: OutboxEvent.Outcome
    var job: String?
    var row: Int?
    /// The row's public fields (the job's `"public"` names), `nil` for no row.
    var publicFields: [String: String]?
    var uid: String?
    var chip: String?
    var family: String?
    var station: String?
    var reader: String?
    var failureClass: String?
    var detail: String?
    /// The attempt whose timings the event carries.
    var timings: AttemptRecord?
    var keyID: String?
    var keyFingerprint: String?
    /// Who acted (an operator's release or reissue).
    var actor: String?
    /// The done row a reissued row issues again.
    var reissueOf: Int?
    /// The abandoned key change.
    var keyChange: KeyChange?
    /// When the outcome was recorded (the ledger's timestamp format).
    var at: String

    init(_ outcome: OutboxEvent.Outcome, job: String?, row: Int?, at: String) {
        self.outcome = outcome
        self.job = job
        self.row = row
        self.at = at
    }

    /// The payload as compact JSON, keys sorted.
    func payload() throws(LedgerError) -> String {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        func int(_ value: Int?) -> JSONValue { value.map { .integer(Int64($0)) } ?? .null }
        let timingsValue: JSONValue =
            timings.map { a in
                let d = a.durations
                return .object([
                    "detectUs": int(d.detect), "identifyUs": int(d.identify), "writeUs": int(d.write),
                    "verifyUs": int(d.verify), "lockUs": int(d.lock), "ledgerUs": int(d.ledger),
                    "removalUs": int(d.removal), "exchanges": int(a.exchanges),
                    "startedAt": text(LedgerFormat.time(a.startedAt)),
                    "finishedAt": text(LedgerFormat.time(a.finishedAt)),
                ])
            } ?? .null
        let change: JSONValue =
            keyChange.map { k in
                .object([
                    "keyNumber": int(k.keyNumber), "oldVersion": int(k.oldVersion), "newVersion": int(k.newVersion),
                    "oldFingerprint": text(k.oldFingerprint), "newFingerprint": text(k.newFingerprint),
                ])
            } ?? .null
        let object: [String: JSONValue] = [
            "v": .integer(Int64(OutboxEvent.payloadVersion)), "outcome": .string(outcome.rawValue),
            "job": text(job), "row": int(row),
            "public": publicFields.map { .object($0.mapValues(JSONValue.string)) } ?? .null,
            "uid": text(uid), "chip": text(chip), "family": text(family), "station": text(station),
            "reader": text(reader), "failureClass": text(failureClass), "detail": text(detail),
            "timings": timingsValue, "keyId": text(keyID), "keyFingerprint": text(keyFingerprint),
            "actor": text(actor), "reissueOf": int(reissueOf), "keyChange": change, "at": .string(at),
        ]
        do {
            return String(decoding: try LedgerFormat.makeEncoder().encode(object), as: UTF8.self)
        } catch {
            throw LedgerError(.invalidData, "cannot encode an outbox payload: \(error)")
        }
    }
}
