import Crypto
import NFCTags

/// A failure to build an emulated tag.
public enum EmulatorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The UID is not 7 bytes.
    case invalidUID([UInt8])
    /// A tag image does not have `expected` bytes (pages × 4) for the chip.
    case imageSize(expected: Int, actual: Int)
    /// The signing key cannot sign (see `OriginalitySignatureError`).
    case signingKey(String)

    public var description: String {
        switch self {
        case .invalidUID(let uid): "UID must be 7 bytes, got \(uid.count)"
        case .imageSize(let expected, let actual): "tag image must be \(expected) bytes, got \(actual)"
        case .signingKey(let reason): "signing key: \(reason)"
        }
    }
}

/// A chip-exact NXP NTAG213/215/216 or MIFARE Ultralight EV1 (MF0UL11/MF0UL21) in an emulated field
/// (`docs/reference/type2.md` §1–§4, §6, checklist §9, switches §12).
///
/// Memory is `image`: the page-ordered binary used by libnfc's `nfc-mfultralight` (4 bytes per page,
/// 45 / 135 / 231 pages for NTAG213/215/216, 20 / 41 for MF0UL11/21). Unlike a dump read over the
/// air, the image keeps the **stored** PWD and PACK (a READ returns zeros for them), so a saved
/// population keeps its passwords. The NFC counter, the EV1 counters and the PWD_AUTH failure count
/// live outside the image (`nfcCounter`, `authenticationFailures`).
///
/// ```
/// page 0   UID0 UID1 UID2 BCC0      BCC0 = 88 ^ UID0 ^ UID1 ^ UID2
/// page 1   UID3 UID4 UID5 UID6
/// page 2   BCC1 INT  LOCK0 LOCK1    INT = 48
/// page 3   CC (OTP)
/// 4…       user memory
/// dyn lock LOCK2 LOCK3 LOCK4 BD     (not on MF0UL11)
/// CFG0     MIRROR RFUI MIRROR_PAGE AUTH0
/// CFG1     ACCESS RFUI RFUI RFUI
/// PWD, PACK (write-only)
/// ```
///
/// Not `Sendable`: a tag is owned by the one front end (simulated reader, PN532 pty, vpcd) that
/// drives it, and its state machine mutates on every frame.
public final class NTAGEmulator: EmulatedTag {
    /// ISO/IEC 14443-3 tag states (`docs/reference/type2.md` §1.1).
    public enum State: Sendable, Hashable {
        /// Powered, waiting for REQA/WUPA.
        case idle
        /// Answered REQA/WUPA; cascade level 1 anticollision/select.
        case ready1
        /// Selected at level 1; cascade level 2.
        case ready2
        /// Selected; commands accepted.
        case active
        /// PWD_AUTH accepted.
        case authenticated
        /// After HLTA; only WUPA wakes it.
        case halt
    }

    /// The chip this tag behaves as.
    public let chip: ChipModel
    /// The 7-byte UID.
    public let uid: [UInt8]
    /// The chip as the family-neutral pipeline names it.
    public var tagChip: TagChip { chip.tagChip }
    /// t_prog of one page, from the configuration's timing.
    public var programmingMicroseconds: Double { configuration.programmingMicroseconds }
    /// Behaviour switches (`docs/reference/type2.md` §12).
    public var configuration: EmulatorConfiguration
    /// Injected faults.
    public var faults: TagFaults
    /// The READ_SIG answer (r ‖ s); replace it to emulate a captured pair or a clone.
    ///
    /// Signed with the tag's key on first use (READ_SIG, or a test reading it), not when the tag is
    /// made: ECDSA per arriving tag was a large share of a simulated line's CPU, a cost a real tag
    /// never puts on the host. A library failure while signing leaves it empty (READ_SIG then answers
    /// 0 bytes, which readers report as an invalid answer).
    public var signature: [UInt8] {
        get {
            if let storedSignature { return storedSignature }
            let signed = (try? OriginalitySignature.sign(uid: uid, privateKey: signingKey)) ?? []
            storedSignature = signed
            return signed
        }
        set { storedSignature = newValue }
    }
    private var storedSignature: [UInt8]?
    private let signingKey: [UInt8]
    /// Called after every page the tag programs (not on a torn write), e.g. to persist the image.
    public var onMemoryWritten: (() -> Void)?

