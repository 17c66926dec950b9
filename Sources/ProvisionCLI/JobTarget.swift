import Foundation
import Ledger
import Provisioning

/// The job a ledger command works on: a manifest (its ledger, or `--ledger`), or a ledger and a job name
/// (`report`, `release`, `status`).
enum JobTarget: Sendable, Hashable {
    /// `MANIFEST [--ledger FILE|URI]`: the job name, and the ledger unless given, come from the manifest.
    case manifest(String, ledger: String?)
    /// `--ledger FILE|URI --job NAME`.
    case ledger(path: String, job: String)

    /// The target from `MANIFEST` or `--ledger FILE|URI --job NAME`, at parse time.
    ///
    /// - Throws: `CLIError` 64 when neither is given.
    init(_ args: Arguments) throws(CLIError) {
        if let path = args.positionals.first {
            self = .manifest(path, ledger: args.value("ledger"))
        } else if let ledger = args.value("ledger"), let job = args.value("job") {
            self = .ledger(path: ledger, job: job)
        } else {
            throw .usage(
                "give a MANIFEST, or --ledger FILE|URI and --job NAME",
                option: args.value("ledger") == nil ? "ledger" : "job")
        }
    }

    /// The loaded job (`nil` for `--ledger --job`), its ledger and its name.
    func resolve(
        context: CommandContext
    ) throws(CLIError) -> (job: JobContext?, ledger: LedgerLocation, name: String) {
        switch self {
        case .manifest(let path, let ledger):
            let job = try JobContext.load(path, context: context)
            let location = try LedgerChoice(ledger: ledger).location(for: job.manifest, context: context)
            return (job, location, job.manifest.job)
        case .ledger(let path, let name):
            return (nil, try LedgerChoice(ledger: path).location(for: nil, context: context), name)
        }
    }
}
