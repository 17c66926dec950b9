import Dispatch
import Foundation
import Support
import Synchronization

/// The one SIGINT handler (STYLE.md §11.10), installed by `ProvisionCLI.run` for every command that works on
/// tags: the first Ctrl-C makes the command's `StopRequest` (the tag in progress finishes, a wait for a tag
/// is cancelled, the command exits 130); a second one exits at once with status 130.
final class Interrupts: @unchecked Sendable {
    // @unchecked: `count` is atomic; `source` is only touched by `install` and `uninstall`, which the
    // one task running the command calls in order.
    private let count = Atomic<Int>(0)
    private var source: (any DispatchSourceSignal)?

    /// Installs the handler; the first SIGINT makes `stop`.
    func install(stop: StopRequest) {
        signal(SIGINT, SIG_IGN)
        let signalSource = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        signalSource.setEventHandler { @Sendable [self] in
            let seen = self.count.add(1, ordering: .relaxed).newValue
            if seen > 1 {
                FileHandle.standardError.write(Data("\ninterrupted again: stopping now\n".utf8))
                _exit(130)
            }
            FileHandle.standardError.write(
                Data("\ninterrupt: finishing the tag in progress, then stopping (Ctrl-C again to abort)\n".utf8))
            stop.request()
        }
        signalSource.resume()
        source = signalSource
    }

    /// Removes the handler, if installed, and restores the default SIGINT action.
    func uninstall() {
        guard let installed = source else { return }
        installed.cancel()
        source = nil
        signal(SIGINT, SIG_DFL)
    }
}
