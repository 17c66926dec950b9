import NFCTags

/// The ISO/IEC 15693-3 command set of the emulated VICC (`docs/reference/type5.md` §1.3, §1.4, §1.7, §1.9).
extension Type5Emulator {
    /// The answer to one request (`nil`: silence), after the addressing rules of §1.9.
    func respond(to frame: [UInt8]) -> [UInt8]? {
        guard let request = ISO15693Request(frame: frame) else { return nil }
        let flags = request.flags
        if flags.contains(.inventory) { return inventory(request) }
        if let address = request.uid {
            guard address == uid else { return nil }
        } else if flags.contains(.select) {
            guard state == .selected else { return nil }
        } else if state == .quiet {
            return nil
        }
        let option = flags.contains(.option)
        let parameters = request.parameters
        switch request.command {
        case 0x02:
            guard request.uid != nil else { return nil }
            state = .quiet
            return nil
        case 0x20:
            guard parameters.count == 1 else { return error(0x02) }
            return read(first: Int(parameters[0]), count: 1, securityStatus: option)
        case 0x23:
            guard parameters.count == 2 else { return error(0x02) }
            return read(first: Int(parameters[0]), count: Int(parameters[1]) + 1, securityStatus: option)
        case 0x21:
            guard parameters.count == 1 + chip.blockSize else { return error(0x02) }
            if option && !chip.acceptsOptionFlagOnWrites { return error(ISO15693Error.optionNotSupported) }
            return write(block: Int(parameters[0]), Array(parameters.dropFirst()))
        case 0x22:
            guard parameters.count == 1 else { return error(0x02) }
            if option && !chip.acceptsOptionFlagOnWrites { return error(ISO15693Error.optionNotSupported) }
            return lock(block: Int(parameters[0]))
        case 0x25:
            guard request.uid != nil else { return error(0x02) }
            state = .selected
            return [0x00]
        case 0x26:
            state = .ready
            return [0x00]
        case 0x2B:
            return [0x00] + chip.systemInformation(uid: uid, dsfid: dsfid, afi: afi).encoded(extended: false)
        case 0x3B:
            guard chip.answersExtendedSystemInformation else { return error(ISO15693Error.commandNotSupported) }
            guard parameters.count == 1 else { return error(0x02) }
            var information = chip.systemInformation(uid: uid, dsfid: dsfid, afi: afi)
            let asked = parameters[0]
            if asked & 0x01 == 0 { information.dsfid = nil }
            if asked & 0x02 == 0 { information.afi = nil }
            if asked & 0x04 == 0 { (information.blockCount, information.blockSize) = (nil, nil) }
            if asked & 0x08 == 0 { information.icReference = nil }
            return [0x00] + information.encoded(extended: true)
        case 0x2C:
            guard parameters.count == 2 else { return error(0x02) }
            let first = Int(parameters[0])
            let count = Int(parameters[1]) + 1
            guard first + count <= chip.blockCount else { return error(ISO15693Error.blockNotAvailable) }
            return [0x00] + locked[first..<first + count].map { $0 ? 0x01 : 0x00 }
        case 0xA0...0xDF:
            return nil
        default:
            return silentToUnknownCommands ? nil : error(ISO15693Error.commandNotSupported)
        }
    }

    /// Inventory `01` with one slot: `00 DSFID UID` (LSB first); a mask must match the UID's low bits.
    func inventory(_ request: ISO15693Request) -> [UInt8]? {
        guard request.command == 0x01, state != .quiet, let maskBits = request.parameters.first.map(Int.init)
        else { return nil }
        let airUID = Array(uid.reversed())
        let mask = Array(request.parameters.dropFirst())
        guard maskBits <= 64, mask.count == (maskBits + 7) / 8 else { return nil }
        for bit in 0..<maskBits where (mask[bit / 8] >> (bit % 8)) & 1 != (airUID[bit / 8] >> (bit % 8)) & 1 {
            return nil
        }
        return [0x00, dsfid] + airUID
    }

    /// `01 EC`.
    func error(_ code: UInt8) -> [UInt8] { [0x01, code] }

    /// Read Single/Multiple Blocks: data (with the option flag, each block's status byte first).
    func read(first: Int, count: Int, securityStatus: Bool) -> [UInt8] {
        guard first + count <= chip.blockCount else { return error(ISO15693Error.blockNotAvailable) }
        var answer: [UInt8] = [0x00]
        for block in first..<first + count {
            if securityStatus { answer.append(locked[block] ? 0x01 : 0x00) }
            answer += memory[block * chip.blockSize..<(block + 1) * chip.blockSize]
        }
        return answer
    }

    /// Write Single Block: `01 12` when locked, `01 13` for an `eepromErrorPages` block, else programmed.
    func write(block: Int, _ data: [UInt8]) -> [UInt8] {
        guard block < chip.blockCount else { return error(ISO15693Error.blockNotAvailable) }
        guard !locked[block] else { return error(ISO15693Error.blockLocked) }
        guard !faults.eepromErrorPages.contains(block) else { return error(ISO15693Error.blockNotProgrammed) }
        memory.replaceSubrange(block * chip.blockSize..<(block + 1) * chip.blockSize, with: data)
        onMemoryWritten?()
        return [0x00]
    }

    /// Lock Block: `01 11` when already locked, else locked for good.
    func lock(block: Int) -> [UInt8] {
        guard block < chip.blockCount else { return error(ISO15693Error.blockNotAvailable) }
        guard !locked[block] else { return error(ISO15693Error.blockAlreadyLocked) }
        locked[block] = true
        onMemoryWritten?()
        return [0x00]
    }
}
