/// A malformed NDEF message or record, with the byte offset where the problem starts.
///
/// Decoding errors name an offset into the buffer given to `NDEFMessage(bytes:)`. For a chunked
/// record the payload checks name the first chunk's payload. Errors raised while building a record
/// from values (a bad media type, language code or external name) name the offset of the offending
/// byte inside that value. Two errors are equal when code and offset are equal; `message` is prose.
public struct NDEFError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, switchable error code; new codes may be added without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The buffer holds no bytes at all.
        public static let emptyBuffer = Code("emptyBuffer")
        /// The buffer ends inside a record header (flags, lengths).
        public static let truncatedHeader = Code("truncatedHeader")
        /// The buffer ends inside a TYPE field.
        public static let truncatedType = Code("truncatedType")
        /// The buffer ends inside an ID field.
        public static let truncatedID = Code("truncatedID")
        /// The buffer ends inside a PAYLOAD field.
        public static let truncatedPayload = Code("truncatedPayload")
        /// The first record lacks the MB (message begin) flag.
        public static let missingMB = Code("missingMB")
        /// A record after the first one carries MB.
        public static let unexpectedMB = Code("unexpectedMB")
        /// The buffer ends without a record carrying ME (message end).
        public static let missingME = Code("missingME")
        /// Bytes follow the record that carries ME.
        public static let bytesAfterME = Code("bytesAfterME")
        /// TNF 7, which the NFC Forum reserves.
        public static let reservedTNF = Code("reservedTNF")
        /// TNF 0 (empty) with a non-zero type, ID or payload length, or chunked.
        public static let emptyRecordNotEmpty = Code("emptyRecordNotEmpty")
        /// TNF 6 (unchanged) on a record that is not a middle or last chunk.
        public static let unchangedOutsideChunk = Code("unchangedOutsideChunk")
        /// A middle or last chunk whose TNF is not 6 (unchanged).
        public static let chunkNotUnchanged = Code("chunkNotUnchanged")
        /// A middle or last chunk with a TYPE field.
        public static let chunkWithType = Code("chunkWithType")
        /// A middle or last chunk with an ID field.
        public static let chunkWithID = Code("chunkWithID")
        /// ME set on a chunk whose CF flag says more chunks follow.
        public static let chunkEndsMessage = Code("chunkEndsMessage")
        /// TNF 1–4 with an empty TYPE field.
        public static let missingType = Code("missingType")
        /// TNF 5 (unknown) with a TYPE field.
        public static let unknownWithType = Code("unknownWithType")
        /// A TYPE or ID longer than the 255 bytes its length byte can express.
        public static let fieldTooLong = Code("fieldTooLong")
        /// A payload shorter than its record type needs.
        public static let payloadTooShort = Code("payloadTooShort")
        /// A URI record whose prefix code is above `23h`.
        public static let invalidURIPrefix = Code("invalidURIPrefix")
        /// A URI that is not valid UTF-8 or contains control characters.
        public static let invalidURI = Code("invalidURI")
        /// A Text record status byte with the reserved bit set.
        public static let invalidTextStatus = Code("invalidTextStatus")
        /// A language code that is empty, longer than 63 bytes or not printable ASCII.
        public static let invalidLanguage = Code("invalidLanguageCode")
        /// Text that is not valid UTF-8 / UTF-16.
        public static let invalidText = Code("invalidText")
        /// A media type that is not `type/subtype` (RFC 2046 tokens).
        public static let invalidMediaType = Code("invalidMediaType")
        /// An external type name that is not `domain:type` with a lower-case domain.
        public static let invalidExternalType = Code("invalidExternalType")
        /// A well-known type name that is not printable ASCII.
        public static let invalidWellKnownType = Code("invalidWellKnownType")
        /// An absolute-URI type that is not printable ASCII.
        public static let invalidAbsoluteURI = Code("invalidAbsoluteURI")
        /// A Smart Poster without exactly one URI record.
        public static let smartPosterURICount = Code("smartPosterURICount")
        /// A Smart Poster with two titles in the same language.
        public static let duplicateTitleLanguage = Code("duplicateTitleLanguage")
        /// A Smart Poster with two action, size or type records.
        public static let duplicateSmartPosterField = Code("duplicateSmartPosterField")
        /// A Smart Poster action record that is not one byte `00`–`02`.
        public static let invalidSmartPosterAction = Code("invalidSmartPosterAction")
        /// A Smart Poster size record that is not 4 bytes.
        public static let invalidSmartPosterSize = Code("invalidSmartPosterSize")
        /// Smart Posters nested inside each other more than a few levels deep.
        public static let nestingTooDeep = Code("nestingTooDeep")

        /// The code's name, such as `truncatedPayload`.
        public var description: String { name }
    }

    /// What is wrong.
    public let code: Code
    /// The byte offset where the problem starts.
    public let offset: Int
    /// What happened, for a person.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, at offset: Int, _ message: String) {
        self.code = code
        self.offset = offset
        self.message = message
    }

    /// Whether the input simply ended too early (a strict prefix of a valid message).
    public var isTruncation: Bool {
        [.truncatedHeader, .truncatedType, .truncatedID, .truncatedPayload, .missingME, .emptyBuffer]
            .contains(code)
    }

    /// The same error with its offset moved by `base` (for nested messages).
    func shifted(by base: Int) -> NDEFError { NDEFError(code, at: offset + base, message) }

    /// Equal when code and offset are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code && lhs.offset == rhs.offset }
    /// Hashes code and offset.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(offset)
    }

    /// `truncatedPayload at byte 12: …`.
    public var description: String { "\(code) at byte \(offset): \(message)" }
}
