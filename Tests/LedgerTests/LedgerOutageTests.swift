import Support
import Testing

@testable import Ledger

/// The one outage policy: only a dropped connection is ridden out, the step runs again once the server answers,
/// and the wait is bounded (a limit over every outage of the step, the operator's stop) with the original error.
@Suite struct LedgerOutageTests {
    /// Short pauses, so a test waits milliseconds where a station waits seconds.
    private let policy = LedgerOutage(firstPause: .milliseconds(10), longestPause: .milliseconds(40))

    /// Counts calls and notices across the non-escaping closures of one test.
    private final class Tally {
        var steps = 0
        var tries = 0
        var notices: [String] = []

        func note(_ notice: LedgerOutageNotice) {
            switch notice {
            case .lost(let detail): notices.append("lost: \(detail)")
            case .back: notices.append("back")
            }
        }
    }

    /// `policy.retrying` with `tally` counting tries and notices; reconnecting fails for the first `awayFor` tries.
    private func retry<T>(
        _ policy: LedgerOutage? = nil, limit: Duration, stop: StopRequest? = nil, tally: Tally, awayFor: Int = 0,
        step: () async throws -> T
    ) async throws -> T {
        try await (policy ?? self.policy).retrying(
            limit: limit, stop: stop,
            reconnect: { () async throws(LedgerError) in
                tally.tries += 1
                if tally.tries <= awayFor { throw LedgerError(.disconnected, "cannot reach the server") }
            },
            notify: tally.note, step)
    }

    @Test func onlyADroppedConnectionIsRetried() async throws {
        let tally = Tally()
        let error = try await #require(throws: LedgerError.self) {
            try await retry(limit: .seconds(5), tally: tally) {
                tally.steps += 1
                throw LedgerError(.busy, "locked")
            }
        }
        #expect(error.code == .busy && error.message == "locked")
        #expect(tally.steps == 1 && tally.tries == 0 && tally.notices.isEmpty)
    }

    @Test func aDroppedConnectionIsRiddenOutAndTheStepRunsAgain() async throws {
        let tally = Tally()
        // The server is still away at the first try after the first drop. The limit is far off: a loaded machine
        // may starve the pauses for seconds, and this test is about the retries, not the limit.
        let result = try await retry(limit: .seconds(600), tally: tally, awayFor: 1) {
            tally.steps += 1
            if tally.steps < 3 { throw LedgerError(.disconnected, "drop \(tally.steps)") }
            return 42
        }
        #expect(result == 42)
        #expect(tally.steps == 3 && tally.tries == 3, "steps \(tally.steps), tries \(tally.tries)")
        #expect(tally.notices == ["lost: drop 1", "back", "lost: drop 2", "back"])
    }

    @Test func aServerThatStaysAwayIsGivenUpAfterTheLimitWithTheOriginalError() async throws {
        let tally = Tally()
        let clock = ContinuousClock()
        let started = clock.now
        let error = try await #require(throws: LedgerError.self) {
            try await retry(limit: .milliseconds(200), tally: tally, awayFor: .max) {
                tally.steps += 1
                throw LedgerError(.disconnected, "lost the connection")
            }
        }
        let waited = clock.now - started
        #expect(error.code == .disconnected && error.message == "lost the connection", "\(error)")
        // Pauses of 10, 20, 40, 40… ms, the last one cut to end at the limit (a loaded machine sleeps longer).
        #expect(waited >= .milliseconds(200) && waited < .seconds(300), "waited \(waited)")
        #expect(tally.steps == 1 && tally.tries >= 1 && tally.notices == ["lost: lost the connection"])
    }

    @Test func aConnectionThatKeepsDroppingIsGivenUpOnceItsPausesReachTheLimit() async throws {
        let tally = Tally()
        let error = try await #require(throws: LedgerError.self) {
            try await retry(limit: .milliseconds(100), tally: tally) {
                tally.steps += 1
                throw LedgerError(.disconnected, "drop \(tally.steps)")
            }
        }
        // Every reconnection works but the step drops again: each outage takes at least 10 ms of the 100 ms.
        #expect(error.code == .disconnected && tally.steps > 1 && tally.steps <= 11, "\(tally.steps) steps")
        #expect(error.message == "drop \(tally.steps)", "the error of the drop that used up the limit")
    }

    /// The pause is an hour: only the stop can end it (the time limit fails the test otherwise).
    @Test(.timeLimit(.minutes(2))) func aStopRequestEndsThePauseAtOnceWithTheOriginalError() async throws {
        let slow = LedgerOutage(firstPause: .seconds(3600), longestPause: .seconds(3600))
        let stop = StopRequest()
        let tally = Tally()
        let clock = ContinuousClock()
        let started = clock.now
        let operatorStops = Task {
            try await Task.sleep(for: .milliseconds(50))
            stop.request()
        }
        let error = try await #require(throws: LedgerError.self) {
            try await retry(slow, limit: .seconds(7200), stop: stop, tally: tally) {
                tally.steps += 1
                throw LedgerError(.disconnected, "lost the connection")
            }
        }
        try await operatorStops.value
        #expect(error.message == "lost the connection" && tally.tries == 0 && tally.steps == 1)
        #expect(clock.now - started < .seconds(3600), "the hour's pause ended at the stop")
    }

    @Test func aCheckThatThrowsOrAReconnectionRefusedOtherwiseEndsTheWait() async throws {
        let lost = LedgerError(.disconnected, "lost the connection")
        let lease = try await #require(throws: LedgerError.self) {
            _ = try await policy.rideOut(
                lost, check: { throw LedgerError(.leaseLost, "lease ran out") },
                reconnect: { () async throws(LedgerError) in })
        }
        #expect(lease.code == .leaseLost)
        let schema = try await #require(throws: LedgerError.self) {
            _ = try await policy.rideOut(
                lost, reconnect: { () async throws(LedgerError) in throw LedgerError(.schemaTooNew, "newer") })
        }
        #expect(schema.code == .schemaTooNew)
        let after = try await policy.rideOut(lost, reconnect: { () async throws(LedgerError) in })
        #expect(after >= .milliseconds(10), "one pause before the first try")
    }
}
