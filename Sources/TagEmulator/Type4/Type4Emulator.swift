import Crypto
import NFCTags

/// A chip-exact NXP NTAG 424 DNA in its delivery state, or a generic NFC Forum Type 4 tag, in an
/// emulated field (`docs/reference/type4.md` §1, §2.1–2.3, §5).
///
/// Two faces: `exchange` takes a whole C-APDU and answers the R-APDU with its status word (the path of
/// readers that run ISO-DEP themselves: PN532 InDataExchange, PC/SC, the in-process simulator);
/// `receiveRaw` runs the air protocol (ISO/IEC 14443-3 anticollision, RATS/ATS and the ISO-DEP block
/// layer) for hosts that do (nfcpy through PN532 InCommunicateThru). Both share the command model:
///
/// ```
/// Type4Emulator            state machine, faults, airtime     (this file)
///  +Air                    14443-3 frames, RATS, ISO-DEP blocks (ISODEPLink)
///  +ISOCommands            ISOSelectFile, ISOReadBinary, ISOUpdateBinary
///  +NativeCommands         CLA 90 dispatch by INS, GetVersion, the error rule
///  +Authentication         AuthenticateEV2First/NonFirst and their AF step
///  +SecureMessaging        plain/MAC/full command and answer, CmdCtr
///  +KeyCommands            ChangeKey, GetKeyVersion
///  +FileSettingsCommands   GetFileSettings, ChangeFileSettings, GetFileCounters
///  +DataCommands           ReadData, WriteData, access-rights evaluation
///  +IdentityCommands       Read_Sig, GetCardUID
///  +SDM                    SUN mirrors on unauthenticated reads, SDMReadCtr
///  +Personalisation        public setters of keys, settings, counter (simulator side)
/// Type4Application/File    files, settings, keys (NVM; `image` with its secure-state trailer)
/// Type4Session             selection, pending step, authentication, SDM read tracker (volatile)
/// ```
///
/// Randomness (RndB, TI, SDM padding) comes from `random`, libcrypto's `RAND_bytes` unless a test injects
/// fixed values to replay AN12196 (§5.2).
///
/// Faults: an exchange is one APDU, counted from 1 (`exchangeCount`). A tear during APDU n + 1 delivers
/// only its first k I-blocks (FSC − 3 INF bytes each): a chained ISOUpdateBinary or WriteData writes those
/// frames' data bytes, a single-frame one (ChangeKey among them) is atomic (old or new); k is `tearAfterFrames` or a
/// seeded choice (0…blocks on the APDU face; 0–3 on the raw face, where a chain shorter than k is carried out whole
/// before the tag goes silent). A torn tag has left the field (`isPresent` false, `represent` brings it
/// back). `noAnswerExchanges` make the tag silent without carrying the APDU out, still present.
/// `AnswerFault.nak` makes the tag silent without carrying the command out (a PICC never sends a NAK
/// block), `.status` answers only that status word after carrying it out.
///
/// Not `Sendable`: a tag is owned by the one front end that drives it, like `NTAGEmulator`.
public final class Type4Emulator: EmulatedTag {
    /// ISO/IEC 14443-3/-4 tag states.
    public enum State: Sendable, Hashable {
        /// Powered, waiting for REQA/WUPA.
        case idle
        /// Cascade level 1 anticollision/select.
        case ready1
        /// Cascade level 2.
        case ready2
        /// Selected at layer 3 (SAK `20`), waiting for RATS.
        case active
        /// ISO-DEP active: I-, R- and S-blocks accepted.
        case protocolActive
        /// After HLTA or S(DESELECT); only WUPA wakes it.
        case halt
    }

