import NFCTags
import Support

/// The one detect loop of every command that works on tags (`run`, `audit`, `write`, `lock`, `inspect`):
/// polls until one tag is selected, prompting the operator, and otherwise says why it ended.
public struct TagWait: Sendable {
    /// How a wait ended.
    public enum End: Sendable {
        /// One tag is selected.
        case tag(DetectedTag)
        /// The reader will present no more tags (a simulated population is used up).
        case exhausted
        /// No tag arrived within the idle limit.
        case idle
        /// The operator asked to stop (`StopRequest`).
        case stopRequested
    }

    /// What the loop asks of the operator.
    public enum Prompt: Sendable, Hashable {
        /// The field is empty (told once per wait, and again after extra tags were seen).
        case placeTag
        /// Several tags are in the field.
        case removeExtraTags(Int)
    }

    let calls: ReaderCalls
    /// Give up after this long without a tag (`nil`: wait for ever).
    let idleLimit: Duration?

    /// A wait on `calls`' reader; it ends `.idle` after `idleLimit` without a tag.
    init(calls: ReaderCalls, idleLimit: Duration?) {
        self.calls = calls
        self.idleLimit = idleLimit
    }

    /// A wait on `reader` with `ReaderCalls`' retry policy, polling in `pollMilliseconds` slices.
    public init(
        reader: any TagReader, stop: StopRequest, idleLimit: Duration?, pollMilliseconds: Int = 200,
        hiccup: @escaping @Sendable (String) -> Void
    ) {
        let settings = WorkerSettings(pollMilliseconds: pollMilliseconds)
        self.init(
            calls: ReaderCalls(reader: reader, settings: settings, stop: stop, hiccup: hiccup), idleLimit: idleLimit)
    }

    /// Polls until a tag is selected, the reader is exhausted, `idleLimit` has passed since `idleSince`, or a
    /// stop is requested; a poll that waits on an empty field is cancelled by the stop request.
    ///
    /// - Parameter prompt: told what to ask of the operator (awaited: the line makes its last commit durable
    ///   before it asks for the next tag).
    /// - Throws: the reader's failure once `ReaderCalls` gave up, or `prompt`'s error.
    public func next(
        idleSince: ContinuousClock.Instant, prompt: (Prompt) async throws -> Void
    ) async throws -> End {
        let clock = ContinuousClock()
        let stop = calls.stop
        let slice = Duration.milliseconds(calls.settings.pollMilliseconds)
        var prompted = false
        var waiting = false
        while !stop.isRequested {
            let polled = clock.now
            let milliseconds = idleLimit.map {
                max(1, min(calls.settings.pollMilliseconds, ($0 - (polled - idleSince)).wholeMilliseconds))
            }
            let state: FieldState
            if waiting {
                // Only a wait on an empty field is interruptible: the first poll usually finds the next tag
                // at once, and needs no child task.
                do {
                    state = try await stop.interruptible { [calls] in try await calls.poll(milliseconds: milliseconds) }
                } catch _ where stop.isRequested {
                    return .stopRequested
                }
            } else {
                state = try await calls.poll(milliseconds: milliseconds)
            }
            switch state {
            case .tag(let detected):
                return .tag(detected)
            case .exhausted:
                return .exhausted
            case .multipleTags(let count):
                try await prompt(.removeExtraTags(count))
                prompted = false
            case .empty:
                if !prompted { try await prompt(.placeTag) }
                prompted = true
            }
            waiting = true
            if let idleLimit, clock.now - idleSince >= idleLimit { return .idle }
            // A reader that answers at once (extra tags, some empty fields) must not make this a busy loop.
            let spent = clock.now - polled
            if spent < slice, !stop.isRequested {
                let pause = min(slice - spent, idleLimit.map { $0 - (clock.now - idleSince) } ?? slice)
                _ = try? await stop.interruptible { try await Task.sleep(for: pause) }
            }
        }
        return .stopRequested
    }
}
