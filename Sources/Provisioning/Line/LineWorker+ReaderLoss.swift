import Foundation
import NFCTags
import Support

extension LineWorker {
    /// The pauses between tries to open a reader that went away: 0.5 s doubling to 5 s (`Backoff`, the one
    /// pause-and-try-again loop; a reader back is found within 5 s).
    static let readerBackoff = Backoff(firstPause: .milliseconds(500), longestPause: .seconds(5))

    /// Pauses this reader after it went away (unplugged, its daemon or port gone), opening it again with
    /// `readerBackoff` until it returns (`TagReader.reopen`); the tag that was on it, if any, kept its claim and
    /// resumes by its UID when presented again, as after a kill.
    ///
    /// A stop request (the operator's, or the job complete at another reader) ends the pause; the loop then stops.
    /// - Throws: `.readerGone` once every reader of the run has been gone for the run's timeout (`ReaderAbsence`);
    ///   cancellation.
    func rideOutReaderLoss(_ gone: TransportError) async throws {
        let absence = settings.readerAbsence
        absence.gone(readerName)
        events(.readerGone(reader: readerName, detail: Self.detail(gone), timeout: absence.timeout))
        let end = try await Self.readerBackoff.wait(deadline: absence.deadline, stop: stop) {
            do throws(TransportError) {
                try await reader.reopen()
                return true
            } catch {
                guard error.isReaderGone else { throw error }
                return false
            }
        }
        switch end {
        case .back(let after):
            absence.back(readerName)
            events(.readerBack(reader: readerName, after: after))
        case .stopped:
            return  // the loop ends on the stop request (the operator's, or the job complete at another reader)
        case .expired:
            let seconds = absence.timeout.map { Self.secondsText($0) } ?? "?"
            throw TransportError.readerGone(
                "\(Self.detail(gone)); every reader of the run gone for \(seconds) s (--reader-timeout)")
        }
    }

    /// A duration in seconds for the operator: whole seconds without a fraction, else one decimal.
    public static func secondsText(_ duration: Duration) -> String {
        let value = duration.seconds
        return value == value.rounded() ? "\(Int(value))" : String(format: "%.1f", value)
    }

    /// The words of a reader loss without the error's own prefix.
    private static func detail(_ gone: TransportError) -> String {
        if case .readerGone(let detail) = gone { return detail }
        return "\(gone)"
    }
}
