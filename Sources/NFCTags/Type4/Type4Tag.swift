/// NFC Forum Type 4 tag operations over a `Transceiver` that carries ISO/IEC 7816-4 APDUs on ISO-DEP
/// (`docs/reference/type4.md` §1): SELECT, READ BINARY and UPDATE BINARY, with every exchange counted.
///
/// One instance per selected tag, used from the reader's queue (not `Sendable`, like the transceiver).
/// The ISO-DEP block protocol (I-blocks, chaining, WTX) belongs to the reader path below the seam: the
/// PN532's InDataExchange, the PC/SC reader, or the emulator.
public final class Type4Tag {
    /// The transceiver of the selected tag.
    public let transceiver: any Transceiver
    /// Every exchange so far (APDUs sent, UPDATE BINARY among them, re-activations, modelled airtime).
    public private(set) var total = TagOperationCost(name: "total")
    /// The APDU timeout: the NTAG 424 DNA's FWT is 38.7 ms, WTX may extend it (§1.1).
    public var timeoutMilliseconds = 200
    /// The capability container, once read (`readCapabilityContainer`).
    public internal(set) var capabilityContainer: Type4CapabilityContainer?
    /// Whether the tag answered only to the mapping 1.0 application name.
    public internal(set) var legacyMapping = false
    /// The file selected last (`nil`: none, or the application was selected since).
    var selectedFile: UInt16?
    /// Whether the NDEF Tag Application is selected (cleared by another SELECT by name and by re-activation).
    var applicationSelected = false
    /// The leading bytes of the NDEF file as last read or written (length field first).
    var knownFile: [UInt8] = []

    /// Wraps the transceiver of a selected ISO-DEP tag.
    public init(transceiver: any Transceiver) {
        self.transceiver = transceiver
    }

    /// Sends one APDU and returns its response, whatever the status word.
    ///
    /// - Throws: `TransportError` for silence, a lost tag, a reader fault or an answer without a status word.
    public func exchange(_ command: CommandAPDU) throws(TransportError) -> ResponseAPDU {
        let before = transceiver.modelledAirtimeMicroseconds
        total.exchanges += 1
        if command.cla == 0x00, command.ins == 0xD6 { total.writes += 1 }
        defer {
            if let after = transceiver.modelledAirtimeMicroseconds {
                total.airtimeMicroseconds = (total.airtimeMicroseconds ?? 0) + after - (before ?? 0)
            }
        }
        return try ResponseAPDU(transceiver.transceive(command.bytes, timeoutMilliseconds: timeoutMilliseconds))
    }

    /// Sends one APDU and returns its data when the status word is `9000`.
    ///
    /// - Throws: `StatusWordError` for any other status word, `TransportError` as `exchange`.
    public func send(_ command: CommandAPDU) throws -> [UInt8] {
        let response = try exchange(command)
        guard response.status == 0x9000 else {
            throw StatusWordError(status: response.status, instruction: command.ins)
        }
        return response.data
    }

    /// SELECT by DF name `00 A4 04 00 Lc name [00]` (the NDEF Tag Application, §1.2).
    public func selectApplication(_ name: [UInt8], expectingAnswer: Bool = true) throws {
        selectedFile = nil
        applicationSelected = false
        _ = try send(CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x00, data: name, le: expectingAnswer ? 256 : nil))
    }

    /// SELECT by file identifier, no FCI: `00 A4 00 0C 02 FID` (§1.2).
    public func selectFile(_ identifier: UInt16) throws {
        guard selectedFile != identifier else { return }
        selectedFile = nil
        _ = try send(
            CommandAPDU(ins: 0xA4, p1: 0x00, p2: 0x0C, data: [UInt8(identifier >> 8), UInt8(identifier & 0xFF)]))
        selectedFile = identifier
    }

    /// READ BINARY `00 B0 offset Le` of the selected file: up to `count` (1–256) bytes from `offset`
    /// (0–7FFF); a tag may return fewer where the file ends (§1.4).
    public func readBinary(offset: Int, count: Int) throws -> [UInt8] {
        precondition((0...0x7FFF).contains(offset), "READ BINARY offsets are 15 bits")
        return try send(CommandAPDU(ins: 0xB0, p1: UInt8(offset >> 8), p2: UInt8(offset & 0xFF), le: count))
    }

    /// UPDATE BINARY `00 D6 offset Lc data` of the selected file (1–255 bytes at 0–7FFF).
    public func updateBinary(offset: Int, _ data: [UInt8]) throws {
        precondition((0...0x7FFF).contains(offset), "UPDATE BINARY offsets are 15 bits")
        _ = try send(CommandAPDU(ins: 0xD6, p1: UInt8(offset >> 8), p2: UInt8(offset & 0xFF), data: data))
    }

    /// Selects the tag again (`Transceiver.reactivate`), which also ends any application selection.
    public func reactivate() throws(TransportError) {
        total.reactivations += 1
        selectedFile = nil
        applicationSelected = false
        try transceiver.reactivate()
    }
}
