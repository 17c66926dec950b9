import NFCTags

/// A chip-exact ISO/IEC 15693 VICC with an NFC Forum T5T memory in an emulated field: ICODE SLIX, SLIX2,
/// ST25TV02K or a generic Type 5 tag (`docs/reference/type5.md` §1.3–1.9, §2).
///
/// `exchange` takes a request without CRC (`flags cmd [UID] params`) and answers `00 …` or `01 EC`, or stays
/// silent as a VICC does: an addressed request for another UID, a select-flag request outside SELECTED, a
/// non-addressed request in QUIET, a frame too short to parse, a custom command (`A0`–`DF`). Writes to a
/// locked block answer `01 12`, Lock Block of a locked block `01 11`, a block past the end `01 10`.
///
/// Faults: an exchange is one request, counted from 1. A tear during request n + 1 that is a Write Single
/// Block leaves the block with its old or its new content whole (seeded; the reference does not say how a
/// VICC's block tears, so whole-block is this emulator's documented choice), a torn Lock Block locks or not;
/// the tag then leaves the field. `noAnswerExchanges` silence a request without carrying it out, `answerFaults`
/// distort the answer (`nak:C` answers `01 C` without carrying the command out), `eepromErrorPages` makes Write
/// Single Block of those blocks answer `01 13` with the old content kept.
///
/// Not `Sendable`: a tag is owned by the one front end that drives it, like `NTAGEmulator`.
public final class Type5Emulator: EmulatedTag {
    /// ISO/IEC 15693-3 VICC states (§1.9); POWER-OFF is `isPresent == false`.
    public enum State: Sendable, Hashable {
        /// Answers non-addressed and addressed requests.
        case ready
        /// Answers only addressed requests (after Stay Quiet).
        case quiet
        /// Answers select-flag requests too (after Select).
        case selected
    }

    /// The chip this tag behaves as.
    public let chip: Type5EmulatedChip
    /// The UID, display order (`E0` first).
    public let uid: [UInt8]
    /// The EEPROM, `chip.memoryBytes` bytes.
    public internal(set) var memory: [UInt8]
    /// Block security status: `true` when the block is locked (Lock Block is permanent).
    public internal(set) var locked: [Bool]
    /// The DSFID (Inventory, Get System Information).
    public var dsfid: UInt8 = 0x00
    /// The AFI (Get System Information).
    public var afi: UInt8 = 0x00
    /// Whether unknown standard commands are ignored (silence) instead of answered `01 01`.
    public var silentToUnknownCommands = false
    /// Injected faults.
    public var faults: TagFaults
    /// The VICC state.
    public internal(set) var state: State = .ready
    /// Whether the tag is in the field.
    public internal(set) var isPresent = true
    /// Requests so far, from 1 (Inventory at activation excluded).
    public internal(set) var exchangeCount = 0
    /// Modelled airtime so far, µs (`Type5Timing`).
    public internal(set) var airtimeMicroseconds = 0.0
    /// Called after each write to non-volatile memory.
    public var onMemoryWritten: (() -> Void)?
    /// Seeded choices of tears.
    var rng: SplitMix64

    /// A factory-state tag (`preLocked`: the CC's write access `11` and every block locked; `unformatted`:
    /// blank memory).
    public convenience init(chip: Type5EmulatedChip, uid: [UInt8], faults: TagFaults = TagFaults()) {
        var memory = faults.unformatted ? [UInt8](repeating: 0, count: chip.memoryBytes) : chip.factoryMemory
        var locked = [Bool](repeating: false, count: chip.blockCount)
        if faults.preLocked {
            if memory[0] == 0xE1 { memory[1] |= 0x03 }
            locked = [Bool](repeating: true, count: chip.blockCount)
        }
        self.init(image: memory + locked.map { $0 ? 0x01 : 0x00 }, chip: chip, uid: uid, faults: faults)
    }

