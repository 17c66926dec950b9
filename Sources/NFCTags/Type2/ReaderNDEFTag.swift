import NDEF

/// A Type 2 tag on a `TagReader`, conforming to `NDEFTag`: every operation runs a `Type2Tag` inside
/// `TagReader.withTransceiver`. The Type 2 view for callers that need `Type2Tag` itself (phase counters,
/// the identity bytes); `FamilyNDEFTag` is the same API for a tag of any family.
///
/// Identification (GET_VERSION `60`) runs once in `connect(to:identifier:)` and the result is reused;
/// an instance made with `identity: nil` identifies at the start of each operation. Callers that need
/// exchange counts and radio time per phase use `withType2Tag(_:)` and read `Type2Tag.operations`.
public struct ReaderNDEFTag: NDEFTag {
    /// The reader holding the tag.
    public let reader: any TagReader
    /// The tag's UID.
    public let identifier: [UInt8]
    /// The identification reused by every operation (`nil`: identify each time).
    public let identity: Type2Identity?
    /// Whether `writeNDEF` re-activates and reads back every written page (default `true`).
    public var verifiesWrites: Bool
    /// Byte-address ranges ignored by the verify (a mirror window, `docs/reference/type2.md` §6).
    public var verifyMask: [Range<Int>]

    /// Creates the tag view without sending anything.
    public init(
        reader: any TagReader, identifier: [UInt8], identity: Type2Identity? = nil, verifiesWrites: Bool = true,
        verifyMask: [Range<Int>] = []
    ) {
        self.reader = reader
        self.identifier = identifier
        self.identity = identity
        self.verifiesWrites = verifiesWrites
        self.verifyMask = verifyMask
    }

    /// Identifies the selected tag once (GET_VERSION `60`, generic fallback) and returns a view that
    /// reuses the result.
    public static func connect(to reader: any TagReader, identifier: [UInt8]) async throws -> ReaderNDEFTag {
        let identity = try await reader.withTransceiver { transceiver in
            try Type2Tag(transceiver: transceiver).identify()
        }
        return ReaderNDEFTag(reader: reader, identifier: identifier, identity: identity)
    }

    /// Runs `body` with a fresh `Type2Tag` over the reader's transceiver (identified if needed).
    public func withType2Tag<Result: Sendable>(_ body: @Sendable (Type2Tag) throws -> Result)
        async throws -> Result
    {
        let identity = self.identity
        return try await reader.withTransceiver { transceiver in
            let tag = Type2Tag(transceiver: transceiver, identity: identity)
            if identity == nil { try tag.identify() }
            return try body(tag)
        }
    }

    /// NDEF detection: READ `30 00`, READ `30 04` (and further READs as the TLV walk needs).
    public func queryNDEFStatus() async throws -> (NDEFStatus, capacity: Int) {
        let result = try await withType2Tag { try $0.queryNDEFStatus() }
        return (result.status, result.capacity)
    }

    /// Detection, then the message bytes by FAST_READ `3Ah` (READ `30h` on generic tags), decoded.
    ///
    /// - Throws: `Type2Error.notNDEF` for a tag without NDEF data or with an empty NDEF TLV,
    ///   `NDEFError` for a malformed message, `TransportError`.
    public func readNDEF() async throws -> NDEFMessage {
        let bytes = try await withType2Tag { try $0.readNDEF() }
        guard !bytes.isEmpty else { throw Type2Error(.notNDEF, "the NDEF TLV is empty (length 0)") }
        return try NDEFMessage(bytes: bytes)
    }

    /// Detection, the tear-safe WRITE `A2h` sequence, then (by default) re-activation and read-back.
    public func writeNDEF(_ message: NDEFMessage) async throws {
        let bytes = message.bytes
        let verify = verifiesWrites
        let mask = verifyMask
        try await withType2Tag { tag in
            let result = try tag.writeNDEF(bytes)
            if verify { try tag.verify(result, ignoring: mask) }
        }
    }

    /// The chip-correct permanent lock (WRITE `A2h` to pages 3, 2 and the dynamic lock page) with
    /// read-back after re-activation.
    public func writeLock() async throws {
        try await withType2Tag { try $0.writeLock() }
    }
}