    /// Memory, page-ordered, 4 bytes per page (see the type's documentation).
    public internal(set) var image: [UInt8]
    /// The state machine's state.
    public internal(set) var state: State = .idle
    /// The 24-bit NFC counter (NTAG21x).
    public internal(set) var nfcCounter: UInt32 = 0
    /// The three 24-bit EV1 counters (READ_CNT / INCR_CNT on MF0UL11/21).
    public internal(set) var ev1Counters: [UInt32] = [0, 0, 0]
    /// Failed PWD_AUTH attempts since the last success (compared with AUTHLIM).
    public internal(set) var authenticationFailures = 0
    /// Whether the tag is still in the field (a tear or `remove()` takes it out for good).
    public internal(set) var isPresent = true
    /// Command exchanges so far (activation frames excluded).
    public internal(set) var exchangeCount = 0
    /// Modelled airtime of every frame so far, microseconds.
    public internal(set) var airtimeMicroseconds = 0.0

    /// Non-volatile state that the `nfc-mfultralight` image cannot hold (saved beside it by `TagField`).
    public struct HiddenState: Codable, Sendable, Hashable {
        /// The NFC counter (NTAG21x).
        public var nfcCounter: UInt32
        /// The EV1 counters 0–2.
        public var ev1Counters: [UInt32]
        /// Failed PWD_AUTH attempts (the tear-safe AUTHLIM counter).
        public var authenticationFailures: Int

        /// Creates a state record.
        public init(nfcCounter: UInt32 = 0, ev1Counters: [UInt32] = [0, 0, 0], authenticationFailures: Int = 0) {
            self.nfcCounter = nfcCounter
            self.ev1Counters = ev1Counters
            self.authenticationFailures = authenticationFailures
        }
    }

    /// The counters and the AUTHLIM failure count; setting it restores a saved tag (values clamped).
    public var hiddenState: HiddenState {
        get {
            HiddenState(
                nfcCounter: nfcCounter, ev1Counters: ev1Counters, authenticationFailures: authenticationFailures)
        }
        set {
            nfcCounter = min(newValue.nfcCounter, 0xFF_FFFF)
            ev1Counters = (0..<3).map { $0 < newValue.ev1Counters.count ? min(newValue.ev1Counters[$0], 0xFF_FFFF) : 0 }
            authenticationFailures = min(max(newValue.authenticationFailures, 0), 7)
        }
    }

    var wokenFromHalt = false
    var pendingCompatibilityWrite: Int?
    var counterIncrementedThisPowerUp = false
    var tearing = false
    var rng: SplitMix64
    /// CFG0 and CFG1 as they act now under `.nextActivation` (8 bytes).
    var configSnapshot: [UInt8] = []
    /// CFGLCK as it acts now under `.nextActivation`.
    var configLockSnapshot = false
    /// LOCK0 LOCK1 LOCK2 LOCK3 LOCK4 as they act now under lock `.nextActivation`.
    var lockSnapshot: [UInt8] = []

    /// A factory-fresh tag (`docs/reference/type2.md` §2.8) with `uid`, signing READ_SIG with `signingKey`.
    ///
    /// The `unformatted`, `preLocked` and `identity` faults shape this fresh image (never a loaded one).
    ///
    /// - Throws: `EmulatorError` for a UID that is not 7 bytes or an unusable key.
    public convenience init(
        chip: ChipModel, uid: [UInt8], configuration: EmulatorConfiguration = .init(), faults: TagFaults = .init(),
        signingKey: [UInt8] = TestSigningKey.privateKey
    ) throws(EmulatorError) {
        guard uid.count == 7 else { throw .invalidUID(uid) }
        var image = Self.factoryImage(chip: chip, uid: uid, configuration: configuration)
        if faults.unformatted { Self.blankCapabilityContainer(&image) }
        if faults.preLocked { Self.lockPermanently(&image, chip: chip) }
        faults.identity?.apply(to: &image, uid: uid)
        try self.init(
            image: image, chip: chip, configuration: configuration, faults: faults, signingKey: signingKey,
            anticollisionUID: uid)
    }

