import Foundation
import NDEF
import NFCTags

#if canImport(Glibc)
    import Glibc
#endif

/// Frame handling and reply scheduling; every method runs on the I/O thread with `lock` held.
extension PN532Emulator {
    /// Monotonic time in nanoseconds.
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// One UART byte (start bit, 8 data bits, stop bit) at the current speed, in nanoseconds.
    var byteNanoseconds: UInt64 {
        configuration.timing == .instant ? 0 : UInt64(10_000_000_000 / max(baud, 1))
    }

    /// SetSerialBaudRate: the PN532 answers at the old speed and switches once the host has
    /// acknowledged the reply (PN532 user manual §7.2.5); a host that sends its next command instead
    /// gets it at the new speed too.
    private func switchBaudIfAcknowledged() {
        guard let next = pendingBaud else { return }
        baud = next
        pendingBaud = nil
    }

    /// Feeds bytes read from the pty to the decoder and handles every complete frame.
    func received(_ bytes: [UInt8]) {
        decoder.append(bytes)
        while let frame = decoder.next() {
            switch frame {
            case .ack:
                statistics.hostAcks += 1
                switchBaudIfAcknowledged()
                chip.abortPending()
                pendingDeadline = nil
                scheduled.removeAll { $0.cancellable }
            case .nack:
                statistics.hostNacks += 1
                if let lastReply { schedule(lastReply, after: 0, cancellable: true) }
            case .information(let payload):
                statistics.frames += 1
                switchBaudIfAcknowledged()
                command(payload, frameBytes: payload.count + 7)
            }
        }
    }

    private func command(_ payload: [UInt8], frameBytes: Int) {
        let airtimeBefore = chip.airtimeMicroseconds
        // A new command replaces a pending one and any reply not yet sent (pitfall 9).
        scheduled.removeAll { $0.cancellable }
        pendingDeadline = nil
        let receivedAt = UInt64(frameBytes) * byteNanoseconds
        let ackAt = receivedAt + 6 * byteNanoseconds
        if stormFramesLeft > 0 {
            stormFramesLeft -= 1
            schedule(Self.storm, after: ackAt, cancellable: false)
            return
        }
        statistics.uartMicroseconds += Double(frameBytes) * Double(byteNanoseconds) / 1000
        let fieldWasOn = chip.fieldOn
        let outcome = chip.handle(payload, wokenUp: decoder.takeWakeUp())
        if !fieldWasOn, chip.fieldOn { fieldOnAt = Self.now() + receivedAt }
        let guardNanoseconds = fieldGuard(before: payload, arrivingAt: Self.now() + receivedAt)
        statistics.airtimeMicroseconds +=
            max(0, chip.airtimeMicroseconds - airtimeBefore) + Double(guardNanoseconds) / 1000
        if payload.count >= 2, payload[1] == 0x40 || payload[1] == 0x42, case .reply(let answer) = outcome,
            let uid = chip.lastExchangeUID, let kind = misbehaviour?.tick(uid: uid)
        {
            misbehave(kind, answer: answer, ackAt: ackAt)
            return
        }
        switch outcome {
        case .ignored:
            return
        case .applicationError:
            schedule(PN532Frame.ackBytes, after: ackAt, cancellable: false)
            reply(PN532Frame.errorBytes, after: ackAt)
        case .pending:
            schedule(PN532Frame.ackBytes, after: ackAt, cancellable: false)
            if payload.count >= 4, payload[1] == 0x60, payload[2] != 0xFF {
                // InAutoPoll: PollNr × Period × 150 ms, then "nothing found".
                let polls = UInt64(payload[2]) * UInt64(payload[3]) * 150_000_000
                pendingDeadline = Self.now() + ackAt + polls
            }
        case .reply(let answer):
            schedule(PN532Frame.ackBytes, after: ackAt, cancellable: false)
            if payload.count == 3, payload[1] == 0x10 { pendingBaud = PN532Chip.serialBaudRates[Int(payload[2])] }
            let chipNanoseconds = UInt64(max(0, chip.airtimeMicroseconds - airtimeBefore) * 1_000)
            let frame = PN532Frame.encode(answer)
            let replyAt =
                configuration.timing == .instant
                ? ackAt : ackAt + guardNanoseconds + chipNanoseconds + UInt64(frame.count) * byteNanoseconds
            reply(frame, after: replyAt)
        }
    }

    /// The wait an activation command (InListPassiveTarget, InAutoPoll, InSelect) owes the field guard:
    /// the rest of the 5.1 ms after the field came on, once, before the first activation (datasheet
    /// timing only). A host that waited long enough between field on and the command owes nothing.
    private func fieldGuard(before payload: [UInt8], arrivingAt arrival: UInt64) -> UInt64 {
        guard configuration.timing != .instant, payload.count >= 2, [0x4A, 0x60, 0x54].contains(payload[1]),
            let on = fieldOnAt
        else { return 0 }
        fieldOnAt = nil
        let due = on + UInt64(RFTiming().fieldGuardMicroseconds * 1000)
        return due > arrival ? due - arrival : 0
    }

    /// Sixteen NACK frames: what a NACK storm sends instead of ACK and reply.
    static let storm = Array([[UInt8]](repeating: PN532Frame.nackBytes, count: 16).joined())

