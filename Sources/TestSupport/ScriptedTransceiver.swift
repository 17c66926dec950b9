import NFCTags

/// A fake `Transceiver` that plays a script of (expected command, answer) steps.
///
/// Tests assert the result, the exact frames sent (`sent`), and that the script was used up
/// (`remaining.isEmpty`). A command that differs from the script is recorded in `mismatches`.
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

    /// Creates a transceiver that plays `steps`.
    public init(_ steps: [Step], supportsRawCommands: Bool = true) {
        remaining = steps
        self.supportsRawCommands = supportsRawCommands
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
        guard !remaining.isEmpty else { throw .tagLost }
        let step = remaining.removeFirst()
        if step.expect != command {
            mismatches.append((sent.count - 1, step.expect, command))
        }
        return try step.answer.get()
    }
}
