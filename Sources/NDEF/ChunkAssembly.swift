/// A chunked record being put back together: the first chunk's TNF, TYPE and ID, and the payloads of
/// all its chunks appended to one buffer (NFC Forum NDEF 1.0 §2.3.3, record chunks).
///
/// The buffer is owned by the assembly alone while chunks arrive, so each append happens in place and
/// the buffer grows geometrically: reassembling n payload bytes copies O(n) bytes in all, however many
/// chunks carry them. `bytesMoved` measures that from the buffer's address, not from the code's
/// intent, so a test can tell a linear reassembly from one that copies the payload at every chunk.
struct ChunkAssembly {
    /// The first chunk's TNF (later chunks carry TNF 6, unchanged).
    let format: NDEFTypeNameFormat
    /// The first chunk's TYPE.
    let type: [UInt8]
    /// The first chunk's ID.
    let identifier: [UInt8]
    /// Where the first chunk's TYPE and PAYLOAD start in the message, for error offsets.
    let typeOffset: Int
    let payloadOffset: Int
    /// The payload bytes so far.
    private(set) var payload: [UInt8]
    /// Chunks appended so far, the first included.
    private(set) var chunks = 1
    /// Bytes copied because the buffer moved to new storage (growth, or a copy of a shared buffer).
    private(set) var bytesMoved = 0

    /// Starts a record from its first chunk (the one with CF set and the real TNF).
    init(
        format: NDEFTypeNameFormat, type: [UInt8], identifier: [UInt8], firstPayload: ArraySlice<UInt8>,
        typeOffset: Int, payloadOffset: Int
    ) {
        self.format = format
        self.type = type
        self.identifier = identifier
        self.typeOffset = typeOffset
        self.payloadOffset = payloadOffset
        payload = Array(firstPayload)
    }

    /// Appends a middle or last chunk's payload.
    mutating func append(_ chunk: ArraySlice<UInt8>) {
        let kept = payload.count
        let before = payload.withUnsafeBufferPointer { $0.baseAddress }
        payload.append(contentsOf: chunk)
        if payload.withUnsafeBufferPointer({ $0.baseAddress }) != before { bytesMoved += kept }
        chunks += 1
    }

    /// The logical record, with where its first chunk started and what reassembly cost.
    var decodedRecord: NDEFMessage.DecodedRecord {
        NDEFMessage.DecodedRecord(
            record: NDEFPayload(format: format, type: type, identifier: identifier, payload: payload),
            typeOffset: typeOffset, payloadOffset: payloadOffset, chunks: chunks, reassemblyBytesMoved: bytesMoved)
    }
}