    /// Carries out one planned misbehaviour in place of the normal ACK + `answer` (`PN532Misbehaviour`).
    private func misbehave(_ kind: PN532Misbehaviour, answer: [UInt8], ackAt: UInt64) {
        var frame = PN532Frame.encode(answer)
        switch kind {
        case .dcs: frame[frame.count - 2] ^= 0xFF
        case .lcs: frame[frame[3] == 0xFF ? 7 : 4] ^= 0xFF
        case .truncate: frame = Array(frame.prefix(frame.count / 2))
        case .wrongcode: frame = PN532Frame.encode([answer[0], answer[1] &+ 2] + answer.dropFirst(2))
        case .nackstorm:
            stormFramesLeft = PN532Misbehaviour.stormFrames - 1
            schedule(Self.storm, after: ackAt, cancellable: false)
            return
        case .noack:
            return
        case .vanish:
            vanish()
            return
        }
        schedule(PN532Frame.ackBytes, after: ackAt, cancellable: false)
        reply(frame, after: ackAt)
    }

    /// The reader is unplugged: pty closed, nothing scheduled, the I/O loop ends.
    private func vanish() {
        vanished = true
        scheduled.removeAll()
        chip.field.remove()  // the tag outlives its reader: with store=DIR its image is saved as it is
        pty.hangUp()
        endLoop()
    }

    private func reply(_ frame: [UInt8], after delay: UInt64) {
        lastReply = frame
        schedule(frame, after: delay, cancellable: true)
    }

    private func schedule(_ bytes: [UInt8], after delay: UInt64, cancellable: Bool) {
        scheduled.append((Self.now() + delay, bytes, cancellable))
        scheduled.sort { $0.at < $1.at }
        if configuration.timing == .instant { flushDue() }
    }

    /// Writes every scheduled frame whose time has come, resolves a pending command whose tag has
    /// arrived, and expires a pending InAutoPoll.
    func flushDue() {
        if chip.pendingCommand != nil {
            if let answer = chip.resolvePending() {
                pendingDeadline = nil
                reply(PN532Frame.encode(answer), after: 0)
            } else if let deadline = pendingDeadline, deadline <= Self.now(), let answer = chip.expirePending() {
                pendingDeadline = nil
                reply(PN532Frame.encode(answer), after: 0)
            }
        }
        let now = Self.now()
        var batch: [UInt8] = []
        while let first = scheduled.first, first.at <= now {
            batch += first.bytes
            if first.cancellable { statistics.replies += 1 }
            scheduled.removeFirst()
        }
        if !batch.isEmpty, !pty.isHungUp {
            pty.write(batch)
            statistics.uartMicroseconds += Double(batch.count) * Double(byteNanoseconds) / 1000
        }
    }

    /// How long the I/O loop may sleep: until the next scheduled write, or 20 ms while a command is
    /// pending (a tag may arrive), else 500 ms.
    func nextTimeoutNanoseconds() -> UInt64 {
        let now = Self.now()
        let idle: UInt64 = chip.pendingCommand == nil ? 500_000_000 : 20_000_000
        guard let first = scheduled.first else { return idle }
        return min(idle, first.at > now ? first.at - now : 0)
    }

    /// Carries out one control-socket line: `insert [UID]`, `remove`, `dump PATH`, `stats`.
    func controlCommand(_ line: String) -> String {
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let verb = words.first else { return "error empty command" }
        do throws(PN532ControlError) {
            switch verb {
            case "insert":
                let uid = try words.count > 1 ? Self.parseUID(words[1], form: chip.field.uidForm) : nil
                let inserted = try chip.field.insert(uid: uid)
                return "ok " + inserted.map { String(format: "%02X", $0) }.joined()
            case "remove":
                chip.field.remove()
                return "ok"
            case "dump":
                guard words.count == 2 else { throw PN532ControlError("usage: dump PATH") }
                guard let image = chip.field.image() else { throw PN532ControlError("no tag in the field") }
                guard FileManager.default.createFile(atPath: words[1], contents: Data(image)) else {
                    throw PN532ControlError("cannot write \(words[1])")
                }
                return "ok \(image.count) bytes"
            case "stats":
                var current = statistics
                current.checksumErrors = decoder.checksumErrors
                current.refused = chip.refusedFrames
                let uid = chip.field.current.map { $0.uid.map { String(format: "%02X", $0) }.joined() } ?? "none"
                return
                    "ok frames=\(current.frames) replies=\(current.replies) checksum_errors=\(current.checksumErrors) "
                    + "host_acks=\(current.hostAcks) host_nacks=\(current.hostNacks) refused=\(current.refused) "
                    + "baud=\(baud) tag=\(uid) "
                    + "misbehaved=\(misbehaviour?.fired.count ?? 0) "
                    + "airtime_us=\(Int(current.airtimeMicroseconds.rounded())) "
                    + "uart_us=\(Int(current.uartMicroseconds.rounded()))"
            default:
                throw PN532ControlError("unknown command '\(verb)' (insert [UID], remove, dump PATH, stats)")
            }
        } catch {
            return "error \(error.message)"
        }
    }

    /// A UID of `form` (the population's chip) in hex, with or without `:` or space separators.
    static func parseUID(_ text: String, form: UIDForm) throws(PN532ControlError) -> [UInt8] {
        guard let bytes = form.bytes(text.filter { $0 != ":" && $0 != " " }) else {
            throw PN532ControlError("the \(form.name) of these tags is \(form), got '\(text)'")
        }
        return bytes
    }
}
