import Foundation
import NDEF
import NFCTags
import Provisioning
import Support

/// One tag on one reader, from arrival to release: the wait/identify/release steps shared by the one-tag
/// commands (`inspect`, `write`, `lock`). The wait is the workers' own detect loop (`TagWait`).
///
/// Typical use:
///
/// ```swift
/// let reader = try await TagSession.openReader(spec: readerSpec)
/// let report = try await TagSession.withTag(on: reader, timeout: .seconds(30), context: context) { session in
///     try await reader.withTransceiver { try families.open($0, activation: session.detected).readNDEF() }
/// }
/// ```
struct TagSession: Sendable {
    /// The reader holding the tag.
    let reader: any TagReader
    /// What anticollision reported (UID, ATQA, SAK).
    let detected: DetectedTag
    /// The chip its family identified (`nil`: not identified, or a generic tag of the family).
    let chip: TagChip?
    /// The family's name for the tag (`type2`), `nil` when it was not identified.
    let family: String?
    /// What identification cost (exchanges, modelled airtime, wall time).
    let identifyCost: PhaseCost

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

    /// Polls until one tag is selected (`TagWait`), prompting the operator; extra tags in the field are
    /// reported and polling continues.
    ///
    /// - Throws: `CLIError` 69 when no tag arrives within `timeout`, the population is exhausted, or
    ///   the reader fails; 130 when the operator stops the wait (`stop`).
    static func waitForTag(
        on reader: any TagReader, timeout: Duration, stop: StopRequest, prompt: @escaping @Sendable (String) -> Void
    ) async throws(CLIError) -> DetectedTag {
        let wait = TagWait(reader: reader, stop: stop, idleLimit: timeout, pollMilliseconds: 250) {
            prompt("reader \(reader.name): \($0), trying again")
        }
        let end: TagWait.End
        do {
            end = try await wait.next(idleSince: ContinuousClock.now) { request in
                switch request {
                case .placeTag: prompt("place a tag on \(reader.name)")
                case .removeExtraTags(let count):
                    prompt("\(count) tags in the field of \(reader.name): remove the extra tags")
                }
            }
        } catch {
            throw ErrorTable.cliError(ReaderFailure(.stopped, "reader \(reader.name): \(error)"))
        }
        switch end {
        case .tag(let detected):
            return detected
        case .exhausted:
            throw ErrorTable.cliError(
                ReaderFailure(
                    .exhausted, "reader \(reader.name): no more tags will arrive (the population is used up)"))
        case .idle:
            throw ErrorTable.cliError(
                ReaderFailure(
                    .idle, "no tag on \(reader.name) within \(Self.seconds(timeout)) s (use --timeout to wait longer)"))
        case .stopRequested:
            throw CLIError(.interrupted, "interrupted before a tag arrived: nothing was written")
        }
    }

    /// Waits for one tag, identifies it through its family, runs `body`, and releases the tag whatever
    /// `body` did.
    ///
    /// - Parameters:
    ///   - reader: the reader to poll.
    ///   - timeout: how long to wait for the tag to arrive.
    ///   - context: where operator prompts go (stderr) and the operator's stop request.
    ///   - removalWaitMilliseconds: how long `release` waits for the tag to leave (0: do not wait).
    ///   - identify: whether to identify first (the family's identify, e.g. GET_VERSION `60`); `false` when
    ///     `body` runs the tag pipeline, which identifies the tag itself.
    ///   - families: the families the tag is matched against.
    ///   - body: the work on the tag.
    /// - Returns: what `body` returned.
    /// - Throws: `CLIError` 69 (no tag), 74 (release failed), 130 (stopped before a tag), 1 for a tag
    ///   failure (`classified(_:)`), or whatever else `body` throws.
    static func withTag<Result: Sendable>(
        on reader: any TagReader, timeout: Duration, context: CommandContext, removalWaitMilliseconds: Int = 0,
        identify: Bool = true, families: TagFamilies = .standard, _ body: (TagSession) async throws -> Result
    ) async throws -> Result {
        let err = context.err
        let detected = try await waitForTag(on: reader, timeout: timeout, stop: context.stop) { err.line("» \($0)") }
        let result: Result
        do {
            let (chip, family, cost) = try await reader.withTransceiver { transceiver in
                guard identify else { return (TagChip?.none, String?.none, PhaseCost(name: "identify")) }
                let tag = try families.open(transceiver, activation: detected)
                let meter = PhaseMeter(tag)
                let chip = try meter.run("identify") { try tag.identify() }
                return (chip, tag.family, meter.phases.last ?? PhaseCost(name: "identify"))
            }
            let session = TagSession(reader: reader, detected: detected, chip: chip, family: family, identifyCost: cost)
            result = try await body(session)
        } catch {
            _ = try? await reader.release(waitingForRemovalMilliseconds: removalWaitMilliseconds)
            throw Self.classified(error)
        }
        do {
            _ = try await reader.release(waitingForRemovalMilliseconds: removalWaitMilliseconds)
        } catch {
            throw ErrorTable.cliError(
                ReaderFailure(.releaseFailed, "reader \(reader.name): releasing the tag failed: \(error)"))
        }
        return result
    }

    /// A tag or transport failure as the CLI reports it: the table's code for a failed tag (1) and
    /// `class: message`.
    ///
    /// The class is a `FailureClass` name from `CycleFailure` (`tagLost: tag left the field`); other
    /// errors are unchanged.
    static func classified(_ error: any Error, phase: Phase = .identify) -> any Error {
        guard error is TransportError || error is TagError else { return error }
        let failure = CycleFailure(classifying: error, phase: phase)
        return CLIError(ErrorTable.exitCode(for: failure), "\(failure.failureClass.rawValue): \(failure.detail)")
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
