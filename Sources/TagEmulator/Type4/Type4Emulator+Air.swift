import NFCTags

/// The raw air face of the emulated Type 4 tag (`docs/reference/type4.md` §1.1): ISO/IEC 14443-3 REQA/WUPA,
/// anticollision and SELECT at both cascade levels, HLTA, RATS/ATS, and the ISO/IEC 14443-4 block layer
/// (I-blocks with chaining both ways, R(ACK)/R(NAK), S(DESELECT), optional S(WTX)). No block ever
/// carries a NAD.
extension Type4Emulator {
    /// One raw air frame, CRC_A included where the frame has one; answers likewise.
    ///
    /// ATQA (`44 03` for ATQA `0344`, LSB first) and anticollision answers carry no CRC; SAK, ATS and
    /// every block carry their CRC_A. A frame with a bad CRC, or a block for another CID, is ignored.
    /// Airtime adds one reader frame, the frame delay, the answer (or nothing) and the gap per frame.
    public func receiveRaw(_ frame: [UInt8], lastByteBits: Int) -> TagAnswer {
        guard isPresent, !frame.isEmpty else { return .silence }
        let rf = timing.rf
        if lastByteBits == 7 {
            guard frame.count == 1, frame[0] == 0x26 || frame[0] == 0x52 else { return .silence }
            if frame[0] == 0x26 && state == .halt { return .silence }
            resetVolatileState()
            state = .ready1
            airtimeMicroseconds += rf.shortFrame + rf.readerToTagDelay + rf.tagFrame(bytes: 2) + rf.tagToReaderGap
            return .data([UInt8(chip.atqa & 0xFF), UInt8(chip.atqa >> 8)])
        }
        switch state {
        case .idle, .halt:
            return .silence
        case .ready1:
            return cascade(frame, level: 1, next: .ready2)
        case .ready2:
            return cascade(frame, level: 2, next: .active)
        case .active, .protocolActive:
            guard CRCA.isValid(frame) else { return .silence }
            let body = Array(frame.dropLast(2))
            if body == [0x50, 0x00] {
                airtimeMicroseconds += rf.unanswered(command: 2)
                resetVolatileState()
                state = .halt
                return .silence
            }
            let answer = state == .active ? requestForAnswerToSelect(body) : block(body)
            guard let answer else {
                airtimeMicroseconds += rf.unanswered(command: body.count)
                return .silence
            }
            airtimeMicroseconds += timing.roundTrip(
                reader: frame.count, tag: answer.count + 2, processing: pendingProcessing)
            pendingProcessing = 0
            return .data(CRCA.appending(to: answer))
        }
    }

    /// RATS `E0 <FSDI CID>` → the ATS; the tag enters ISO-DEP with that FSD and CID.
    private func requestForAnswerToSelect(_ body: [UInt8]) -> [UInt8]? {
        guard body.count == 2, body[0] == 0xE0, body[1] & 0x0F != 0x0F else { return nil }
        link = ISODEPLink()
        link.readerFrameSize = ISODEPTiming.frameSize(code: body[1] >> 4)
        link.cid = body[1] & 0x0F
        state = .protocolActive
        return configuration.ats
    }

    /// One ISO-DEP block (CRC removed); `nil` is silence. A PPS request `D<CID> 11 <DSI DRI>` is
    /// acknowledged with its PPSS byte; the tag keeps timing the link at 106 kbit/s.
    private func block(_ body: [UInt8]) -> [UInt8]? {
        guard let pcb = body.first else { return nil }
        if pcb & 0xF0 == 0xD0 {
            guard pcb & 0x0F == link.cid, body.count >= 2, body[1] & 0xEF == 0x01 else { return nil }
            return [pcb]
        }
        var information = Array(body.dropFirst())
        if pcb & 0x08 != 0 {
            guard information.first.map({ $0 & 0x0F }) == link.cid else { return nil }
            information.removeFirst()
            link.usesCID = true
        } else {
            guard link.cid == 0 else { return nil }
            link.usesCID = false
        }
        switch pcb & 0xC0 {
        case 0x00 where pcb & 0x22 == 0x02 && pcb & 0x04 == 0:
            return informationBlock(pcb, information)
        case 0x80 where pcb & 0x26 == 0x22:
            return receiveReadyBlock(pcb)
        case 0xC0 where pcb & 0x07 == 0x02:
            return supervisoryBlock(pcb, information)
        default:
            return nil
        }
    }