    /// A tag whose memory and lock bits are `image` (`Type5EmulatedChip.imageBytes`: the memory, then one
    /// status byte per block); an image of the memory alone has no block locked. Other sizes give factory memory.
    public init(image: [UInt8], chip: Type5EmulatedChip, uid: [UInt8], faults: TagFaults = TagFaults()) {
        self.chip = chip
        self.uid = uid
        self.faults = faults
        if image.count == chip.imageBytes || image.count == chip.memoryBytes {
            memory = Array(image.prefix(chip.memoryBytes))
            locked = (0..<chip.blockCount).map {
                image.count > chip.memoryBytes + $0 && image[chip.memoryBytes + $0] != 0
            }
        } else {
            memory = chip.factoryMemory
            locked = [Bool](repeating: false, count: chip.blockCount)
        }
        rng = SplitMix64(seed: uid.reduce(faults.seed) { ($0 &* 31) &+ UInt64($1) })
    }

    /// Whether `image` has the size of this chip's image (memory, with or without the lock bytes).
    public static func accepts(image: [UInt8], chip: Type5EmulatedChip) -> Bool {
        image.count == chip.imageBytes || image.count == chip.memoryBytes
    }

    // MARK: - EmulatedTag

    public var tagChip: TagChip { chip.tagChip }
    /// The memory, then one security status byte per block.
    public var image: [UInt8] { memory + locked.map { $0 ? 0x01 : 0x00 } }
    /// `tWrite` of the chip.
    public var programmingMicroseconds: Double { chip.writeMicroseconds }
    /// The timing model at the high data rate with the chip's `tWrite`.
    public var timing: Type5Timing { Type5Timing(writeMicroseconds: chip.writeMicroseconds) }

    /// Field on and Inventory `26 01 00` (one slot): the tag answers its DSFID and UID from READY.
    ///
    /// - Returns: the inventory record, `nil` when the tag has left the field.
    public func activate() -> DetectedTag? {
        guard isPresent else { return nil }
        state = .ready
        airtimeMicroseconds += timing.inventory
        return DetectedTag(iso15693UID: uid, dsfid: dsfid)
    }

    /// The reader resets its field (what a re-activation of a VICC is): the tag powers up in READY.
    public func halt() {
        guard isPresent else { return }
        state = .ready
    }

    /// Field off: back to READY at the next power-up.
    public func fieldOff() { state = .ready }

    /// The Type 2 raw-frame face does not apply to an ISO 15693 tag: silence.
    public func receiveRaw(_ frame: [UInt8], lastByteBits: Int) -> TagAnswer { .silence }

    /// Takes the tag out of the field for good.
    public func remove() {
        isPresent = false
        fieldOff()
    }

    /// Puts a tag that left back: memory and locks kept, READY, `faults` from now on.
    public func represent(faults newFaults: TagFaults) {
        faults = newFaults
        rng = SplitMix64(seed: uid.reduce(newFaults.seed) { ($0 &* 31) &+ UInt64($1) })
        exchangeCount = 0
        state = .ready
        isPresent = true
    }

    /// One request; see the type's description for silence, errors and faults. Airtime: the request, t1,
    /// the answer and t2, plus `tWrite` for a write-alike; an unanswered request costs the no-response wait.
    public func exchange(_ command: [UInt8]) -> TagAnswer {
        guard isPresent else { return .silence }
        exchangeCount += 1
        let timing = self.timing
        let writes = command.count >= 2 && (command[1] == 0x21 || command[1] == 0x22)
        if let after = faults.removedAfterExchanges, exchangeCount > after {
            if writes, rng.next() % 2 == 1 { _ = respond(to: command) }
            airtimeMicroseconds += timing.unanswered(request: command.count)
            remove()
            return .silence
        }
        if faults.noAnswerExchanges.contains(exchangeCount) {
            airtimeMicroseconds += timing.unanswered(request: command.count)
            return .silence
        }
        var answer: [UInt8]?
        if case .nak(let code) = faults.answerFaults[exchangeCount] {
            answer = [0x01, code]
        } else {
            answer = respond(to: command)
            if let fault = faults.answerFaults[exchangeCount], let bytes = answer,
                case .data(let distorted) = fault.apply(to: .data(bytes))
            {
                answer = distorted
            }
        }
        guard let answer else {
            airtimeMicroseconds += timing.unanswered(request: command.count)
            return .silence
        }
        let succeeded = answer.first == 0x00
        airtimeMicroseconds +=
            writes && succeeded
            ? timing.write(request: command.count, answer: answer.count)
            : timing.exchange(request: command.count, answer: answer.count)
        return .data(answer)
    }
}
