import NFCTags

/// The reader calls a worker makes between tags — poll and release — with host-link hiccups retried.
///
/// Shared by the line and the audit workers, so both ride out the same transient reader failures (a
/// checksum error on the host link, a NACK burst, a late reply, a wrong status word to the UID read)
/// and both stop on a reader that keeps failing (unplugged, its daemon gone) with the last error.
struct ReaderCalls: Sendable {
    /// Tries of one call before the worker stops.
    static let attempts = 4

    let reader: any TagReader
    let settings: WorkerSettings
    let shouldStop: @Sendable () -> Bool
    /// Told the error of every failed try that will be tried again.
    let hiccup: @Sendable (String) -> Void

    /// Polls once (`TagReader.poll`), retrying hiccups.
    func poll() async throws -> FieldState {
        try await tolerant { try await reader.poll(timeoutMilliseconds: settings.pollMilliseconds) }
    }

    /// Releases the tag and waits for it to leave, calling `prompt` each time it is still there.
    func remove(prompt: () -> Void) async throws {
        while true {
            let gone = try await tolerant {
                try await reader.release(waitingForRemovalMilliseconds: settings.removalMilliseconds)
            }
            if gone || shouldStop() { return }
            prompt()
        }
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