    /// The chip this tag behaves as.
    public let chip: Type4EmulatedChip
    /// The 7-byte UID.
    public let uid: [UInt8]
    /// Behaviour switches.
    public var configuration: Type4EmulatorConfiguration
    /// Injected faults.
    public var faults: TagFaults
    /// When set, a tear keeps exactly this many I-blocks of the torn APDU (clamped to its block count)
    /// instead of a seeded count: the hook that drops the field after N frames (§5.3).
    public var tearAfterFrames: Int?
    /// The NDEF application and its files (the non-volatile memory).
    public internal(set) var application: Type4Application
    /// Selection and pending continuation (volatile).
    public internal(set) var session = Type4Session()
    /// The state machine's state.
    public internal(set) var state: State = .idle
    /// Whether the tag is still in the field (a tear or `remove()` takes it out).
    public internal(set) var isPresent = true
    /// APDUs so far, from 1 (activation frames and ISO-DEP control blocks excluded).
    public internal(set) var exchangeCount = 0
    /// Modelled airtime of every frame so far, microseconds (`ISODEPTiming`).
    public internal(set) var airtimeMicroseconds = 0.0
    /// Called after each write to non-volatile memory (file data; the secure state too when
    /// `onSecureStateWritten` is `nil`).
    public var onMemoryWritten: (() -> Void)?
    /// Called instead of `onMemoryWritten` after each write to the secure state (keys, file settings, counters):
    /// a host may record such a change in its ledger before its session with the tag ends (the NTAG 424 DNA key
    /// journal), so a store must keep it at once, where file data may wait for the session's end.
    public var onSecureStateWritten: (() -> Void)?
    /// The source of RndB, TI and SDM random padding: libcrypto's `RAND_bytes` by default; tests inject
    /// AN12196's values (`docs/reference/type4.md` §5.2).
    public var random: (Type4RandomPurpose, Int) -> [UInt8] = { SecureRandom.bytes($1) }

    /// Write frames programmed by the command being processed (drives the processing time).
    var programmedFrames = 0
    /// Processing time of the APDU answered by the next raw block, µs.
    var pendingProcessing = 0.0
    /// During a tear: how many data bytes of the UPDATE under way reached the tag.
    var tornDataLimit: Int?
    /// The ISO-DEP block layer of the raw path.
    var link = ISODEPLink()
    /// Seeded randomness of fault choices (tears); never the chip's cryptographic randomness (`random`).
    var rng: SplitMix64
    /// The Read_Sig signature made with `configuration.signingKey`, and that key (`originalitySignature`).
    var signedUID: (key: [UInt8], signature: [UInt8])?

    /// A delivery-state tag with `uid`; `unformatted` removes the NDEF application, `preLocked` makes the
    /// NDEF file read-only (generic: CC write byte `FF`; NTAG 424 DNA: file 02 Write and RW `F`, and
    /// the CC's NDEF write byte `FF`).
    ///
    /// - Throws: `Type4EmulatorError` for a UID that is not 7 bytes or generic parameters out of range.
    public convenience init(
        chip: Type4EmulatedChip, uid: [UInt8], configuration: Type4EmulatorConfiguration = .init(),
        faults: TagFaults = .init()
    ) throws(Type4EmulatorError) {
        var application = Type4Application(files: try chip.deliveryFiles(), keys: chip.deliveryKeys)
        if faults.preLocked { Self.lockPermanently(&application, chip: chip) }
        try self.init(
            image: application.image, chip: chip, uid: uid, configuration: configuration, faults: faults)
    }

    /// A tag whose files hold `image` (every file's bytes concatenated in file-number order, then on the
    /// NTAG 424 DNA the optional secure-state trailer, `Type4Application+Image`).
    ///
    /// Keys, file settings and SDMReadCtr come from the trailer, or are the delivery state's without one; a
    /// generic tag derives its write rights from the CC's write byte. Faults apply only where the image
    /// cannot hold them: `unformatted` (no NDEF application) and, on the NTAG 424 DNA, `preLocked`'s file 02
    /// rights; a generic image keeps its own CC write byte.
    ///
    /// - Throws: `Type4EmulatorError.imageSize` when `image` does not fit the chip's files, `.imageTrailer`
    ///   for a malformed trailer, `.invalidUID`.
    public init(
        image: [UInt8], chip: Type4EmulatedChip, uid: [UInt8], configuration: Type4EmulatorConfiguration = .init(),
        faults: TagFaults = .init()
    ) throws(Type4EmulatorError) {
        guard uid.count == 7 else { throw .invalidUID(uid) }
        var application = Type4Application(
            files: try chip.deliveryFiles(), isInstalled: !faults.unformatted, keys: chip.deliveryKeys)
        try application.restore(image: image)
        self.chip = chip
        self.uid = uid
        self.configuration = configuration
        self.faults = faults
        self.application = application
        rng = Self.generator(seed: faults.seed, uid: uid)
        deriveGenericRights()
        if chip == .ntag424 && faults.preLocked { lockNDEFFileSettings() }
    }

