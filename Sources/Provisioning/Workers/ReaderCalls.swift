import NFCTags
import Support

/// The reader calls made between tags — poll and release — with host-link hiccups retried: the one retry
/// policy of every backend.
///
/// Shared by the line and audit workers and the one-tag commands (`TagWait`), so all ride out the same
/// transient reader failures (a checksum error on the host link, a NACK burst, a late reply, a wrong status
/// word to the UID read) and all stop on a reader that keeps failing (unplugged, its daemon gone) with the
/// last error.
struct ReaderCalls: Sendable {
    /// Tries of one call before the worker stops.
    static let attempts = 4

    let reader: any TagReader
    let settings: WorkerSettings
    /// The stop request (the operator's, or the run's when the job is complete): a wait for removal is cancelled.
    let stop: StopRequest
    /// Told the error of every failed try that will be tried again.
    let hiccup: @Sendable (String) -> Void

    /// Polls once (`TagReader.poll`) for `milliseconds` (default the settings' poll), retrying hiccups.
    func poll(milliseconds: Int? = nil) async throws -> FieldState {
        let timeout = milliseconds ?? settings.pollMilliseconds
        return try await tolerant { try await reader.poll(timeoutMilliseconds: timeout) }
    }

    /// Releases the tag and waits for it to leave, calling `prompt` each time it is still there; a stop request
    /// cancels the wait, and once one is made the tag is released (its session closed) without a wait.
    func remove(prompt: () -> Void) async throws {
        while true {
            if stop.isRequested {
                _ = try await release(waitingMilliseconds: 0)
                return
            }
            let gone: Bool
            do {
                gone = try await stop.interruptible { [self] in
                    try await release(waitingMilliseconds: settings.removalMilliseconds)
                }
            } catch _ where stop.isRequested {
                continue
            }
            if gone { return }
            prompt()
        }
    }

    /// One release (`TagReader.release`), retrying hiccups: whether the tag left within `waitingMilliseconds`.
    private func release(waitingMilliseconds: Int) async throws -> Bool {
        try await tolerant { try await reader.release(waitingForRemovalMilliseconds: waitingMilliseconds) }
    }

    /// Runs `body`, retrying a `.transport` or `.invalidResponse` failure up to `attempts` tries in all,
    /// with a short growing pause between tries.
    func tolerant<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await body()
            } catch let error as TransportError where error.isHostLinkHiccup && attempt < Self.attempts {
                attempt += 1
                hiccup("\(error)")
                try? await Task.sleep(for: .milliseconds(20 * attempt))
            }
        }
    }
}

extension TransportError {
    /// A reader failure that may pass if the call is made again: `.transport` and `.invalidResponse`.
    var isHostLinkHiccup: Bool {
        switch self {
        case .transport, .invalidResponse: true
        default: false
        }
    }
}
