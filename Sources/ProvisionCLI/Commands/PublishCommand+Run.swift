import Foundation
import Ledger
import MQTTService
import Publishing
import Reports

/// One `provision publish` at work: connects, drains (or follows) the outbox, reports the broker's outages, and
/// ends with the retained `offline` status and a count of what was published and what is left.
struct PublishRun: Sendable {
    /// The `--json` result document (docs/json.md, version 2).
    struct Document: Encodable, Sendable {
        var version = JSONDocument.version
        var job: String
        var broker: String
        var published: Int
        var left: Int
    }

    let publisher: OutboxPublisher
    let ledger: any LedgerStore
    let job: String
    let broker: String
    let output: Output

    /// Publishes until the outbox is empty (or, with `follow`, until SIGINT or SIGTERM) and reports.
    ///
    /// - Throws: `CLIError` 77 (credentials refused), 69 (no broker, or nothing acknowledged for a while,
    ///   without `follow`).
    func publish(follow: Bool, json: Bool) async throws -> ExitCode {
        do {
            try await publisher.start()
        } catch {
            if error.code == .notAuthorized {
                throw PublishOptions.credentialsRefused(by: broker, error)
            }
            guard follow else {
                await publisher.stop()
                let left = (try? await ledger.outboxBacklog(job: job)).map(String.init) ?? "the"
                throw CLIError(
                    .unavailable,
                    "cannot publish to \(broker): \(error.message); \(left) events of job '\(job)' stay in the "
                        + "outbox (run again once the broker answers, or use --follow)",
                    errorClass: "brokerUnavailable")
            }
            output.diagnostics.line(
                "warning: cannot reach the broker \(broker) (\(error.message)); events wait in the outbox and "
                    + "are published once it answers")
        }
        let notices = Task { [publisher, output, broker] in
            for await notice in publisher.notices {
                switch notice {
                case .brokerDown(let why):
                    output.diagnostics.line(
                        "warning: the broker \(broker) is away (\(why)); events wait in the outbox")
                case .brokerBack: output.diagnostics.line("note: the broker \(broker) is back")
                }
            }
        }
        defer { notices.cancel() }
        var stalled = false
        if follow {
            _ = await Interrupts.waitForTermination {
                while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            }
        } else {
            stalled = await drain()
        }
        let published = await publisher.published
        let left = await publisher.drain(within: .zero)
        await publisher.stop()
        if stalled {
            throw CLIError(
                .unavailable,
                "the broker \(broker) acknowledged nothing for \(PublishCommand.stallLimit); published \(published) "
                    + "events, \(left) of job '\(job)' stay in the outbox", errorClass: "brokerUnavailable")
        }
        if json {
            try output.document(Document(job: job, broker: broker, published: published, left: left))
        } else {
            output.line("published \(published) events of job '\(job)' to \(broker); \(left) left in the outbox")
        }
        return .success
    }

    /// Drains until the outbox is empty; returns `true` when the broker acknowledged nothing for
    /// `PublishCommand.stallLimit` while events were left.
    private func drain() async -> Bool {
        while true {
            let before = await publisher.published
            let left = await publisher.drain(within: PublishCommand.stallLimit)
            if left == 0 { return false }
            if await publisher.published == before { return true }
        }
    }
}
