import NDEF

/// A status word other than `9000` from a Type 4 tag, as a typed error (`docs/reference/type4.md` §1.7, §2.2).
///
/// Tag-level: the tag answered, and refused. Silence, a lost tag and reader faults stay `TransportError`.
public struct StatusWordError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds a T4T reader acts on.
    public enum Kind: Sendable, Hashable {
        /// `6A82`: file or application not found.
        case notFound
        /// `6982`: security status not satisfied (an access right not granted).
        case securityStatus
        /// `6985`: conditions of use not satisfied (no file selected, UPDATE beyond the file's end).
        case conditions
        /// `6700`, `6A86`, `6A87`: a malformed command (wrong length, bad P1/P2, Lc against P1/P2).
        case malformed
        /// `6B00`: wrong parameters (an offset outside the file).
        case wrongParameters
        /// `6Cxx`: wrong Le; `xx` bytes are available.
        case wrongLength(available: Int)
        /// Anything else (the raw word is in `status`).
        case unexpected
    }

    /// The status word as received.
    public let status: UInt16
    /// The command it answered (INS), for messages.
    public let instruction: UInt8

    /// The kind the word maps to.
    public var kind: Kind {
        switch status {
        case 0x6A82: .notFound
        case 0x6982: .securityStatus
        case 0x6985: .conditions
        case 0x6700, 0x6A86, 0x6A87: .malformed
        case 0x6B00: .wrongParameters
        case 0x6C00...0x6CFF: .wrongLength(available: Int(status & 0xFF == 0 ? 256 : status & 0xFF))
        default: .unexpected
        }
    }

    /// Creates the error for `status` answering instruction `instruction`.
    public init(status: UInt16, instruction: UInt8) {
        self.status = status
        self.instruction = instruction
    }

    public var description: String {
        let word = Hex.compact([UInt8(status >> 8), UInt8(status & 0xFF)])
        let command = Hex.compact([instruction])
        return switch kind {
        case .notFound: "\(word) file or application not found (INS \(command))"
        case .securityStatus: "\(word) security status not satisfied (INS \(command))"
        case .conditions: "\(word) conditions of use not satisfied (INS \(command))"
        case .malformed: "\(word) malformed command (INS \(command))"
        case .wrongParameters: "\(word) wrong parameters: offset outside the file (INS \(command))"
        case .wrongLength(let available): "\(word) wrong Le, \(available) bytes available (INS \(command))"
        case .unexpected: "unexpected status word \(word) (INS \(command))"
        }
    }
}
