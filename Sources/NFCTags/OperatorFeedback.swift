/// The outcome of one tag cycle, as shown to the operator.
public enum TagCycleOutcome: Sendable, Hashable {
    /// The tag was done (written and verified).
    case pass
    /// The tag failed (refused, mismatch, lost).
    case fail
}

/// A reader that can show the outcome of a tag cycle to the operator.
///
/// ACR122U-class readers use their LED and buzzer. The line worker calls `signal(_:)` before `release`.
public protocol OperatorFeedbackReader: TagReader {
    /// Shows `outcome`; best effort, never throws (a failed LED command must not fail the tag).
    func signal(_ outcome: TagCycleOutcome) async
}
