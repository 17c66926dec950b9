import Ledger
import NDEF
import NFCTags
import Provisioning
import Support

/// The audit's reader loops and what they show the operator.
extension AuditCommand {
    /// Runs one `AuditWorker` per reader until each stops (`ReaderFanOut`); returns the first failure, in
    /// reader order, as a `CLIError` (the findings so far are still reported).
    static func runWorkers(
        _ readers: [any TagReader], ledger: any LedgerStore, auditor: TagAuditor, session: AuditSession,
        display: ProgressDisplay, settings: WorkerSettings, stop: StopRequest, families: TagFamilies = .standard
    ) async -> CLIError? {
        let multiple = readers.count > 1
        let workers = readers.map { reader in
            AuditWorker(
                reader: reader, ledger: ledger, auditor: auditor, session: session, settings: settings,
                events: { show($0, on: display, naming: multiple) }, stop: stop, families: families)
        }
        let ends = await ReaderFanOut.run(workers.count) { try await workers[$0].run() }
        return ends.lazy.compactMap { end -> CLIError? in
            guard case .failure(let error) = end.result else { return nil }
            let name = readers[end.index].name
            switch error {
            case let error as LedgerError: return JobContext.cliError(error)
            case is CancellationError: return ErrorTable.cliError(error)
            // Anything else ended the reader's loop: the reader stopped (unplugged, daemon gone).
            default: return ErrorTable.cliError(ReaderFailure(.stopped, "reader \(name): \(error)"))
            }
        }.first
    }

    /// One operator line per event.
    static func show(_ event: AuditEvent, on display: ProgressDisplay, naming: Bool) {
        func prefix(_ reader: String) -> String { naming ? "[\(reader)] " : "" }
        switch event {
        case .placeTag(let reader):
            display.prompt(prefix(reader) + "place tag")
        case .removeExtraTags(let reader, let count):
            display.prompt(prefix(reader) + "\(count) tags in the field: remove extra tags")
        case .removeTag(let reader, let uid):
            display.prompt(prefix(reader) + "remove tag \(uid)")
        case .audited(let reader, let verdict):
            let row = verdict.row.map { "row \($0)" } ?? "no row"
            display.note(
                prefix(reader) + "\(Hex.compact(verdict.uid))  \(row)  \(verdict.status.rawValue): \(verdict.detail)")
        case .repeated(let reader, let uid, let status):
            let earlier = status.map { " (\($0.rawValue))" } ?? ""
            display.note(
                prefix(reader) + "\(uid) already audited in this session\(earlier); audited once, not counted again")
        case .readFailed(let reader, let uid, let error):
            display.note(prefix(reader) + "\(uid) could not be read (\(error)); present it again")
        case .readerHiccup(let reader, let detail):
            display.prompt(prefix(reader) + "\(detail), trying again")
        }
    }
}

extension ProgressDisplay {
    /// A line that stays (a tag's result), ending any live line first; nothing with `--quiet`.
    func note(_ text: String) {
        switch mode {
        case .terminal: sink.write("\r\u{1B}[K\(text)\n")
        case .lines: sink.line(text)
        case .quiet: break
        }
    }
}
