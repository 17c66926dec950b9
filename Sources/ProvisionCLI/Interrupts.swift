import Dispatch
import Foundation
import Synchronization

/// The SIGINT policy of `run` and `audit` (STYLE.md §11.10): the first Ctrl-C asks the work to stop
/// between tags (the tag in progress finishes safely); a second one exits at once with status 130.
final class Interrupts: @unchecked Sendable {
    // @unchecked: `count` is atomic; `source` is only touched by `install` and `uninstall`, which the
    // one task running the command calls in order.
    private let count = Atomic<Int>(0)
    private var source: (any DispatchSourceSignal)?

    /// Whether a stop between tags was requested.
    var stopRequested: Bool { count.load(ordering: .relaxed) > 0 }

    /// Installs the handler; `onFirst` runs once on the first SIGINT (e.g. to cancel a poll).
    func install(onFirst: @escaping @Sendable () -> Void) {
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
            onFirst()
        }
        signalSource.resume()
        source = signalSource
    }

    /// Removes the handler and restores the default SIGINT action.
    func uninstall() {
        source?.cancel()
        source = nil
        signal(SIGINT, SIG_DFL)
    }
}
