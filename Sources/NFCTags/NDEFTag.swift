import NDEF

/// A tag that holds NDEF data, in the shape Core NFC users know (`NFCNDEFTag`).
///
/// Operations are `async`: each one borrows the reader's transceiver for its whole duration.
public protocol NDEFTag: Sendable {
    /// The tag's UID (7 bytes for NTAG21x).
    var identifier: [UInt8] { get }
    /// Runs NDEF detection: the status and the largest message that fits (0 when not supported).
    func queryNDEFStatus() async throws -> (NDEFStatus, capacity: Int)
    /// Reads and decodes the NDEF message.
    func readNDEF() async throws -> NDEFMessage
    /// Writes `message` (tear-safe) and verifies it.
    func writeNDEF(_ message: NDEFMessage) async throws
    /// Makes the tag permanently read-only.
    func writeLock() async throws
}

/// A tag of any family on a `TagReader`, conforming to `NDEFTag`: every operation opens the tag through
/// the family `TagFamilies` picks from the activation data and identifies it, inside one
/// `TagReader.withTransceiver` call, as Core NFC does per session.
public struct FamilyNDEFTag: NDEFTag {
    /// The reader holding the tag.
    public let reader: any TagReader
    /// The activation data that picks the family (`nil`: the first family, Type 2).
    public let activation: DetectedTag?
    /// The families the tag is matched against.
    public let families: TagFamilies
    /// Whether `writeNDEF` re-activates and reads back every written unit (default `true`).
    public var verifiesWrites: Bool
    /// Byte-address ranges ignored by the verify (a mirror window).
    public var verifyMask: [Range<Int>]

    /// Creates the tag view without sending anything.
    public init(
        reader: any TagReader, activation: DetectedTag?, families: TagFamilies = .standard,
        verifiesWrites: Bool = true, verifyMask: [Range<Int>] = []
    ) {
        self.reader = reader
        self.activation = activation
        self.families = families
        self.verifiesWrites = verifiesWrites
        self.verifyMask = verifyMask
    }

    /// The UID from the activation data (empty without one).
    public var identifier: [UInt8] { activation?.uid ?? [] }

    /// Runs `body` with the tag opened through its family and identified.
    ///
    /// - Throws: `TagError.wrongChip` when no family handles the tag; what `body` throws.
    public func withFamilyTag<Result: Sendable>(_ body: @Sendable (any FamilyTag) throws -> Result)
        async throws -> Result
    {
        let activation = self.activation
        let families = self.families
        return try await reader.withTransceiver { transceiver in
            let tag = try families.open(transceiver, activation: activation)
            try tag.identify()
            return try body(tag)
        }
    }

    /// The family's NDEF detection (`.notSupported` with capacity 0 when the tag holds no NDEF area).
    public func queryNDEFStatus() async throws -> (NDEFStatus, capacity: Int) {
        let result = try await withFamilyTag { try $0.queryNDEFStatus() }
        return (result.status, result.capacity)
    }

    /// Detection, then the message bytes, decoded.
    ///
    /// - Throws: `TagError.notNDEF` for a tag without NDEF data or with an empty message, `NDEFError`
    ///   for a malformed message, `TransportError`.
    public func readNDEF() async throws -> NDEFMessage {
        let bytes = try await withFamilyTag { tag in
            _ = try tag.detectNDEF()
            return try tag.readNDEF()
        }
        guard !bytes.isEmpty else { throw TagError(.notNDEF, "the NDEF message is empty (length 0)") }
        return try NDEFMessage(bytes: bytes)
    }

    /// Detection, the family's tear-safe write, then (by default) re-activation and read-back.
    public func writeNDEF(_ message: NDEFMessage) async throws {
        let bytes = message.bytes
        let verify = verifiesWrites
        let mask = verifyMask
        try await withFamilyTag { tag in
            _ = try tag.detectNDEF()
            let result = try tag.writeNDEF(bytes)
            if verify { try tag.verify(result, ignoring: mask) }
        }
    }

    /// The family's chip-correct permanent lock with its read-back.
    public func writeLock() async throws {
        try await withFamilyTag { try $0.writeLock() }
    }
}
