import Foundation
import Provisioning

extension ServeCommand {
    /// Reloads the manifests and their keys on every SIGHUP while `body` runs, one reload at a time: a reload that
    /// succeeds replaces the jobs served from the next request on; one that fails (a bad manifest, a key that cannot
    /// be read) leaves the jobs served as they were and says why on stderr.
    func reloadingOnHangUp<T>(
        _ api: ServeAPI, context: CommandContext, _ body: () async throws -> T
    ) async rethrows -> T {
        let (hangUps, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        source.setEventHandler { @Sendable in continuation.yield() }
        source.resume()
        let diagnostics = context.output.diagnostics
        let reloader = Task {
            for await _ in hangUps {
                do {
                    let (jobs, files) = try await loadJobs(context: context)
                    api.replace(TapService(jobs: jobs), ledgerFiles: files)
                    let names = jobs.map(\.verifier.job).joined(separator: ", ")
                    diagnostics.line("serve: reloaded on SIGHUP: serving job\(jobs.count == 1 ? "" : "s") \(names)")
                } catch {
                    let message = (error as? CLIError)?.message ?? "\(error)"
                    diagnostics.line(
                        "serve: reload on SIGHUP refused, still serving the jobs loaded before: \(message)")
                }
            }
        }
        defer {
            source.cancel()
            continuation.finish()
            reloader.cancel()
        }
        return try await body()
    }
}
