import Ledger
import NDEF
import NFCTags
import Provisioning

/// The audit's reader loops and what they show the operator.
extension AuditCommand {
    /// Runs one `AuditWorker` per reader until each stops; returns the first failure as a `CLIError`
    /// (the findings so far are still reported).
    static func runWorkers(
        _ readers: [any TagReader], ledger: Ledger, auditor: TagAuditor, session: AuditSession,
        display: ProgressDisplay, settings: WorkerSettings, shouldStop: @escaping @Sendable () -> Bool
    ) async -> CLIError? {
        let multiple = readers.count > 1
        return await withTaskGroup(of: CLIError?.self) { group in
            for reader in readers {
                let worker = AuditWorker(
                    reader: reader, ledger: ledger, auditor: auditor, session: session, settings: settings,
                    events: { show($0, on: display, naming: multiple) }, shouldStop: shouldStop)
                group.addTask {
                    do {
                        _ = try await worker.run()
                        return nil
                    } catch let error as LedgerError {
                        return JobContext.cliError(error)
                    } catch let error as TransportError {
                        return CLIError(.unavailable, "reader \(reader.name): \(error)")
                    } catch {
                        return CLIError(.ioError, "reader \(reader.name): \(error)")
                    }
                }
            }
            var first: CLIError?
            for await result in group where first == nil { first = result }
            return first
        }
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
