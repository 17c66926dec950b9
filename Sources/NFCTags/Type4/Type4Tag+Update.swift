/// The T4T tear-safe update and its read-back (`docs/reference/type4.md` §1.5), and the CC's read-only byte
/// (§1.6). Units in `NDEFWriteResult` are NDEF file offsets.
extension Type4Tag {
    /// Writes `message` in the tear-safe order: NLEN `0000` (when it is not already 0), the body in MLc
    /// pieces from offset 2 (4 with ENLEN), the real NLEN last. A piece whose bytes are already known to
    /// match (read earlier in this session) is not sent; the body is not read first, because reading a
    /// piece costs about as much radio time as writing it.
    ///
    /// - Throws: `TagError` `.readOnly` (write access not granted, or the tag refused with `6982`),
    ///   `.capacity`; `StatusWordError` or `TransportError` for other refusals and link failures.
    public func writeNDEF(_ message: [UInt8]) throws -> NDEFWriteResult {
        let container = try capabilityContainer ?? readCapabilityContainer()
        guard container.writeAccess == .granted else {
            throw TagError(.readOnly, "the CC's NDEF write access is \(container.writeAccess)")
        }
        guard message.count <= container.capacity else {
            throw TagError(
                .capacity, "the message has \(message.count) bytes; the NDEF file holds \(container.capacity)")
        }
        let field = container.lengthFieldSize
        let oldLength = try messageLength(container)
        var result = NDEFWriteResult(pages: [:], writtenPages: [], skippedPages: [])
        let realLength = (0..<field).reversed().map { UInt8(truncatingIfNeeded: message.count >> (8 * $0)) }
        let unchanged = oldLength == message.count && knows(message, at: field)
        if !unchanged, oldLength != 0 {
            try update(offset: 0, [UInt8](repeating: 0, count: field), into: &result)
        }
        var offset = field
        for piece in message.chunked(writePiece) {
            result.pages[offset] = piece
            if knows(piece, at: offset) {
                result.skippedPages.append(offset)
            } else {
                try update(offset: offset, piece, into: &result)
            }
            offset += piece.count
        }
        result.pages[0] = realLength
        if unchanged {
            result.skippedPages.insert(0, at: 0)
        } else {
            try update(offset: 0, realLength, into: &result)
        }
        return result
    }

    /// Reads back every unit of `written` (the length field and the body) and compares each byte; bytes in
    /// `mask` (file offsets) are not compared.
    ///
    /// - Throws: `TagError.verifyMismatch` naming the first unit that differs.
    public func verify(_ written: NDEFWriteResult, ignoring mask: [Range<Int>] = []) throws {
        let end = written.pages.map { $0.key + $0.value.count }.max() ?? 0
        knownFile = []
        let file = try readNDEFFile(atLeast: end)
        for (offset, bytes) in written.pages.sorted(by: { $0.key < $1.key }) {
            for (index, byte) in bytes.enumerated() where file[offset + index] != byte {
                let at = offset + index
                guard !mask.contains(where: { $0.contains(at) }) else { continue }
                knownFile = []
                throw TagError(
                    .verifyMismatch, "file byte \(at) reads \(file[at]), \(byte) was written", page: offset)
            }
        }
    }

    /// UPDATE BINARY of one unit, recorded in `result` and the known file bytes.
    private func update(offset: Int, _ bytes: [UInt8], into result: inout NDEFWriteResult) throws {
        do {
            try updateBinary(offset: offset, bytes)
        } catch let error as StatusWordError where error.kind == .securityStatus {
            throw TagError(.readOnly, "the tag refused UPDATE BINARY: \(error)", page: offset, cause: error)
        }
        result.writtenPages.append(offset)
        guard offset <= knownFile.count else { return }
        let end = offset + bytes.count
        knownFile = Array(knownFile.prefix(offset)) + bytes + (knownFile.count > end ? Array(knownFile[end...]) : [])
    }

    /// Whether the file bytes at `offset` are known and equal to `bytes`.
    private func knows(_ bytes: [UInt8], at offset: Int) -> Bool {
        offset + bytes.count <= knownFile.count && Array(knownFile[offset..<(offset + bytes.count)]) == bytes
    }
}