    // MARK: - EmulatedTag

    /// The chip as the pipeline names it (`type4`/`ntag424` or `type4`/`type4`).
    public var tagChip: TagChip { chip.tagChip }

    /// The files' bytes concatenated in file-number order, with the secure-state trailer once the NTAG 424
    /// DNA has left its delivery state (what `store=DIR` saves).
    public var image: [UInt8] { application.image }

    /// Programming time of one write frame, µs (an ASSUMPTION, `Type4EmulatorConfiguration`).
    public var programmingMicroseconds: Double { configuration.writeFrameMicroseconds }

    /// The timing model for the reader this session talks to (its FSD from RATS, CID use).
    public var timing: ISODEPTiming {
        configuration.timing(readerFrameSize: link.readerFrameSize, usesCID: link.usesCID)
    }

    /// WUPA, anticollision and SELECT at both cascade levels, then RATS `E0 80` (FSD 256, CID 0) and the
    /// ATS, in one step; wakes a halted tag and clears the volatile state.
    ///
    /// - Returns: UID, ATQA (`0344` NTAG 424 DNA, `0044` generic), SAK `20` and the ATS with its TL byte;
    ///   `nil` only when the tag has left the field.
    public func activate() -> DetectedTag? {
        guard isPresent else { return nil }
        resetVolatileState()
        state = .protocolActive
        airtimeMicroseconds += timing.activation(
            atsLength: configuration.ats.count, startupFrameGuardInteger: configuration.startupFrameGuardInteger)
        return DetectedTag(uid: uid, atqa: chip.atqa, sak: 0x20, ats: configuration.ats)
    }

    /// HLTA (layer 3) or S(DESELECT) `C2` (ISO-DEP active): the tag goes to HALT and forgets its session.
    public func halt() {
        guard isPresent else { return }
        airtimeMicroseconds +=
            state == .protocolActive
            ? timing.roundTrip(reader: 3, tag: 3) : timing.rf.unanswered(command: 2)
        resetVolatileState()
        state = .halt
    }

    /// Field off: IDLE, selection and any pending GetVersion step gone.
    public func fieldOff() {
        resetVolatileState()
        state = .idle
    }

    /// Takes the tag out of the field for good (the operator removed it).
    public func remove() {
        isPresent = false
        fieldOff()
    }

    /// Puts a tag that left back into the field: memory kept, power-up state fresh, `faults` from now on
    /// (the seeded choices restart from `faults.seed`).
    public func represent(faults newFaults: TagFaults = TagFaults()) {
        fieldOff()
        faults = newFaults
        rng = Self.generator(seed: newFaults.seed, uid: uid)
        exchangeCount = 0
        isPresent = true
    }

