import NFCTags

/// Command handlers in ACTIVE/AUTHENTICATED state (`docs/reference/type2.md` §3).
extension NTAGEmulator {
    /// Routes one command frame (no CRC) to its handler.
    func dispatch(_ command: [UInt8]) -> TagAnswer {
        guard let code = command.first else { return fail(0x00) }
        if let page = pendingCompatibilityWrite {
            pendingCompatibilityWrite = nil
            guard command.count == 16 else { return fail(0x00) }
            return write(page: page, Array(command[0..<4]))
        }
        switch (code, command.count) {
        case (0x60, 1): return .data(chip.version)
        case (0x30, 2): return read(Int(command[1]))
        case (0x3A, 3): return fastRead(from: Int(command[1]), to: Int(command[2]))
        case (0xA2, 6): return checkedWrite(page: Int(command[1]), Array(command[2..<6]))
        case (0xA0, 2): return compatibilityWritePart1(page: Int(command[1]))
        case (0x39, 2): return readCounter(Int(command[1]))
        case (0x1B, 5): return passwordAuthenticate(Array(command[1..<5]))
        case (0x3C, 2): return command[1] == 0x00 ? .data(signature) : fail(0x00)
        case (0x50, 2) where command[1] == 0x00:
            state = .halt
            return .silence
        case (0xA5, 6) where !chip.isNTAG: return incrementCounter(Int(command[1]), Array(command[2..<5]))
        case (0x3E, 2) where !chip.isNTAG: return command[1] <= 2 ? .data([0xBD]) : fail(0x00)
        case (0x60, _), (0x30, _), (0x3A, _), (0xA2, _), (0xA0, _), (0x39, _), (0x1B, _), (0x3C, _):
            return fail(0x00)
        default:
            guard configuration.unknownCommandAnswer == .nak else {
                state = wokenFromHalt ? .halt : .idle
                return .silence
            }
            return fail(0x00)
        }
    }

    /// READ `30 AA`: 4 pages with roll-over; under PROT unauthenticated the window wraps at AUTH0 (§3.3).
    func read(_ address: Int) -> TagAnswer {
        guard address <= chip.lastPage else { return fail(0x00) }
        var limit = chip.pageCount
        if readProtected && !isAuthenticated {
            guard address < auth0 else { return fail(0x00) }
            limit = min(auth0, chip.pageCount)
        }
        let counter = countRead()
        return .data(readAnswer(pages: (0..<4).map { (address + $0) % limit }, counter: counter))
    }

    /// FAST_READ `3A SS EE`: pages SS…EE, no roll-over (§3.4).
    func fastRead(from start: Int, to end: Int) -> TagAnswer {
        guard start <= chip.lastPage, end <= chip.lastPage, end >= start else { return fail(0x00) }
        if readProtected && !isAuthenticated && end >= auth0 { return fail(0x00) }
        let counter = countRead()
        return .data(readAnswer(pages: Array(start...end), counter: counter))
    }

    /// The access checks of §3.5 steps 1–4, in order; `nil` when the write may proceed.
    func writeRefusal(page: Int) -> TagAnswer? {
        if page > chip.lastPage || page < 2 { return fail(0x00) }
        if page >= auth0 && !isAuthenticated { return fail(0x00) }
        if isLocked(page) { return fail(0x00) }
        if configLocked && (page == chip.cfg0Page || page == chip.cfg1Page) { return fail(0x00) }
        return nil
    }

    /// WRITE `A2 AA d0 d1 d2 d3` (§3.5).
    func checkedWrite(page: Int, _ data: [UInt8]) -> TagAnswer {
        if let refusal = writeRefusal(page: page) { return refusal }
        return write(page: page, data)
    }

    /// COMPATIBILITY_WRITE part 1 `A0 AA`: checks the address, ACKs, and waits for 16 data bytes.
    func compatibilityWritePart1(page: Int) -> TagAnswer {
        if let refusal = writeRefusal(page: page) { return refusal }
        pendingCompatibilityWrite = page
        return .ack
    }

    /// Programs an accepted write with the OTP/lock semantics of §3.5 step 5.
    func write(page: Int, _ data: [UInt8]) -> TagAnswer {
        if !faults.eepromErrorPages.isEmpty && faults.eepromErrorPages.contains(page) {
            programmedThisExchange = true
            return fail(0x05)
        }
        let value: [UInt8]
        switch page {
        case 2: value = mergedStaticLocks(data)
        case 3: value = zip(storedPage(3), data).map { $0 | $1 }
        case chip.dynamicLockPage: value = mergedDynamicLocks(page: page, data)
        default: value = data
        }
        program(page: page, value)
        return .ack
    }

    /// READ_CNT `39 nn` (§3.7; EV1 counters 0–2 per §2.7).
    func readCounter(_ number: Int) -> TagAnswer {
        let value: UInt32
        if chip.isNTAG {
            guard number == 2, counterEnabled, !counterProtected || isAuthenticated else { return fail(0x00) }
            value = nfcCounter
        } else {
            guard number <= 2 else { return fail(0x00) }
            value = ev1Counters[number]
        }
        return .data([UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)])
    }

    /// EV1 INCR_CNT `A5 nn c0 c1 c2 00`: 24-bit increment, NAK `4` on overflow (§2.7).
    func incrementCounter(_ number: Int, _ increment: [UInt8]) -> TagAnswer {
        guard number <= 2 else { return fail(0x00) }
        let amount = UInt32(increment[0]) | UInt32(increment[1]) << 8 | UInt32(increment[2]) << 16
        guard ev1Counters[number] + amount <= 0xFF_FFFF else { return fail(0x04) }
        ev1Counters[number] += amount
        programmedThisExchange = true
        return .ack
    }

    /// PWD_AUTH `1B p0 p1 p2 p3` → PACK; AUTHLIM counting and lock-out with NAK `4` (§3.6).
    func passwordAuthenticate(_ password: [UInt8]) -> TagAnswer {
        let limit = authLimit
        if limit > 0 && authenticationFailures >= limit { return fail(0x04) }
        if password == storedPage(chip.pwdPage) {
            authenticationFailures = 0
            state = .authenticated
            return .data(Array(storedPage(chip.packPage).prefix(2)))
        }
        if limit > 0 {
            authenticationFailures = min(authenticationFailures + 1, 7)
            if authenticationFailures >= limit { return fail(0x04) }
        }
        guard configuration.wrongPasswordAnswer == .nak else {
            state = wokenFromHalt ? .halt : .idle
            return .silence
        }
        return fail(0x00)
    }
}
