import Foundation
import Provisioning

/// The job a ledger command works on: a manifest, or a ledger file and a job name (`report`, `release`).
enum JobTarget: Sendable, Hashable {
    /// `MANIFEST`: the ledger and job name come from the manifest.
    case manifest(String)
    /// `--ledger FILE --job NAME`.
    case ledger(path: String, job: String)

    /// The target from `MANIFEST` or `--ledger FILE --job NAME`, at parse time.
    ///
    /// - Throws: `CLIError` 64 when neither is given.
    init(_ args: Arguments) throws(CLIError) {
        if let path = args.positionals.first {
            self = .manifest(path)
        } else if let ledger = args.value("ledger"), let job = args.value("job") {
            self = .ledger(path: ledger, job: job)
        } else {
            throw .usage(
                "give a MANIFEST, or --ledger FILE and --job NAME",
                option: args.value("ledger") == nil ? "ledger" : "job")
        }
    }

    /// The loaded job (`nil` for `--ledger`), its ledger file and its name.
    func resolve(
        context: CommandContext
    ) throws(CLIError) -> (job: JobContext?, ledgerURL: URL, name: String) {
        switch self {
        case .manifest(let path):
            let job = try JobContext.load(path, context: context)
            return (job, job.manifest.ledgerURL, job.manifest.job)
        case .ledger(let path, let name):
            return (nil, context.url(forPath: path), name)
        }
    }
}
