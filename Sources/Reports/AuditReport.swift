import Foundation
import NDEF
import Provisioning

/// What an audit found when it read tags back and compared them with the job: the single input of the
/// audit writers (Markdown, JSON, CSV, HTML).
public struct AuditReport: Sendable, Hashable, Codable {
    /// The result for one tag read during the audit.
    public struct Finding: Sendable, Hashable, Codable {
        /// UID as 14 upper-case hex digits.
        public var uid: String
        /// The 1-based manifest row the ledger has for this UID, if any.
        public var row: Int?
        /// The verdict.
        public var status: AuditStatus
        /// Human-readable detail (what differed, why unknown).
        public var detail: String
        /// When the tag was read.
        public var time: Date
        /// The records the tag holds, as record JSON objects (`provision ndef decode --json`): empty for
        /// an empty message, `nil` when no message was read or it does not decode.
        public var records: [RecordJSONObject]?
        /// For a `mismatch`, the records the run wrote (as `records`), to show beside what the tag holds; `nil`
        /// for every other finding and when the row no longer renders to what the ledger recorded.
        public var expected: [RecordJSONObject]?

        /// Creates a finding; `message` is the NDEF message read from the tag, if one was, and `expected` the
        /// message the run wrote, given for a mismatch.
        public init(
            uid: String, row: Int?, status: AuditStatus, detail: String, time: Date, message: [UInt8]? = nil,
            expected: [UInt8]? = nil
        ) {
            self.uid = uid
            self.row = row
            self.status = status
            self.detail = detail
            self.time = time
            records = message.flatMap(RecordJSONObject.objects(ofMessage:))
            self.expected = expected.flatMap(RecordJSONObject.objects(ofMessage:))
        }
    }

    /// The job name.
    public var job: String
    /// When the audit ran (names the files: `audit-<when>.md`).
    public var when: Date
    /// Readers used.
    public var readers: [String]
    /// Every tag read, in read order.
    public var findings: [Finding]

    /// Creates an audit report.
    public init(job: String, when: Date, readers: [String], findings: [Finding]) {
        self.job = job
        self.when = when
        self.readers = readers
        self.findings = findings
    }

    /// Whether no finding fails the audit (every tag passed or was blank).
    public var passed: Bool { !findings.contains { $0.status.isFailure } }

    /// The findings that fail the audit, in read order.
    public var failures: [Finding] { findings.filter { $0.status.isFailure } }

    /// The blank tags (never written, in no job), in read order: listed apart, not failures.
    public var blanks: [Finding] { findings.filter { $0.status == .blank } }

    /// Findings per status; every status present (zero when none).
    public var counts: [AuditStatus: Int] {
        var counts = Dictionary(uniqueKeysWithValues: AuditStatus.allCases.map { ($0, 0) })
        for finding in findings { counts[finding.status, default: 0] += 1 }
        return counts
    }
}
