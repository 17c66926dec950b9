import Foundation
import Ledger
import Provisioning

/// `provision release`: the operator hands a claimed (or failed/burned) row back to the job.
struct ReleaseCommand: Command {
    static let name = "release"
    static let summary = "give a claimed, failed or burned row back to the job (recorded)"
    static let help = """
        Usage: provision release MANIFEST --row N [--by NAME] [--note TEXT]
               provision release --ledger FILE --job NAME --row N [--by NAME] [--note TEXT]

        A row claimed by a tag that never came back stays with that tag's UID so a partial write is
        never issued twice. When the tag is lost for good (destroyed, scrapped), release the row: it
        goes back to pending and the next tag gets it. The release is recorded in the ledger's
        events with who did it (--by, default $USER) and why (--note). Done rows cannot be released.

        Example: provision release jobs/batch.json --row 17 --by alice --note "tag crushed in feeder"

        """

    static func run(_ arguments: [String], context: CommandContext) async throws -> ExitCode {
        let args = try Arguments(arguments, flags: [], options: ["ledger", "job", "row", "by", "note"])
        try args.requirePositionals(0...1, usage: "provision release MANIFEST --row N")
        guard let row = try args.integer("row", in: 1...Int.max) else { throw CLIError.usage("missing --row N") }
        let ledgerURL: URL
        let jobName: String
        if let path = args.positionals.first {
            let job = try JobContext.load(path, context: context)
            ledgerURL = job.manifest.ledgerURL
            jobName = job.manifest.job
        } else {
            guard let ledger = args.value("ledger"), let job = args.value("job") else {
                throw CLIError.usage("give a MANIFEST, or --ledger FILE and --job NAME")
            }
            ledgerURL = context.url(forPath: ledger)
            jobName = job
        }
        let by = args.value("by") ?? context.environment["USER"] ?? "operator"
        let ledger = try await JobContext.openLedger(at: ledgerURL, create: false, notes: context.err)
        do {
            try await ledger.release(job: jobName, row: row, by: by, note: args.value("note"))
        } catch {
            throw JobContext.cliError(error)
        }
        context.out.line("row \(row) of job \(jobName) released by \(by); it is pending again")
        return .success
    }
}
