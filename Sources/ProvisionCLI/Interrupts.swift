import Dispatch
import Foundation
import Support
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The SIGINTs seen, counted by the signal handler itself (an atomic add is async-signal-safe).
private let interruptCount = Atomic<Int>(0)
/// The write end of the self-pipe the handler wakes the command through (`-1`: not installed).
private let wakeDescriptor = Atomic<Int32>(-1)

/// SIGINT as `sigaction` delivers it: the first is passed on through the self-pipe; the second exits at once.
private func interruptHandler(_: Int32) {
    let seen = interruptCount.add(1, ordering: .relaxed).newValue
    if seen > 1 {
        let message: StaticString = "\ninterrupted again: stopping now\n"
        _ = write(STDERR_FILENO, message.utf8Start, message.utf8CodeUnitCount)
        _exit(130)
    }
    var byte: UInt8 = 1
    _ = write(wakeDescriptor.load(ordering: .relaxed), &byte, 1)
}

/// The one SIGINT handler (docs/style.md §11.10), installed by `ProvisionCLI.run` for every command that works on
/// tags: the first Ctrl-C makes the command's `StopRequest` (the tag in progress finishes, a wait for a tag
/// is cancelled, the command exits 130); a second one exits at once with status 130.
///
/// The handler is a plain `sigaction` one, in place when `install` returns: a dispatch signal source is
/// registered later on libdispatch's own thread, and a Ctrl-C in between (the command already prompting)
/// was lost. It only counts and writes a byte to a self-pipe; a reader of the pipe makes the request.
/// A command that serves until stopped (`emulate`) waits through `waitForTermination` instead.
final class Interrupts: @unchecked Sendable {
    // @unchecked: `pipe` and `reader` are only touched by `install` and `uninstall`, which the one task running
    // the command calls in order.
    private var pipe: (read: Int32, write: Int32)?
    private var reader: (any DispatchSourceRead)?

    /// Installs the handler; the first SIGINT makes `stop`.
    func install(stop: StopRequest) {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { return }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        pipe = (readEnd, writeEnd)
        interruptCount.store(0, ordering: .relaxed)
        wakeDescriptor.store(writeEnd, ordering: .relaxed)
        let source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: .global())
        source.setEventHandler { @Sendable in
            var byte: UInt8 = 0
            _ = read(readEnd, &byte, 1)
            FileHandle.standardError.write(
                Data("\ninterrupt: finishing the tag in progress, then stopping (Ctrl-C again to abort)\n".utf8))
            stop.request()
        }
        source.setCancelHandler { close(readEnd) }
        source.resume()
        reader = source
        var action = sigaction()
        action.__sigaction_handler.sa_handler = interruptHandler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(SIGINT, &action, nil)
    }

    /// Removes the handler, if installed, and restores the default SIGINT action.
    func uninstall() {
        guard let installed = pipe else { return }
        signal(SIGINT, SIG_DFL)
        wakeDescriptor.store(-1, ordering: .relaxed)
        reader?.cancel()  // its cancel handler closes the read end
        reader = nil
        close(installed.write)
        pipe = nil
    }
}

extension Interrupts {
    /// Serves until stopped, for a command with no tag in progress to finish (`emulate`): waits for the first
    /// SIGINT or SIGTERM, or for `event` to end by itself, whichever comes first.
    ///
    /// Both signals are held off their default action from the call on (a signal in between is not lost, and
    /// the caller shuts down cleanly after it); the command then returns as usual.
    /// - Returns: the signal number, or `nil` when `event` ended first.
    static func waitForTermination(or event: @escaping @Sendable () async -> Void) async -> Int32? {
        let (stream, continuation) = AsyncStream<Int32?>.makeStream()
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { @Sendable in continuation.yield(number) }
            source.resume()
            return source
        }
        let watcher = Task {
            await event()
            continuation.yield(nil)
        }
        var received: Int32?
        for await number in stream {
            received = number
            break
        }
        watcher.cancel()
        for source in sources { source.cancel() }
        return received
    }
}
