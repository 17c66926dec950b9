import NFCTags
import Support
import Synchronization
import Testing

@testable import Provisioning

/// A reader whose field goes through `script` (answered at once), then stays empty: each later poll waits
/// its whole timeout unless cancelled. It holds no tag to work on.
private actor ScriptedFieldReader: TagReader {
    nonisolated let name = "scripted"
    nonisolated var capabilities: ReaderCapabilities { ReaderCapabilities(rawCommands: false, notes: []) }
    private var script: [FieldState]
    private let endless: FieldState?
    private(set) var polls = 0

    /// `endless`: answered at once once the script is used up, instead of a waiting empty field.
    init(_ script: [FieldState], endless: FieldState? = nil) {
        self.script = script
        self.endless = endless
    }

    func poll(timeoutMilliseconds: Int) async throws(TransportError) -> FieldState {
        polls += 1
        if !script.isEmpty { return script.removeFirst() }
        if let endless { return endless }
        try? await Task.sleep(for: .milliseconds(timeoutMilliseconds))
        return .empty
    }

    func withTransceiver<Result: Sendable>(_ body: @Sendable (any Transceiver) throws -> Result) async throws -> Result
    {
        throw TransportError.tagLost
    }

    func release(waitingForRemovalMilliseconds timeoutMilliseconds: Int) async throws(TransportError) -> Bool { true }
}

/// What a wait asked of the operator.
private final class Prompts: Sendable {
    private let seen = Mutex<[TagWait.Prompt]>([])
    func add(_ prompt: TagWait.Prompt) { seen.withLock { $0.append(prompt) } }
    var all: [TagWait.Prompt] { seen.withLock { $0 } }
}

/// The one detect loop (`TagWait`): prompts, idle limit, exhaustion, stop requests, no busy loop.
@Suite struct TagWaitTests {
    private static let tag = DetectedTag(uid: [0x04, 1, 2, 3, 4, 5, 6], atqa: 0x0044, sak: 0x00)

    private static func wait(
        _ reader: any TagReader, stop: StopRequest = StopRequest(), idle: Duration? = nil, poll: Int = 50
    ) -> TagWait {
        TagWait(reader: reader, stop: stop, idleLimit: idle, pollMilliseconds: poll) { _ in }
    }

    @Test func promptsOnceForAnEmptyFieldAndAgainAfterExtraTags() async throws {
        let reader = ScriptedFieldReader([.empty, .empty, .multipleTags(count: 2), .empty, .tag(Self.tag)])
        let prompts = Prompts()
        let end = try await Self.wait(reader, poll: 1).next(idleSince: .now) { prompts.add($0) }
        guard case .tag(let detected) = end else {
            Issue.record("expected the tag, got \(end)")
            return
        }
        #expect(detected.uid == Self.tag.uid)
        #expect(prompts.all == [.placeTag, .removeExtraTags(2), .placeTag])
        #expect(await reader.polls == 5)
    }

    @Test func anExhaustedReaderEndsTheWait() async throws {
        let end = try await Self.wait(ScriptedFieldReader([.empty, .exhausted])).next(idleSince: .now) { _ in }
        guard case .exhausted = end else {
            Issue.record("expected exhausted, got \(end)")
            return
        }
    }

    @Test func theIdleLimitEndsAnEmptyWait() async throws {
        let started = ContinuousClock.now
        let end = try await Self.wait(ScriptedFieldReader([]), idle: .milliseconds(300)).next(idleSince: started) {
            _ in
        }
        guard case .idle = end else {
            Issue.record("expected idle, got \(end)")
            return
        }
        #expect(ContinuousClock.now - started >= .milliseconds(300))
    }

    @Test func aReaderThatAnswersAtOnceIsNotPolledInABusyLoop() async throws {
        let reader = ScriptedFieldReader([], endless: .multipleTags(count: 3))
        let end = try await Self.wait(reader, idle: .milliseconds(500), poll: 100).next(idleSince: .now) { _ in }
        guard case .idle = end else {
            Issue.record("expected idle, got \(end)")
            return
        }
        // Half a second in 100 ms slices: a handful of polls, not thousands.
        #expect(await reader.polls <= 10)
    }

    @Test func aStopRequestMadeBeforehandPollsNothing() async throws {
        let reader = ScriptedFieldReader([.tag(Self.tag)])
        let stop = StopRequest()
        stop.request()
        let end = try await Self.wait(reader, stop: stop).next(idleSince: .now) { _ in }
        guard case .stopRequested = end else {
            Issue.record("expected stopRequested, got \(end)")
            return
        }
        #expect(await reader.polls == 0)
    }

    @Test func aStopRequestCancelsTheWaitOnAnEmptyField() async throws {
        // Each empty poll, and the pause between polls, would last ten minutes: only cancellation ends them.
        let reader = ScriptedFieldReader([.empty])
        let stop = StopRequest()
        let prompts = Prompts()
        let waiting = Task {
            try await Self.wait(reader, stop: stop, poll: 600_000).next(idleSince: .now) { prompts.add($0) }
        }
        while prompts.all.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(50))
        stop.request()
        guard case .stopRequested = try await waiting.value else {
            Issue.record("expected stopRequested")
            return
        }
        #expect(prompts.all == [.placeTag])
        #expect(await reader.polls <= 2)
    }
}
