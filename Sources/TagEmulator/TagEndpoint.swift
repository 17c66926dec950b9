import NFCTags

/// What an emulated tag answers to one frame.
public enum TagAnswer: Sendable, Hashable {
    /// Data bytes (without CRC).
    case data([UInt8])
    /// A 4-bit ACK (`A`).
    case ack
    /// A 4-bit NAK with its code (`0`, `1`, `4`, `5`).
    case nak(UInt8)
    /// No answer at all (HLTA, a tag in IDLE/HALT, a removed tag, a no-answer fault).
    case silence
}

/// A tag in an emulated field, driven frame by frame: the seam between the chip model and the
/// front ends (in-process simulated reader, PN532 on a pty, vpcd virtual card).
///
/// Not `Sendable`: each endpoint is owned by the one front end that drives it.
public protocol TagEndpoint: AnyObject {
    /// The 7-byte UID.
    var uid: [UInt8] { get }

    /// Activates the tag as a reader does (WUPA, anticollision and SELECT at both cascade levels).
    ///
    /// - Returns: the detection data, or `nil` when the tag does not answer (gone, halted and woken by
    ///   REQA, a no-answer fault).
    func activate() -> DetectedTag?

    /// Handles one raw ISO/IEC 14443-A frame **with** CRC where the air frame has one; `bits` is the
    /// bit count of the last byte for short frames (7 for REQA/WUPA), else 8. Drives the full state
    /// machine (REQA/WUPA, anticollision, SELECT, HLTA and commands) for front ends that pass raw
    /// frames, such as PN532 InCommunicateThru with CRC handling off.
    func receiveRaw(_ frame: [UInt8], lastByteBits: Int) -> TagAnswer

    /// Handles one command in ACTIVE/AUTHENTICATED state; the frame has no CRC (the reader adds and
    /// checks it). Any NAK drops the tag to IDLE (`docs/reference/type2.md` §1.1).
    func exchange(_ command: [UInt8]) -> TagAnswer

    /// HLTA: the tag goes to HALT and answers only WUPA.
    func halt()

    /// The reader switched its field off (or the tag left): state resets, authentication is lost,
    /// the per-power-up counter flag clears.
    func fieldOff()

    /// Modelled airtime of every exchange so far, in microseconds (`RFTiming`).
    var airtimeMicroseconds: Double { get }
}