    /// A tag holding `image` (the `nfc-mfultralight` layout); the UID anticollision answers is
    /// `anticollisionUID`, or pages 0–1 when it is `nil` (a genuine chip).
    ///
    /// - Throws: `EmulatorError.imageSize` when `image` is not `chip.pageCount × 4` bytes,
    ///   `.invalidUID` when `anticollisionUID` is not 7 bytes.
    public init(
        image: [UInt8], chip: ChipModel, configuration: EmulatorConfiguration = .init(), faults: TagFaults = .init(),
        signingKey: [UInt8] = TestSigningKey.privateKey, anticollisionUID: [UInt8]? = nil
    ) throws(EmulatorError) {
        guard image.count == chip.pageCount * 4 else {
            throw .imageSize(expected: chip.pageCount * 4, actual: image.count)
        }
        if let anticollisionUID, anticollisionUID.count != 7 { throw .invalidUID(anticollisionUID) }
        let uid = anticollisionUID ?? [image[0], image[1], image[2], image[4], image[5], image[6], image[7]]
        self.chip = chip
        self.uid = uid
        self.image = image
        self.configuration = configuration
        self.faults = faults
        var seed = faults.seed
        for byte in uid { seed = (seed &* 31) &+ UInt64(byte) }
        self.rng = SplitMix64(seed: seed)
        // A secp128r1 private key is at most 16 bytes; the signature itself is made on first use.
        guard !signingKey.isEmpty, signingKey.count <= 16 else {
            throw .signingKey("the private key must be 1–16 bytes")
        }
        self.signingKey = signingKey
        takeConfigSnapshot()
        configLockSnapshot = liveConfigLock
        takeLockSnapshot()
    }

    // MARK: - TagEndpoint

    /// WUPA, anticollision and SELECT at both cascade levels in one step (airtime of a full
    /// activation); wakes a halted tag. Returns `nil` only when the tag has left the field.
    public func activate() -> DetectedTag? {
        guard isPresent else { return nil }
        wake(fromHalt: state == .halt)
        state = .active
        airtimeMicroseconds += configuration.timing.activation
        return DetectedTag(uid: uid, atqa: 0x0044, sak: 0x00)
    }

    /// HLTA `50 00`: the tag goes to HALT (authentication and a pending COMPATIBILITY_WRITE are gone).
    public func halt() {
        guard isPresent else { return }
        airtimeMicroseconds += configuration.timing.unanswered(command: 2)
        state = .halt
        pendingCompatibilityWrite = nil
    }

    /// Field off: IDLE, authentication and the per-power-up counter flag cleared; CFGLCK written
    /// earlier acts from the next power-up (`.nextActivation`).
    public func fieldOff() {
        state = .idle
        wokenFromHalt = false
        pendingCompatibilityWrite = nil
        counterIncrementedThisPowerUp = false
        configLockSnapshot = liveConfigLock
    }

    /// Takes the tag out of the field for good (the operator removed it).
    public func remove() {
        isPresent = false
        fieldOff()
    }

    /// Puts a tag that left back into the field, as an operator re-presents a torn tag: memory kept,
    /// power-up state fresh, and the given faults (usually none) from now on.
    public func represent(faults newFaults: TagFaults = TagFaults()) {
        fieldOff()
        faults = newFaults
        exchangeCount = 0
        isPresent = true
    }