    /// An I-block: part of a chained command (answered R(ACK)) or its last part (answered with the first
    /// block of the R-APDU). Faults act per APDU, as on the APDU face.
    private func informationBlock(_ pcb: UInt8, _ information: [UInt8]) -> [UInt8]? {
        if link.incomingBlocks == 0 {
            link.outgoing = []
            exchangeCount += 1
            if isTearing { link.tornBlocksKept = tearAfterFrames.map { max($0, 0) } ?? Int(rng.next() % 4) }
        }
        if let kept = link.tornBlocksKept, link.incomingBlocks == kept {
            tear(link.incoming, deliveredBytes: link.incoming.count, complete: false)
            return nil
        }
        link.blockNumber = pcb & 0x01
        link.incoming += information
        link.incomingBlocks += 1
        if pcb & 0x10 != 0 { return remember(link.block(0xA2 | link.blockNumber)) }
        let command = link.incoming
        link.incoming = []
        link.incomingBlocks = 0
        if link.tornBlocksKept != nil {
            tear(command, deliveredBytes: command.count, complete: true)
            return nil
        }
        guard let answer = faultedAnswer(to: command) else { return nil }
        pendingProcessing = timing.processing(writeFrames: programmedFrames)
        link.outgoing = answer.isEmpty ? [[]] : answer.chunked(link.answerPieceSize)
        if configuration.requestsWaitingTimeExtension && programmedFrames > 0 {
            link.heldAnswer = nextAnswerBlock()
            return remember(link.block(0xF2, [0x01]))
        }
        return remember(nextAnswerBlock())
    }

    /// R(ACK) `A2`/`A3` and R(NAK) `B2`/`B3`: a matching block number resends the last block; otherwise an
    /// ACK pulls the next piece of a chained answer, and a NAK (presence check) is answered R(ACK) with
    /// the tag's current block number.
    private func receiveReadyBlock(_ pcb: UInt8) -> [UInt8]? {
        let number = pcb & 0x01
        if number == link.blockNumber { return link.lastBlock.isEmpty ? nil : link.lastBlock }
        if pcb & 0x10 != 0 { return link.block(0xA2 | link.blockNumber) }
        link.blockNumber ^= 1
        guard !link.outgoing.isEmpty else { return remember(link.block(0xA2 | link.blockNumber)) }
        return remember(nextAnswerBlock())
    }

    /// S(DESELECT) `C2` (echoed, then HALT) and the reader's S(WTX) echo `F2 xx` (the held answer follows).
    private func supervisoryBlock(_ pcb: UInt8, _ information: [UInt8]) -> [UInt8]? {
        switch pcb & 0x30 {
        case 0x00:
            let echo = link.block(0xC2)
            resetVolatileState()
            state = .halt
            return echo
        case 0x30:
            guard let held = link.heldAnswer else { return nil }
            link.heldAnswer = nil
            return remember(held)
        default:
            return nil
        }
    }

    /// The next piece of the answer as an I-block with the current block number (chaining bit when more
    /// pieces follow).
    private func nextAnswerBlock() -> [UInt8] {
        let piece = link.outgoing.isEmpty ? [] : link.outgoing.removeFirst()
        let chaining: UInt8 = link.outgoing.isEmpty ? 0x00 : 0x10
        return link.block(0x02 | chaining | link.blockNumber, piece)
    }

    /// Records `block` as the last one sent and returns it.
    private func remember(_ block: [UInt8]) -> [UInt8] {
        link.lastBlock = block
        return block
    }

    /// Anticollision (`9x 20`) and SELECT (`9x 70 … CRC`) at one cascade level (ISO/IEC 14443-3).
    private func cascade(_ frame: [UInt8], level: Int, next: State) -> TagAnswer {
        guard let step = Anticollision.step(frame, level: level, uid: uid, sak: 0x20, timing: timing.rf) else {
            state = .idle
            return .silence
        }
        airtimeMicroseconds += step.airtime
        if step.selected { state = next }
        return .data(step.answer)
    }
}
