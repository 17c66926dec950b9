import Support

/// What riding out a ledger server outage reports to the operator.
public enum LedgerOutageNotice: Sendable, Equatable {
    /// The connection dropped (`detail`: the error's message): the caller pauses and reconnects.
    case lost(detail: String)
    /// The server answers again after `after` of pause: the caller carries on.
    case back(after: Duration)
}

/// The one policy for riding out a ledger server outage (a restart, a dropped connection): pause, reconnect
/// with a backoff (`Backoff`) from 0.5 s doubling to 10 s, carry on once the server answers (docs/stations.md,
/// "Failures").
///
/// The line worker rides out an outage between tags with it (`LineWorker+Outage`); `run` wraps its ledger calls
/// outside the workers (registration, the station's lease, the end-of-run report) in `retrying`. A file-backed
/// store never disconnects, so for SQLite none of this ever runs.
public struct LedgerOutage: Sendable {
    /// The first pause after the server went away.
    public static let firstPause = Duration.milliseconds(500)
    /// The longest pause between two reconnection tries.
    public static let longestPause = Duration.seconds(10)

    /// The first pause; each failed try doubles it, up to `longestPause`.
    public var firstPause: Duration
    /// The longest pause.
    public var longestPause: Duration

    /// The policy with the standard pauses (tests shorten them).
    public init(firstPause: Duration = Self.firstPause, longestPause: Duration = Self.longestPause) {
        self.firstPause = firstPause
        self.longestPause = longestPause
    }

    /// Pauses after `lost` while the server cannot be reached, calling `reconnect` after every pause until it
    /// succeeds; nothing else is sent meanwhile.
    ///
    /// - Parameters:
    ///   - deadline: give up (throwing `lost`) once it has passed; the last pause ends at it.
    ///   - stop: give up (throwing `lost`) as soon as the operator asks to stop; a pause ends at once.
    ///   - check: runs before every try and throws to give up otherwise (a station's lease that ran out).
    /// - Returns: how long the outage lasted.
    /// - Throws: `lost`; what `check` throws; a reconnection error other than `.disconnected` (the schema changed
    ///   meanwhile); cancellation.
    public func rideOut(
        _ lost: LedgerError, deadline: ContinuousClock.Instant? = nil, stop: StopRequest? = nil,
        check: () throws -> Void = {}, reconnect: () async throws(LedgerError) -> Void
    ) async throws -> Duration {
        let backoff = Backoff(firstPause: firstPause, longestPause: longestPause)
        let end = try await backoff.wait(
            deadline: { deadline }, stop: stop,
            attempt: {
                try check()
                do throws(LedgerError) {
                    try await reconnect()
                    return true
                } catch {
                    guard error.code == .disconnected else { throw error }
                    return false
                }
            })
        guard case .back(let after) = end else { throw lost }
        return after
    }

    /// Runs `step`; when it fails with `.disconnected`, rides out the outage (`notify` hears of the loss and of
    /// the return) and runs it again. Any other error is thrown at once.
    ///
    /// `step` must be safe to run again after an answer that was lost: idempotent, or one transaction.
    /// - Parameters:
    ///   - limit: how long the pauses may last in all, over every outage of this step (`nil`: no limit).
    ///   - stop, check, reconnect: as for `rideOut`.
    /// - Throws: the error that lost the connection, once `limit` has passed or `stop` is requested; what `step`,
    ///   `check` or `reconnect` throw otherwise.
    public func retrying<T>(
        limit: Duration? = nil, stop: StopRequest? = nil, check: () throws -> Void = {},
        reconnect: () async throws(LedgerError) -> Void, notify: (LedgerOutageNotice) -> Void,
        _ step: () async throws -> T
    ) async throws -> T {
        var left = limit
        while true {
            do {
                return try await step()
            } catch let lost as LedgerError where lost.code == .disconnected {
                notify(.lost(detail: lost.message))
                let deadline = left.map { ContinuousClock.now + $0 }
                let after = try await rideOut(lost, deadline: deadline, stop: stop, check: check, reconnect: reconnect)
                left = left.map { $0 - after }
                notify(.back(after: after))
            }
        }
    }
}
