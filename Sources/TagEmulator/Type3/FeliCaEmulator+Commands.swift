import NFCTags

/// Polling `00`, Read Without Encryption `06` and Write Without Encryption `08` of the Lite-S
/// (`docs/reference/type3.md` §1.2, §2.4), with their airtime at 212 kbit/s (§1.1).
extension FeliCaEmulator {
    /// The answer to a well-framed command for this card, `nil` for silence; airtime is added.
    func respond(to command: [UInt8]) -> [UInt8]? {
        switch command[1] {
        case 0x00:
            guard let answer = poll(command) else { return nil }
            airtimeMicroseconds += pollingAirtime(answer)
            return answer
        case 0x06, 0x08:
            guard command.count >= 14, Array(command[2..<10]) == uid else { return nil }
            let answer = command[1] == 0x06 ? read(command) : write(command)
            let written = command[1] == 0x08 && command.count > 13 ? Int(command[13]) : 1
            let blocks = command[1] == 0x06 && answer.count > 13 ? (answer.count - 13) / 16 : max(written, 1)
            airtimeMicroseconds +=
                FeliCaTiming.frameMicroseconds(len: command.count) + FeliCaTiming.frameMicroseconds(len: answer.count)
                + processingMicroseconds(write: command[1] == 0x08, blocks: blocks)
            return answer
        case 0x04 where standard && command.count == 10 && Array(command[2..<10]) == uid:
            return [0x0B, 0x05] + uid + [0x00]  // Request Response: mode 0
        default:
            return nil  // Request Response 04, Request Service 02, Request System Code 0C: a Lite-S lacks them
        }
    }

    /// Polling `06 00 SC RC TSN`: `FFFF`, `88B4`, and `12FC` when SYS_OP bit 0 is set; RC `01` appends the
    /// system code (`configuration.wildcardSystemCode` for `FFFF`).
    func poll(_ command: [UInt8]) -> [UInt8]? {
        guard command.count == 6 else { return nil }
        let code = UInt16(command[2]) << 8 | UInt16(command[3])
        let answered: UInt16
        if standard {  // the NDEF system is this card's only system
            guard code == 0xFFFF || code == 0x12FC else { return nil }
            answered = 0x12FC
        } else {
            let ndef = memoryConfiguration.ndefEnabled
            switch code {
            case 0xFFFF: answered = ndef ? configuration.wildcardSystemCode : FeliCaLiteS.systemCode
            case FeliCaLiteS.systemCode: answered = code
            case 0x12FC where ndef: answered = code
            default: return nil
            }
        }
        let body = [0x01] + uid + pmm + (command[4] == 0x01 ? [UInt8(answered >> 8), UInt8(answered & 0xFF)] : [])
        return [UInt8(body.count + 1)] + body
    }

    /// Polling airtime: the request, slot 0 (2.417 ms after it), the answer.
    func pollingAirtime(_ answer: [UInt8]) -> Double {
        FeliCaTiming.frameMicroseconds(len: 6) + FeliCaTiming.pollingSlotZeroMicroseconds
            + FeliCaTiming.frameMicroseconds(len: answer.count)
    }

    /// The chip's processing time: the assumed read or write time, capped by the PMm bound (PMm[5] / PMm[6]).
    func processingMicroseconds(write: Bool, blocks: Int) -> Double {
        let bound = FeliCaTiming.maximumResponseMicroseconds(pmm[write ? 6 : 5], blocks: blocks)
        let assumed = write ? configuration.writeMicroseconds * Double(blocks) : configuration.readMicroseconds
        return min(assumed, bound)
    }

    /// The services and block list of a Read or Write, or the status flags refusing them.
    private func request(_ command: [UInt8], write: Bool) -> Result<([BlockListElement], Int), StatusFlags> {
        let services = Int(command[10])
        guard services == 1, command.count >= 14 else { return .failure(StatusFlags(0xFF, 0xA1)) }
        let service = UInt16(command[11]) | UInt16(command[12]) << 8
        let allowed: Set<UInt16> =
            write ? [0x0009] : configuration.readAcceptsWriteService ? [0x000B, 0x0009] : [0x000B]
        guard allowed.contains(service) else { return .failure(StatusFlags(0x01, 0xA6)) }
        let count = Int(command[13])
        guard let (elements, end) = BlockListElement.parse(command, at: 14, count: count) else {
            return .failure(StatusFlags(0xFF, 0xA2))
        }
        return .success((elements, end))
    }

    /// Read `06`: one service, 1…4 blocks that exist (1…8 on the Standard card; MAC `81` is not modelled and
    /// refused).
    func read(_ command: [UInt8]) -> [UInt8] {
        switch request(command, write: false) {
        case .failure(let flags): return answer(0x07, flags)
        case .success(let (elements, end)):
            guard (1...(standard ? Self.standardBlocksPerRead : 4)).contains(elements.count), end == command.count
            else {
                return answer(0x07, StatusFlags(0x01, 0xA2))
            }
            var data: [UInt8] = []
            for element in elements {
                guard element.serviceIndex == 0, let block = readable(element.block) else {
                    return answer(0x07, StatusFlags(configuration.missingBlockStatus))
                }
                data += block
            }
            return answer(0x07, StatusFlags(0, 0), [UInt8(elements.count)] + data)
        }
    }

