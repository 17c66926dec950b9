import NDEF

/// One FeliCa card on a transceiver: Polling `00`, Read Without Encryption `06` and Write Without Encryption
/// `08` (`docs/reference/type3.md` §1.2), addressed to the IDm of the last Polling answer, with their cost counted.
///
/// Not `Sendable`: confined to the reader queue of its transceiver.
public final class Type3Tag {
    /// The transceiver frames go through (LEN-prefixed FeliCa frames, no CRC).
    public let transceiver: any Transceiver
    /// The last Polling answer (the NDEF system's after `pollNDEF()`).
    public private(set) var activation: FeliCaActivation?
    /// Everything sent so far.
    public private(set) var total = TagOperationCost(name: "type3")
    /// The read and write service codes: `000B` and `0009` (`docs/reference/type3.md` §1.3).
    public static let readService: UInt16 = 0x000B, writeService: UInt16 = 0x0009
    /// The Polling wait: slot 0 starts 2.417 ms after the request (`docs/reference/type3.md` §1.1); generous here.
    static let pollTimeoutMilliseconds = 20
    private let airtimeAtStart: Double

    /// A tag on `transceiver`, its IDm known from `activation` (or from the first Polling).
    public init(transceiver: any Transceiver, activation: FeliCaActivation? = nil) {
        self.transceiver = transceiver
        self.activation = activation
        self.airtimeAtStart = transceiver.modelledAirtimeMicroseconds ?? 0
    }

    /// The IDm commands are addressed to.
    public var idm: [UInt8] { activation?.idm ?? [] }

    /// Polling `06 00 SC RC=01 TSN=00` for `systemCode`; the answer becomes the current activation.
    ///
    /// - Throws: `TransportError.noAnswer` when no card has the system (a Lite-S without NDEF to `12FC`).
    @discardableResult
    public func poll(systemCode: UInt16) throws(TransportError) -> FeliCaActivation {
        let answer = try send(FeliCaCommand.polling(systemCode: systemCode), timeout: Self.pollTimeoutMilliseconds)
        let polled = try FeliCaCommand.parsePolling(answer)
        activation = polled
        return polled
    }

    /// Polling `12FC`: selects the NDEF system, whose IDm the ledger records.
    @discardableResult
    public func pollNDEF() throws(TransportError) -> FeliCaActivation { try poll(systemCode: 0x12FC) }

    /// Read Without Encryption `06` of `blocks` through service `service` (default `000B`), 16 bytes each.
    ///
    /// - Throws: `FeliCaStatusError` for refused blocks; `TransportError`.
    public func read(blocks: [Int], service: UInt16 = readService) throws -> [UInt8] {
        let elements = blocks.map { BlockListElement(block: $0) }
        let command = FeliCaCommand.read(idm: idm, services: [service], blocks: elements)
        let answer = try send(command, timeout: timeout(pmmIndex: 5, blocks: blocks.count))
        return try FeliCaCommand.parseAnswer(answer, to: 0x06, idm: idm, blocks: blocks.count)
    }

    /// Write Without Encryption `08` of `data` (16 bytes a block) to `blocks` through service `0009`.
    ///
    /// - Throws: `FeliCaStatusError` for refused blocks; `TransportError`.
    public func write(blocks: [Int], data: [UInt8]) throws {
        let elements = blocks.map { BlockListElement(block: $0) }
        let command = FeliCaCommand.write(idm: idm, services: [Self.writeService], blocks: elements, data: data)
        total.writes += 1
        let answer = try send(command, timeout: timeout(pmmIndex: 6, blocks: blocks.count))
        _ = try FeliCaCommand.parseAnswer(answer, to: 0x08, idm: idm, blocks: blocks.count)
    }

    /// Re-activates the tag (`Transceiver.reactivate`), then polls `12FC` again when the NDEF system was
    /// selected.
    public func reactivate() throws(TransportError) {
        total.reactivations += 1
        try transceiver.reactivate()
        if activation?.systemCode == 0x12FC { try pollNDEF() }
    }

    /// The maximum response time from PMm byte `k` (`docs/reference/type3.md` §1.1), `T = 302.1 µs × ((B+1)·n + (A+1))
    /// × 4^E`, rounded up to whole milliseconds plus 2 ms for the reader; 100 ms when PMm is unknown.
    func timeout(pmmIndex: Int, blocks: Int) -> Int {
        guard let pmm = activation?.pmm, pmm.count == 8 else { return 100 }
        return Int(FeliCaTiming.maximumResponseMicroseconds(pmm[pmmIndex], blocks: blocks) / 1000) + 3
    }

    private func send(_ command: [UInt8], timeout: Int) throws(TransportError) -> [UInt8] {
        total.exchanges += 1
        defer {
            if let air = transceiver.modelledAirtimeMicroseconds { total.airtimeMicroseconds = air - airtimeAtStart }
        }
        return try transceiver.transceive(command, timeoutMilliseconds: timeout)
    }
}

/// FeliCa timing at 212 kbit/s (`docs/reference/type3.md` §1.1).
public enum FeliCaTiming {
    /// One byte on the air: 8 bits of 64/fc = 37.76 µs.
    public static let byteMicroseconds = 37.76
    /// T_unit of the PMm formula: 256·16/fc = 302.06 µs.
    public static let unitMicroseconds = 302.06
    /// Slot 0 of a Polling answer starts 512·64/fc = 2.417 ms after the request.
    public static let pollingSlotZeroMicroseconds = 2417.0
    /// One Polling time slot is 256·64/fc = 1.208 ms wide.
    public static let pollingSlotMicroseconds = 1208.0

    /// The air duration of a frame with `len` (LEN counts itself and the payload): preamble 6, sync 2, CRC 2.
    public static func frameMicroseconds(len: Int) -> Double { Double(6 + 2 + len + 2) * byteMicroseconds }

    /// The maximum response time PMm byte `parameter` allows for `blocks` blocks:
    /// `T_unit × ((B+1)·n + (A+1)) × 4^E`, A = bits 0–2, B = bits 3–5, E = bits 6–7.
    public static func maximumResponseMicroseconds(_ parameter: UInt8, blocks: Int) -> Double {
        let a = Double(parameter & 7)
        let b = Double(parameter >> 3 & 7)
        let e = Int(parameter >> 6)
        return unitMicroseconds * ((b + 1) * Double(blocks) + (a + 1)) * Double(1 << (2 * e))
    }
}
