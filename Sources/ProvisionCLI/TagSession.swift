import Foundation
import NDEF
import NFCTags
import Provisioning
import Support

/// One tag on one reader, from arrival to release: the wait/identify/release steps shared by every
/// command that works on a tag (`inspect`, `write`, `lock`; later `run` and `audit`).
///
/// Typical use:
///
/// ```swift
/// let reader = try await TagSession.openReader(spec: args.value("reader"))
/// let report = try await TagSession.withTag(on: reader, timeout: .seconds(30), context: context) { session in
///     try await session.tag.withType2Tag { tag in try tag.readNDEF() }
/// }
/// ```
struct TagSession: Sendable {
    /// The reader holding the tag.
    let reader: any TagReader
    /// What anticollision reported (UID, ATQA, SAK).
    let detected: DetectedTag
    /// The tag, identified once (GET_VERSION `60`, generic fallback).
    let tag: ReaderNDEFTag
    /// What identification cost (exchanges, modelled airtime, wall time).
    let identifyCost: PhaseCost

    /// The identification result.
    var identity: Type2Identity { tag.identity ?? Type2Identity(chip: nil, genericReason: "not identified") }

    /// The UID as compact upper-case hex (`04A1B2C3D4E5F6`).
    var uidHex: String { Hex.compact(detected.uid) }

    /// Opens exactly one reader from `spec` (default `ReaderFactory.defaultSpec`).
    ///
    /// - Throws: `CLIError` 64 for a bad spec or one naming several readers, 69 when unavailable.
    static func openReader(spec: String?) async throws(CLIError) -> any TagReader {
        let text = spec ?? ReaderFactory.defaultSpec
        let readers = try await ReaderFactory.open([text])
        guard readers.count == 1, let reader = readers.first else {
            throw .usage("reader '\(text)' names \(readers.count) readers; this command uses exactly one")
        }
        return reader
    }

    /// Polls until one tag is selected, prompting the operator; extra tags in the field are reported
    /// and polling continues.
    ///
    /// - Throws: `CLIError` 69 when no tag arrives within `timeout`, the population is exhausted, or
    ///   the reader fails; `CancellationError` when the task is cancelled.
    static func waitForTag(
        on reader: any TagReader, timeout: Duration, prompt: @Sendable (String) -> Void
    ) async throws -> DetectedTag {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var prompted = false
        while true {
            try Task.checkCancellation()
            let left = deadline - clock.now
            let sliceMilliseconds = max(1, min(250, left.wholeMilliseconds))
            let started = clock.now
            let state: FieldState
            do {
                state = try await reader.poll(timeoutMilliseconds: sliceMilliseconds)
            } catch {
                throw CLIError(.unavailable, "reader \(reader.name): \(error)")
            }
            switch state {
            case .tag(let detected):
                return detected
            case .exhausted:
                throw CLIError(
                    .unavailable, "reader \(reader.name): no more tags will arrive (the population is used up)")
            case .multipleTags(let count):
                prompt("\(count) tags in the field of \(reader.name): remove the extra tags")
            case .empty:
                if !prompted {
                    prompt("place a tag on \(reader.name)")
                    prompted = true
                }
            }
            if clock.now >= deadline {
                throw CLIError(
                    .unavailable,
                    "no tag on \(reader.name) within \(Self.seconds(timeout)) s (use --timeout to wait longer)")
            }
            // Readers that answer an empty poll at once must not turn this loop into a busy wait.
            let spent = clock.now - started
            if spent < .milliseconds(sliceMilliseconds) {
                try await Task.sleep(for: min(.milliseconds(sliceMilliseconds) - spent, deadline - clock.now))
            }
        }
    }

    /// Waits for one tag, identifies it, runs `body`, and releases the tag whatever `body` did.
    ///
    /// - Parameters:
    ///   - reader: the reader to poll.
    ///   - timeout: how long to wait for the tag to arrive.
    ///   - context: where operator prompts go (stderr).
    ///   - removalWaitMilliseconds: how long `release` waits for the tag to leave (0: do not wait).
    ///   - identify: whether to identify first (GET_VERSION `60`); `false` when `body` runs the tag
    ///     pipeline, which identifies the tag itself.
    ///   - body: the work on the tag.
    /// - Returns: what `body` returned.
    /// - Throws: `CLIError` 69 (no tag), 74 (release failed), 1 for a tag failure (`classified(_:)`),
    ///   or whatever else `body` throws.
    static func withTag<Result: Sendable>(
        on reader: any TagReader, timeout: Duration, context: CommandContext, removalWaitMilliseconds: Int = 0,
        identify: Bool = true, _ body: (TagSession) async throws -> Result
    ) async throws -> Result {
        let err = context.err
        let detected = try await waitForTag(on: reader, timeout: timeout) { err.line("» \($0)") }
        let result: Result
        do {
            let (identity, cost) = try await reader.withTransceiver { transceiver in
                let type2 = Type2Tag(transceiver: transceiver)
                guard identify else { return (Type2Identity?.none, PhaseCost(name: "identify")) }
                let meter = PhaseMeter(type2)
                let identity = try meter.run("identify") { try type2.identify() }
                return (identity, meter.phases.last ?? PhaseCost(name: "identify"))
            }
            let tag = ReaderNDEFTag(reader: reader, identifier: detected.uid, identity: identity)
            result = try await body(TagSession(reader: reader, detected: detected, tag: tag, identifyCost: cost))
        } catch {
            _ = try? await reader.release(waitingForRemovalMilliseconds: removalWaitMilliseconds)
            throw Self.classified(error)
        }
        do {
            _ = try await reader.release(waitingForRemovalMilliseconds: removalWaitMilliseconds)
        } catch {
            throw CLIError(.ioError, "reader \(reader.name): releasing the tag failed: \(error)")
        }
        return result
    }

    /// A tag or transport failure as the CLI reports it: exit 1 and `class: message`.
    ///
    /// The class is a `FailureClass` name from `CycleFailure` (`tagLost: tag left the field`); other
    /// errors are unchanged.
    static func classified(_ error: any Error, phase: Phase = .identify) -> any Error {
        guard error is TransportError || error is Type2Error else { return error }
        let failure = CycleFailure(classifying: error, phase: phase)
        return CLIError(.failure, "\(failure.failureClass.rawValue): \(failure.detail)")
    }

    /// Parses `--timeout SECONDS` (default `defaultSeconds`) into a duration.
    static func timeout(_ args: Arguments, defaultSeconds: Double = 30) throws(CLIError) -> Duration {
        guard let text = args.value("timeout") else { return .milliseconds(Int(defaultSeconds * 1000)) }
        guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else {
            throw .usage("option '--timeout' needs seconds in (0, 86400], got '\(text)'")
        }
        return .milliseconds(Int((seconds * 1000).rounded()))
    }

    /// `duration` in seconds for messages: whole when it is, else to the millisecond.
    static func seconds(_ duration: Duration) -> String {
        let ms = duration.wholeMilliseconds
        return ms % 1000 == 0 ? "\(ms / 1000)" : String(format: "%.3f", Double(ms) / 1000)
    }
}