    /// One command (no CRC) in ACTIVE/AUTHENTICATED; answers without CRC. Any NAK drops the tag to IDLE
    /// (HALT if woken from HALT); in any other state the tag is silent. Faults fire here: a tear
    /// (`removedAfterExchanges`) answers `.silence` with `isPresent` false; a no-answer exchange
    /// answers `.silence` with the tag still present.
    public func exchange(_ command: [UInt8]) -> TagAnswer {
        guard isPresent, state == .active || state == .authenticated else { return .silence }
        exchangeCount += 1
        let timing = configuration.timing
        if let n = faults.removedAfterExchanges, exchangeCount > n {
            tearing = true
            _ = dispatch(command)
            tearing = false
            remove()
            airtimeMicroseconds += timing.unanswered(command: command.count)
            return .silence
        }
        // The fault tables are empty for most tags: skip their hashed look-ups (three an exchange).
        if !faults.noAnswerExchanges.isEmpty && faults.noAnswerExchanges.contains(exchangeCount) {
            state = wokenFromHalt ? .halt : .idle
            pendingCompatibilityWrite = nil
            airtimeMicroseconds += timing.unanswered(command: command.count)
            return .silence
        }
        let answerFault = faults.answerFaults.isEmpty ? nil : faults.answerFaults[exchangeCount]
        if case .nak(let code) = answerFault {
            airtimeMicroseconds += timing.acknowledged(command: command.count, programming: 0)
            return fail(code & 0x0F)
        }
        programmedThisExchange = false
        let answer = answerFault.map { $0.apply(to: dispatch(command)) } ?? dispatch(command)
        let programming = programmedThisExchange ? timing.programmingMicroseconds : 0
        switch answer {
        case .data(let bytes): airtimeMicroseconds += timing.exchange(command: command.count, answer: bytes.count)
        case .ack, .nak: airtimeMicroseconds += timing.acknowledged(command: command.count, programming: programming)
        case .silence: airtimeMicroseconds += timing.unanswered(command: command.count) + programming
        }
        return answer
    }

    /// One raw air frame, CRC included where the air frame has one.
    ///
    /// Answers are raw too: ATQA (`44 00`) and anticollision answers (`88 U0 U1 U2 BCC0`,
    /// `U3 U4 U5 U6 BCC1`) carry no CRC; SAK (`04 DA 17`, `00 FE 51`) and every data answer to a
    /// command carry their CRC_A; ACK/NAK are 4-bit. A command with a bad CRC answers NAK `1`.
    public func receiveRaw(_ frame: [UInt8], lastByteBits: Int) -> TagAnswer {
        guard isPresent, !frame.isEmpty else { return .silence }
        let timing = configuration.timing
        if lastByteBits == 7 {
            guard frame.count == 1, frame[0] == 0x26 || frame[0] == 0x52 else { return .silence }
            if frame[0] == 0x26 && state == .halt { return .silence }
            wake(fromHalt: state == .halt)
            airtimeMicroseconds +=
                timing.shortFrame + timing.readerToTagDelay + timing.tagFrame(bytes: 2)
                + timing.tagToReaderGap
            return .data([0x44, 0x00])
        }
        switch state {
        case .idle, .halt:
            return .silence
        case .ready1:
            return cascade(frame, level: 1, next: .ready2)
        case .ready2:
            return cascade(frame, level: 2, next: .active)
        case .active, .authenticated:
            if frame == [0x50, 0x00, 0x57, 0xCD] {
                halt()
                return .silence
            }
            guard CRCA.isValid(frame) else {
                exchangeCount += 1
                airtimeMicroseconds += timing.acknowledged(command: max(frame.count - 2, 0), programming: 0)
                return fail(0x01)
            }
            switch exchange(Array(frame.dropLast(2))) {
            case .data(let bytes): return .data(CRCA.appending(to: bytes))
            case let other: return other
            }
        }
    }

    // MARK: - State machine helpers

    var programmedThisExchange = false

    /// REQA/WUPA accepted: READY1, authentication gone, configuration and locks re-read.
    func wake(fromHalt: Bool) {
        state = .ready1
        wokenFromHalt = fromHalt
        pendingCompatibilityWrite = nil
        takeConfigSnapshot()
        takeLockSnapshot()
    }

    /// Any NAK: back to IDLE (or HALT when woken from HALT), authentication cleared.
    func fail(_ code: UInt8) -> TagAnswer {
        state = wokenFromHalt ? .halt : .idle
        pendingCompatibilityWrite = nil
        return .nak(code)
    }

    /// Anticollision (`9x 20`) and SELECT (`9x 70 … CRC`) at one cascade level (`docs/reference/type2.md` §1).
    private func cascade(_ frame: [UInt8], level: Int, next: State) -> TagAnswer {
        guard let step = Anticollision.step(frame, level: level, uid: uid, sak: 0x00, timing: configuration.timing)
        else {
            state = wokenFromHalt ? .halt : .idle
            return .silence
        }
        airtimeMicroseconds += step.airtime
        if step.selected { state = next }
        return .data(step.answer)
    }
}
