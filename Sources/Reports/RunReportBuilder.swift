import Foundation
import Ledger
import NDEF
import Provisioning

/// Builds a `RunReport` from the ledger alone, so `provision report` regenerates the same files at any
/// time after (or during) a run.
public enum RunReportBuilder {
    /// Reads job `job` from `ledger`; `serial` renders a row's serial for `tags.csv`.
    ///
    /// - Throws: `LedgerError` (`.unknownJob` when the ledger has no such job).
    public static func build(
        ledger: any LedgerStore, job: String, serial: @Sendable (Int) -> String = { _ in "" }
    ) async throws(LedgerError) -> RunReport {
        guard let info = try await ledger.job(named: job) else {
            throw LedgerError(.unknownJob, "the ledger \(ledger.location) has no job '\(job)'")
        }
        let counts = try await ledger.counts(job: job)
        let attempts = try await ledger.attempts(job: job)
        let tags = try await ledger.tags(job: job)
        let readerByUID = Dictionary(
            attempts.filter { $0.outcome == .done }.map { (Hex.compact($0.uid), $0.reader) },
            uniquingKeysWith: { _, last in last })
        var readers: [String] = []
        for attempt in attempts where !readers.contains(attempt.reader) { readers.append(attempt.reader) }
        let tagLines = tags.map { entry in
            RunReport.TagLine(
                uid: Hex.compact(entry.tag.uid), row: entry.row, serial: serial(entry.row),
                messageSHA256: Hex.compact(entry.tag.bytesSHA256).lowercased(), locked: entry.tag.locked,
                time: entry.recordedAt, reader: readerByUID[Hex.compact(entry.tag.uid)] ?? "", chip: entry.tag.chip,
                family: entry.tag.family)
        }
        let attemptLines = attempts.map(line)
        let reissues = try await ledger.reissues(job: job).map {
            RunReport.ReissueLine(row: $0.row, original: $0.original, by: $0.by, detail: $0.detail, time: $0.at)
        }
        var report = RunReport(
            job: job, manifestSHA256: info.manifestHash, templateSHA256: info.templateHash, readers: readers,
            startedAt: attempts.first?.startedAt ?? info.startedAt,
            finishedAt: attempts.last?.finishedAt ?? info.finishedAt,
            rows: .init(
                total: counts.total, done: counts.done, failed: counts.failed, burned: counts.burned,
                claimed: counts.claimed, pending: counts.pending),
            tags: tagLines, attempts: attemptLines)
        report.reissues = reissues
        return report
    }

    static func line(_ attempt: AttemptRecord) -> RunReport.AttemptLine {
        var phases: [Phase: Double] = [:]
        let d = attempt.durations
        for (phase, value) in [
            (Phase.detect, d.detect), (.identify, d.identify), (.write, d.write), (.verify, d.verify),
            (.lock, d.lock), (.ledger, d.ledger), (.removal, d.removal),
        ] {
            if let value { phases[phase] = Double(value) }
        }
        return RunReport.AttemptLine(
            uid: Hex.compact(attempt.uid), row: attempt.row, reader: attempt.reader,
            failure: attempt.failureClass.flatMap(FailureClass.init(rawValue:)),
            detail: attempt.failureDetail ?? "", phase: attempt.phase.flatMap(Phase.init(rawValue:)) ?? .ledger,
            time: attempt.finishedAt, phaseMicroseconds: phases, exchanges: attempt.exchanges,
            airtimeMicroseconds: attempt.modelledAirtimeMicroseconds.map(Double.init))
    }
}
