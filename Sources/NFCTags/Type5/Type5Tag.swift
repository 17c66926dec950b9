/// ISO/IEC 15693-3 commands to one VICC over a `Transceiver` (`docs/reference/type5.md` §1.2–1.4), every exchange
/// counted.
///
/// Requests are addressed (flags `22`) once the UID is known, at the high data rate; write-alikes carry the
/// option flag only when `optionFlagOnWrites` is set (TI parts, or the CC's special-frame bit). An answer
/// `01 EC` throws `ISO15693Error`; silence, a lost tag or an answer without a flags byte is a `TransportError`.
/// One instance per selected tag, used from the reader's queue (not `Sendable`, like the transceiver).
public final class Type5Tag {
    /// The transceiver of the selected tag.
    public let transceiver: any Transceiver
    /// The UID (display order), which addresses every request once known.
    public var uid: [UInt8]?
    /// Flags every request starts from (`02`: high data rate, one sub-carrier).
    public var baseFlags: ISO15693Request.Flags = .highDataRate
    /// Whether Write Single Block and Lock Block carry the option flag (§1.7).
    public var optionFlagOnWrites = false
    /// Whether block numbers are 2 bytes (a CC with magic `E2`): the extended commands `30`–`33`, `3C`, block
    /// numbers and counts LSB first (§1.3, §2.1).
    public var extendedAddressing = false
    /// Every exchange so far.
    public private(set) var total = TagOperationCost(name: "total")
    /// The answer timeout: FDT_V,LISTEN,MAX2 ≈ 20 ms for write-alikes, with a margin (§1.7).
    public var timeoutMilliseconds = 40

    /// Wraps the transceiver of a VICC whose UID (display order) the inventory gave.
    public init(transceiver: any Transceiver, uid: [UInt8]? = nil) {
        self.transceiver = transceiver
        self.uid = uid
    }

    /// Sends `command` with `parameters` (addressed when the UID is known) and returns the answer after
    /// its `00` flags byte.
    ///
    /// - Throws: `ISO15693Error` for an error answer, `TransportError` for silence, loss or a bad frame.
    public func send(
        _ command: ISO15693Request.Command, _ parameters: [UInt8] = [], option: Bool = false
    ) throws -> [UInt8] {
        var flags = baseFlags
        if option { flags.insert(.option) }
        let request = ISO15693Request(command, flags: flags, uid: uid, parameters: parameters)
        let before = transceiver.modelledAirtimeMicroseconds
        total.exchanges += 1
        if command.isWriteAlike { total.writes += 1 }
        defer {
            if let after = transceiver.modelledAirtimeMicroseconds {
                total.airtimeMicroseconds = (total.airtimeMicroseconds ?? 0) + after - (before ?? 0)
            }
        }
        let answer = try transceiver.transceive(request.bytes, timeoutMilliseconds: timeoutMilliseconds)
        guard let flagsByte = answer.first else { throw TransportError.invalidResponse("empty ISO 15693 answer") }
        if flagsByte & 0x01 != 0 {
            guard answer.count == 2 else {
                throw TransportError.invalidResponse("error answer of \(answer.count) bytes, expected 2")
            }
            throw ISO15693Error(code: answer[1], command: command.rawValue)
        }
        return Array(answer.dropFirst())
    }

    /// Inventory `01`, one slot, no mask (flags `26`): the DSFID and the UID (display order); not addressed.
    public func inventory() throws -> (dsfid: UInt8, uid: [UInt8]) {
        let request = [baseFlags.union([.inventory, .address]).rawValue, 0x01, 0x00]
        total.exchanges += 1
        let answer = try transceiver.transceive(request, timeoutMilliseconds: timeoutMilliseconds)
        guard answer.count == 10, answer[0] == 0x00 else {
            throw TransportError.invalidResponse("Inventory answer of \(answer.count) bytes, expected 10")
        }
        let found = Array(answer[2...].reversed())
        uid = found
        return (answer[1], found)
    }

    /// A block number (or count − 1) as the addressing sends it: 1 byte, or 2 bytes LSB first.
    func number(_ value: Int) -> [UInt8] {
        extendedAddressing
            ? [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
            : [UInt8(truncatingIfNeeded: value)]
    }

    /// Read Single Block `20` (extended: `30`): the block's data (with the option flag, its security status first).
    public func readSingleBlock(_ block: Int, securityStatus: Bool = false) throws -> [UInt8] {
        try send(
            extendedAddressing ? .extendedReadSingleBlock : .readSingleBlock, number(block), option: securityStatus)
    }

    /// Read Multiple Blocks `23` (extended: `33`) of `count` blocks from `first` (`nb−1` on the air), `blockSize`
    /// bytes each.
    public func readMultipleBlocks(first: Int, count: Int, blockSize: Int) throws -> [UInt8] {
        let command: ISO15693Request.Command = extendedAddressing ? .extendedReadMultipleBlocks : .readMultipleBlocks
        let data = try send(command, number(first) + number(count - 1))
        guard data.count == count * blockSize else {
            throw TransportError.invalidResponse("Read Multiple Blocks gave \(data.count) bytes for \(count) blocks")
        }
        return data
    }

    /// Write Single Block `21` (extended: `31`) of `data` (one block).
    public func writeSingleBlock(_ block: Int, _ data: [UInt8], ignoringNotProgrammed: Bool = false) throws {
        let command: ISO15693Request.Command = extendedAddressing ? .extendedWriteSingleBlock : .writeSingleBlock
        do {
            _ = try send(command, number(block) + data, option: optionFlagOnWrites)
        } catch let error as ISO15693Error where ignoringNotProgrammed && error.code == ISO15693Error.blockNotProgrammed
        {
            return
        }
    }

    /// Lock Block `22` (extended: `32`; irreversible).
    public func lockBlock(_ block: Int, ignoringNotProgrammed: Bool = false) throws {
        do {
            _ = try send(
                extendedAddressing ? .extendedLockBlock : .lockBlock, number(block), option: optionFlagOnWrites)
        } catch let error as ISO15693Error where ignoringNotProgrammed && error.code == ISO15693Error.blockNotProgrammed
        {
            return
        }
    }

    /// Get System Information `2B`.
    public func getSystemInformation() throws -> Type5SystemInformation {
        let data = try send(.getSystemInformation)
        guard let information = Type5SystemInformation(data, extended: false) else {
            throw TransportError.invalidResponse("Get System Information answer is shorter than its info flags say")
        }
        return information
    }

    /// Extended Get System Information `3B` asking for DSFID, AFI, memory size and IC reference (`0F`).
    public func extendedGetSystemInformation() throws -> Type5SystemInformation {
        let data = try send(.extendedGetSystemInformation, [0x0F])
        guard let information = Type5SystemInformation(data, extended: true) else {
            throw TransportError.invalidResponse("Extended Get System Information answer is too short")
        }
        return information
    }

    /// Get Multiple Block Security Status `2C` (extended: `3C`): one status byte per block (`01`: locked).
    public func getMultipleBlockSecurityStatus(first: Int, count: Int) throws -> [UInt8] {
        let command: ISO15693Request.Command =
            extendedAddressing ? .extendedGetMultipleBlockSecurityStatus : .getMultipleBlockSecurityStatus
        let data = try send(command, number(first) + number(count - 1))
        guard data.count == count else {
            throw TransportError.invalidResponse("security status of \(data.count) blocks, asked for \(count)")
        }
        return data
    }

    /// Re-activates (`Transceiver.reactivate`: the reader resets the field and runs the inventory again).
    public func reactivate() throws(TransportError) {
        total.reactivations += 1
        try transceiver.reactivate()
    }
}
