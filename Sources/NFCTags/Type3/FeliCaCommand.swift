import NDEF

/// FeliCa command frames as the reader carries them (`docs/reference/type3.md` §1.2): LEN (counting itself) then
/// the command code and its parameters; the reader adds preamble, sync and CRC. Building and parsing only.
public enum FeliCaCommand {
    /// Polling `00`: `06 00 SC_hi SC_lo RC TSN`.
    ///
    /// - Parameters:
    ///   - systemCode: `FFFF` any card, `12FC` the NDEF system, `88B4` Lite/Lite-S.
    ///   - requestCode: `00` none, `01` append the system code.
    ///   - timeSlots: TSN, time slots − 1 (`00`, `01`, `03`, `07`, `0F`).
    public static func polling(systemCode: UInt16, requestCode: UInt8 = 0x01, timeSlots: UInt8 = 0x00) -> [UInt8] {
        [0x06, 0x00, UInt8(systemCode >> 8), UInt8(systemCode & 0xFF), requestCode, timeSlots]
    }

    /// The answer to Polling: `12 01 IDm PMm`, or `14 01 IDm PMm SC` (system code big-endian).
    ///
    /// - Throws: `TransportError.invalidResponse` for another shape.
    public static func parsePolling(_ answer: [UInt8]) throws(TransportError) -> FeliCaActivation {
        guard answer.count == 0x12 || answer.count == 0x14, Int(answer[0]) == answer.count, answer[1] == 0x01 else {
            throw .invalidResponse("Polling answer \(Hex.string(answer))")
        }
        let code = answer.count == 0x14 ? UInt16(answer[18]) << 8 | UInt16(answer[19]) : nil
        return FeliCaActivation(idm: Array(answer[2..<10]), pmm: Array(answer[10..<18]), systemCode: code)
    }

    /// Read Without Encryption `06`: `LEN 06 IDm m SC… n BLE…` (service codes little-endian).
    public static func read(idm: [UInt8], services: [UInt16], blocks: [BlockListElement]) -> [UInt8] {
        frame(0x06, idm: idm, services: services, blocks: blocks, data: [])
    }

    /// Write Without Encryption `08`: `LEN 08 IDm m SC… n BLE… data[16·n]`.
    public static func write(idm: [UInt8], services: [UInt16], blocks: [BlockListElement], data: [UInt8]) -> [UInt8] {
        frame(0x08, idm: idm, services: services, blocks: blocks, data: data)
    }

    private static func frame(
        _ code: UInt8, idm: [UInt8], services: [UInt16], blocks: [BlockListElement], data: [UInt8]
    ) -> [UInt8] {
        var body = [code] + idm + [UInt8(services.count)]
        for service in services { body += [UInt8(service & 0xFF), UInt8(service >> 8)] }
        body.append(UInt8(blocks.count))
        for block in blocks { body += block.bytes }
        body += data
        return [UInt8(body.count + 1)] + body
    }

    /// The answer to Read (`07`) or Write (`09`) Without Encryption: the block data after `SF1 SF2 n`
    /// (empty for a write).
    ///
    /// - Throws: `FeliCaStatusError` for non-zero status flags; `TransportError.invalidResponse` for a wrong
    ///   code, IDm or length.
    public static func parseAnswer(_ answer: [UInt8], to code: UInt8, idm: [UInt8], blocks: Int) throws -> [UInt8] {
        guard answer.count >= 12, Int(answer[0]) == answer.count, answer[1] == code + 1,
            Array(answer[2..<10]) == idm
        else { throw TransportError.invalidResponse("answer to \(Hex.byte(code)): \(Hex.string(answer))") }
        guard answer[10] == 0 else { throw FeliCaStatusError(flag1: answer[10], flag2: answer[11]) }
        if code == 0x08 {
            guard answer.count == 12 else { throw TransportError.invalidResponse("Write answer \(Hex.string(answer))") }
            return []
        }
        guard answer.count == 13 + 16 * blocks, Int(answer[12]) == blocks else {
            throw TransportError.invalidResponse("Read answer of \(answer.count) bytes for \(blocks) blocks")
        }
        return Array(answer[13...])
    }
}

/// One block list element (`docs/reference/type3.md` §1.2): byte 0 = `D AAA SSSS` (D=1: 2-byte form with a 1-byte
/// block number; D=0: 3-byte form with a 2-byte little-endian block number), AAA the access mode, SSSS the
/// index into the service code list.
public struct BlockListElement: Sendable, Hashable {
    /// The block number.
    public var block: Int
    /// The index of the block's service in the command's service code list.
    public var serviceIndex: Int
    /// The access mode (`000` normally).
    public var accessMode: UInt8

    /// An element for `block` of service `serviceIndex`.
    public init(block: Int, serviceIndex: Int = 0, accessMode: UInt8 = 0) {
        self.block = block
        self.serviceIndex = serviceIndex
        self.accessMode = accessMode
    }

    /// The wire form: 2 bytes when the block number fits in one byte, else 3.
    public var bytes: [UInt8] {
        let head = (accessMode & 0x07) << 4 | UInt8(serviceIndex & 0x0F)
        if block <= 0xFF { return [0x80 | head, UInt8(block)] }
        return [head, UInt8(block & 0xFF), UInt8(block >> 8 & 0xFF)]
    }

    /// Parses the elements of a request: `count` elements from `bytes` at `offset`.
    ///
    /// - Returns: the elements and the offset after them; `nil` when the bytes run out.
    public static func parse(_ bytes: [UInt8], at offset: Int, count: Int) -> (elements: [Self], end: Int)? {
        var elements: [Self] = []
        var index = offset
        for _ in 0..<count {
            guard index < bytes.count else { return nil }
            let head = bytes[index]
            let long = head & 0x80 == 0
            guard index + (long ? 3 : 2) <= bytes.count else { return nil }
            let block = long ? Int(bytes[index + 1]) | Int(bytes[index + 2]) << 8 : Int(bytes[index + 1])
            elements.append(Self(block: block, serviceIndex: Int(head & 0x0F), accessMode: head >> 4 & 0x07))
            index += long ? 3 : 2
        }
        return (elements, index)
    }
}