    /// What Read shows of `block`: CK reads as zeros (write-only), RC and MAC are not modelled.
    private func readable(_ block: Int) -> [UInt8]? {
        if standard { return blocks[block] }
        guard block != FeliCaLiteS.rc, block != FeliCaLiteS.mac, let bytes = blocks[block] else { return nil }
        return block == FeliCaLiteS.ck ? [UInt8](repeating: 0, count: 16) : bytes
    }

    /// Write `08`: service `0009`, one block, writable under MC (§1.5); WCNT counts it. The Standard card takes
    /// 1…4 blocks of its NDEF service (`writeStandard`).
    func write(_ command: [UInt8]) -> [UInt8] {
        switch request(command, write: true) {
        case .failure(let flags): return answer(0x09, flags)
        case .success(let (elements, end)) where standard: return writeStandard(command, elements, end)
        case .success(let (elements, end)):
            guard elements.count == 1, command.count == end + 16 else { return answer(0x09, StatusFlags(0x01, 0xA2)) }
            let block = elements[0].block
            guard blocks[block] != nil else { return answer(0x09, StatusFlags(configuration.missingBlockStatus)) }
            guard writable(block) else { return answer(0x09, StatusFlags(configuration.refusedWriteStatus)) }
            var data = Array(command[end...])
            if block == FeliCaLiteS.dID || block == FeliCaLiteS.wcnt { return answer(0x09, refused) }
            if block == FeliCaLiteS.mc { data = mergedMC(data) }
            blocks[block] = data
            if configuration.countsWrites { countWrite() }
            onMemoryWritten?()
            return answer(0x09, StatusFlags(0, 0))
        }
    }

    /// Write `08` on the Standard card: 1…4 existing blocks of service index 0, all written or none.
    private func writeStandard(_ command: [UInt8], _ elements: [BlockListElement], _ end: Int) -> [UInt8] {
        guard (1...Self.standardBlocksPerWrite).contains(elements.count), command.count == end + 16 * elements.count
        else { return answer(0x09, StatusFlags(0x01, 0xA2)) }
        guard elements.allSatisfy({ $0.serviceIndex == 0 && blocks[$0.block] != nil }) else {
            return answer(0x09, StatusFlags(configuration.missingBlockStatus))
        }
        for (index, element) in elements.enumerated() {
            blocks[element.block] = Array(command[(end + 16 * index)..<(end + 16 * index + 16)])
        }
        onMemoryWritten?()
        return answer(0x09, StatusFlags(0, 0))
    }

    private var refused: StatusFlags { StatusFlags(configuration.refusedWriteStatus) }

    /// Whether MC lets `block` be written without MAC_A.
    private func writable(_ block: Int) -> Bool {
        let mc = memoryConfiguration
        switch block {
        case FeliCaLiteS.userBlocks: return mc.allowsWrite(userBlock: block)
        case FeliCaLiteS.reg: return mc.writableBlocks >> 14 & 1 == 1
        case FeliCaLiteS.rc, FeliCaLiteS.ck, FeliCaLiteS.ckv, FeliCaLiteS.macA, FeliCaLiteS.state:
            return false  // authentication blocks: the MAC is not modelled
        default: return mc.systemBlocksWritable
        }
    }

    /// MC as written: bytes 12–15 (RFU/state) keep their value.
    private func mergedMC(_ data: [UInt8]) -> [UInt8] { Array(data[0..<12]) + blocks[FeliCaLiteS.mc]![12..<16] }

    /// WCNT (`90`, 3 bytes little-endian) + 1.
    private func countWrite() {
        var counter = blocks[FeliCaLiteS.wcnt]!
        let value = (Int(counter[0]) | Int(counter[1]) << 8 | Int(counter[2]) << 16) + 1
        (counter[0], counter[1], counter[2]) = (
            UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)
        )
        blocks[FeliCaLiteS.wcnt] = counter
    }

    private func answer(_ code: UInt8, _ flags: StatusFlags, _ tail: [UInt8] = []) -> [UInt8] {
        let body = [code] + uid + [flags.flag1, flags.flag2] + tail
        return [UInt8(body.count + 1)] + body
    }
}

/// Status flags SF1 SF2.
struct StatusFlags: Error {
    var flag1: UInt8
    var flag2: UInt8
    init(_ flag1: UInt8, _ flag2: UInt8) { (self.flag1, self.flag2) = (flag1, flag2) }
    init(_ bytes: [UInt8]) { self.init(bytes[0], bytes[1]) }
}