    /// One whole C-APDU in ISO-DEP active state; answers `.data(R-APDU)` with SW1 SW2, or `.silence`
    /// (not active, a tear, a no-answer fault, an `AnswerFault.nak`).
    ///
    /// Airtime is `ISODEPTiming.exchange` of the APDU, its answer and the processing (1 command time
    /// plus one write time per programmed frame), with FSC from the ATS and the FSD of activation.
    public func exchange(_ command: [UInt8]) -> TagAnswer {
        guard isPresent, state == .protocolActive else { return .silence }
        exchangeCount += 1
        let timing = self.timing
        if isTearing {
            let blocks = timing.blocks(bytes: command.count, frameSize: timing.cardFrameSize)
            let kept =
                tearAfterFrames.map { min(max($0, 0), blocks.count) } ?? Int(rng.next() % UInt64(blocks.count + 1))
            let delivered = blocks.prefix(kept).reduce(0, +)
            for information in blocks.prefix(kept) {
                airtimeMicroseconds += timing.roundTrip(reader: timing.blockBytes(information: information), tag: 3)
            }
            tear(command, deliveredBytes: delivered, complete: kept == blocks.count)
            return .silence
        }
        guard let answer = faultedAnswer(to: command) else {
            airtimeMicroseconds += timing.rf.unanswered(command: command.count + 1)
            return .silence
        }
        airtimeMicroseconds += timing.exchange(
            command: command.count, response: answer.count, processing: timing.processing(writeFrames: programmedFrames)
        )
        return .data(answer)
    }

    // MARK: - Shared by both faces

    /// Whether the APDU now under way (`exchangeCount`) is torn by `removedAfterExchanges`.
    var isTearing: Bool { faults.removedAfterExchanges.map { exchangeCount > $0 } ?? false }

    /// The answer to APDU `exchangeCount` after the no-answer and answer faults; `nil` is silence.
    func faultedAnswer(to command: [UInt8]) -> [UInt8]? {
        programmedFrames = 0
        if !faults.noAnswerExchanges.isEmpty && faults.noAnswerExchanges.contains(exchangeCount) { return nil }
        guard let fault = faults.answerFaults.isEmpty ? nil : faults.answerFaults[exchangeCount] else {
            return respond(to: command)
        }
        if case .nak = fault { return nil }
        let answer = respond(to: command)
        switch fault.apply(to: .data(answer)) {
        case .data(let bytes): return bytes
        case .ack, .nak, .silence: return nil
        }
    }

    /// The torn APDU: carried out whole when every block arrived, else only the data of the delivered
    /// bytes of an ISOUpdateBinary or a WriteData is written; then the tag leaves the field.
    func tear(_ command: [UInt8], deliveredBytes: Int, complete: Bool) {
        if complete {
            _ = respond(to: command)
        } else if command.count >= 5 {
            // The header and Lc arrived: complete the APDU's shape (a native APDU ends with Le `00`, §2.1),
            // but write only what was delivered.
            let whole = Array(command.prefix(deliveredBytes))
            let padding = max(0, 5 + Int(command[4]) + (command[0] == 0x90 ? 1 : 0) - whole.count)
            tornDataLimit = max(0, deliveredBytes - 5)
            _ = respond(to: whole + [UInt8](repeating: 0, count: padding))
            tornDataLimit = nil
        }
        remove()
    }

    /// The R-APDU to one C-APDU: class and length checks, then the ISO or native dispatch.
    func respond(to command: [UInt8]) -> [UInt8] {
        session.commandNumber += 1
        guard let (apdu, lengthValid) = ReceivedAPDU.parse(command) else {
            return Type4StatusWord.answer(Type4StatusWord.wrongLength)
        }
        switch apdu.cla {
        case 0x00:
            guard lengthValid else { return Type4StatusWord.answer(Type4StatusWord.wrongLength) }
            if session.pending != nil {
                session.pending = nil
                session.authentication = nil
                return Type4StatusWord.answer(Type4StatusWord.conditions)
            }
            return dispatchISO(apdu)
        case 0x90 where chip.speaksNativeCommands:
            guard lengthValid else { return Type4StatusWord.answer(Type4StatusWord.lengthError) }
            return dispatchNative(apdu)
        default:
            return Type4StatusWord.answer(Type4StatusWord.classNotSupported)
        }
    }

    /// The seeded generator of a tag: `seed` mixed with the UID, so tags of one population differ.
    static func generator(seed: UInt64, uid: [UInt8]) -> SplitMix64 {
        SplitMix64(seed: uid.reduce(seed) { ($0 &* 31) &+ UInt64($1) })
    }

    /// Power-up state of everything volatile: session, ISO-DEP link.
    func resetVolatileState() {
        session = Type4Session()
        link = ISODEPLink()
    }
}
