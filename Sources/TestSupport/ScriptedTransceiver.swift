import NDEF
import NFCTags
import Testing

/// A fake `Transceiver` that plays a script of (expected command, answer) steps.
///
/// Tests assert the result, the exact frames sent (`sent`), and that the script was used up
/// (`remaining.isEmpty`). A command that differs from the script, or comes after it ended, fails the test where
/// it is sent (an issue at the line that made the transceiver), unless the test allows it (`allowUnexpected`)
/// and reads `mismatches` itself.
public final class ScriptedTransceiver: Transceiver {
    /// One scripted exchange.
    public struct Step: Sendable {
        /// The command the code under test must send (without CRC).
        public var expect: [UInt8]
        /// What the "tag" answers.
        public var answer: Result<[UInt8], TransportError>

        /// Creates a step.
        public init(expect: [UInt8], answer: Result<[UInt8], TransportError>) {
            self.expect = expect
            self.answer = answer
        }

        /// A step answered with bytes.
        public static func exchange(_ expect: [UInt8], _ answer: [UInt8]) -> Step {
            Step(expect: expect, answer: .success(answer))
        }

        /// A step answered with a 4-bit ACK (`0A`).
        public static func ack(_ expect: [UInt8]) -> Step { Step(expect: expect, answer: .success([0x0A])) }

        /// A step answered with a failure.
        public static func fail(_ expect: [UInt8], _ error: TransportError) -> Step {
            Step(expect: expect, answer: .failure(error))
        }

        /// The marker for a `reactivate()` call in the script.
        public static let reactivation = Step(expect: [], answer: .success([]))
    }

    /// Steps not yet played.
    public private(set) var remaining: [Step]
    /// Every command sent, in order; `reactivate()` is logged as an empty frame.
    public private(set) var sent: [[UInt8]] = []
    /// Commands that did not match the script: (index, expected, actual).
    public private(set) var mismatches: [(index: Int, expected: [UInt8], actual: [UInt8])] = []
    /// Whether commands other than READ/WRITE are allowed.
    public var supportsRawCommands: Bool
    /// Whether a frame the script does not expect is allowed (for a test that probes it through `mismatches`
    /// or relies on the script running out as a lost tag); when false it is a test failure.
    public var allowUnexpected: Bool
    /// Where the test made the transceiver: the line its unexpected frames are reported at.
    private let sourceLocation: SourceLocation

    /// Creates a transceiver that plays `steps`.
    public init(
        _ steps: [Step], supportsRawCommands: Bool = true, allowUnexpected: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        remaining = steps
        self.supportsRawCommands = supportsRawCommands
        self.allowUnexpected = allowUnexpected
        self.sourceLocation = sourceLocation
    }

    public func transceive(_ command: [UInt8], timeoutMilliseconds: Int) throws(TransportError) -> [UInt8] {
        try play(command)
    }

    public func reactivate() throws(TransportError) {
        _ = try play([])
    }

    public var modelledAirtimeMicroseconds: Double? { nil }

    private func play(_ command: [UInt8]) throws(TransportError) -> [UInt8] {
        sent.append(command)
        guard !remaining.isEmpty else {
            unexpected("frame \(sent.count - 1) \(Self.hex(command)) sent after the script ended (answered tagLost)")
            throw .tagLost
        }
        let step = remaining.removeFirst()
        if step.expect != command {
            mismatches.append((sent.count - 1, step.expect, command))
            unexpected("frame \(sent.count - 1) \(Self.hex(command)), the script expected \(Self.hex(step.expect))")
        }
        return try step.answer.get()
    }

    /// Fails the running test with `message`, unless unexpected frames are allowed.
    private func unexpected(_ message: String) {
        guard !allowUnexpected else { return }
        Issue.record("ScriptedTransceiver: unexpected \(message)", sourceLocation: sourceLocation)
    }

    /// A frame as hex ("reactivate" for the reactivation marker).
    private static func hex(_ frame: [UInt8]) -> String {
        frame.isEmpty ? "reactivate" : Hex.string(frame)
    }
}
