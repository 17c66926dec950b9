/// Strict decoding of an encoded NDEF message (NFC Forum NDEF 1.0 §3.2, §3.3).
extension NDEFMessage {
    /// A decoded logical record and where its fields started in the buffer.
    struct DecodedRecord {
        var record: NDEFPayload
        var typeOffset: Int
        var payloadOffset: Int
        /// How many chunks the record arrived in (1: not chunked).
        var chunks = 1
        /// Bytes copied when the reassembly buffer moved (`ChunkAssembly.bytesMoved`); 0 when not chunked.
        var reassemblyBytesMoved = 0
    }

    /// Decodes a message strictly, reassembling chunked records.
    ///
    /// Checks the record layer (flags, lengths, MB/ME, chunk rules, TNF rules) and the payload of every
    /// type it knows (URI, Text, Smart Poster, media / external / well-known / absolute-URI type names).
    ///
    /// - Throws: `NDEFError` naming the code and the byte offset in `bytes`.
    public init(bytes: [UInt8]) throws(NDEFError) {
        self.init(records: try Self.decodeRecords(bytes, depth: 0).map(\.record))
    }

    /// Decodes the records of `bytes`; offsets are relative to `bytes`.
    static func decodeRecords(_ bytes: [UInt8], depth: Int) throws(NDEFError) -> [DecodedRecord] {
        guard !bytes.isEmpty else { throw NDEFError(.emptyBuffer, at: 0, "no bytes to decode") }
        var cursor = ByteCursor(bytes)
        var records: [DecodedRecord] = []
        var chunked: ChunkAssembly?
        while true {
            let start = cursor.readerIndex
            guard let header = cursor.readUInt8() else {
                throw NDEFError(.missingME, at: start, "the message ends without a record flagged ME")
            }
            let first = start == 0
            let mb = header & 0x80 != 0
            let me = header & 0x40 != 0
            let cf = header & 0x20 != 0
            let sr = header & 0x10 != 0
            let il = header & 0x08 != 0
            let tnfValue = header & 0x07
            if first && !mb { throw NDEFError(.missingMB, at: start, "the first record lacks the MB flag") }
            if !first && mb { throw NDEFError(.unexpectedMB, at: start, "a record after the first carries MB") }
            guard let tnf = NDEFTypeNameFormat(rawValue: tnfValue), tnf != .reserved else {
                throw NDEFError(.reservedTNF, at: start, "TNF 7 is reserved")
            }
            if chunked == nil && tnf == .unchanged {
                throw NDEFError(.unchangedOutsideChunk, at: start, "TNF 6 (unchanged) outside a chunked record")
            }
            if chunked != nil && tnf != .unchanged {
                throw NDEFError(.chunkNotUnchanged, at: start, "a middle or last chunk must have TNF 6 (unchanged)")
            }
            if cf && me { throw NDEFError(.chunkEndsMessage, at: start, "ME on a chunk that says more chunks follow") }
            if cf && tnf == .empty {
                throw NDEFError(.emptyRecordNotEmpty, at: start, "an empty record (TNF 0) cannot be chunked")
            }

            let truncatedHeader = NDEFError(.truncatedHeader, at: start, "the message ends inside a record header")
            guard let typeLength = cursor.readUInt8() else { throw truncatedHeader }
            let payloadLength: Int
            if sr {
                guard let value = cursor.readUInt8() else { throw truncatedHeader }
                payloadLength = Int(value)
            } else {
                guard let value = cursor.readUInt32BE() else { throw truncatedHeader }
                payloadLength = Int(value)
            }
            var idLength = 0
            if il {
                guard let value = cursor.readUInt8() else { throw truncatedHeader }
                idLength = Int(value)
            }

            if tnf == .empty && (typeLength != 0 || idLength != 0 || payloadLength != 0) {
                throw NDEFError(.emptyRecordNotEmpty, at: start, "an empty record (TNF 0) has a type, ID or payload")
            }
            if tnf == .unchanged && typeLength != 0 {
                throw NDEFError(.chunkWithType, at: start, "a middle or last chunk has a type")
            }
            if tnf == .unchanged && idLength != 0 {
                throw NDEFError(.chunkWithID, at: start, "a middle or last chunk has an ID")
            }

            let typeOffset = cursor.readerIndex
            guard let type = cursor.readBytes(Int(typeLength)) else {
                throw NDEFError(
                    .truncatedType, at: typeOffset, "the TYPE needs \(typeLength) bytes, \(cursor.readableBytes) remain"
                )
            }
            let idOffset = cursor.readerIndex
            guard let id = cursor.readBytes(idLength) else {
                throw NDEFError(
                    .truncatedID, at: idOffset, "the ID needs \(idLength) bytes, \(cursor.readableBytes) remain")
            }
            let payloadOffset = cursor.readerIndex
            guard let payload = cursor.readBytes(payloadLength) else {
                throw NDEFError(
                    .truncatedPayload, at: payloadOffset,
                    "the PAYLOAD needs \(payloadLength) bytes, \(cursor.readableBytes) remain")
            }

            var complete: DecodedRecord?
            if chunked != nil {
                chunked?.append(payload)  // in place: the buffer is not shared, so appends stay amortised O(1)
                if !cf {
                    complete = chunked?.decodedRecord
                    chunked = nil
                }
            } else if cf {
                chunked = ChunkAssembly(
                    format: tnf, type: Array(type), identifier: Array(id), firstPayload: payload,
                    typeOffset: typeOffset, payloadOffset: payloadOffset)
            } else {
                let record = NDEFPayload(format: tnf, type: Array(type), identifier: Array(id), payload: Array(payload))
                complete = DecodedRecord(record: record, typeOffset: typeOffset, payloadOffset: payloadOffset)
            }
            if let complete {
                _ = try complete.record.content(
                    typeOffset: complete.typeOffset, payloadOffset: complete.payloadOffset, depth: depth)
                records.append(complete)
            }
            if me {
                guard cursor.readableBytes == 0 else {
                    throw NDEFError(
                        .bytesAfterME, at: cursor.readerIndex,
                        "\(cursor.readableBytes) bytes follow the record flagged ME")
                }
                return records
            }
        }
    }
}
