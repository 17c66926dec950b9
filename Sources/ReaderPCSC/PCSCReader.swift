import NFCTags
import Support

/// One PC/SC reader slot as a `TagReader`: event-driven presence, exclusive connection per tag cycle,
/// Type 2 commands as pseudo-APDUs, Type 4 APDUs unchanged (`docs/reference/pcsc.md` §4, §10).
///
/// The actor owns its own `SCARDCONTEXT` and runs on a private serial queue, so the blocking
/// `SCardGetStatusChange` never occupies the cooperative pool; task cancellation is routed to
/// `SCardCancel`. A tag cycle is `poll` (wait for PRESENT, connect `SCARD_SHARE_EXCLUSIVE`, tell the family
/// by the ATR and read the UID with `FF CA`, `PCSCReader+Detection.swift`) → `withTransceiver` (any number of
/// times) → `signal` → `release` (disconnect with `SCARD_UNPOWER_CARD`, wait for EMPTY). After a body that
/// wrote or re-activated, the UID is read again and compared: a PC/SC reader shows one tag and may switch
/// silently (§10.5).
public actor PCSCReader: OperatorFeedbackReader {
    private let executor: QueueExecutor
    /// The exact pcsc-lite reader name.
    public nonisolated let name: String
    /// The reader family used for raw commands.
    public nonisolated let style: PCSCReaderStyle
    /// Whether LED/buzzer feedback is sent (ACR122U style only).
    public nonisolated let feedbackEnabled: Bool
    private var context: PCSCContext
    private var card: PCSCCard?
    private var transceiver: PCSCTransceiver?
    private var cycleTag: DetectedTag?
    private var cycleUID: [UInt8]? { cycleTag?.uid }
    private var cycleEventCount: PCSCDWord?
    private var finishedAPDUs = 0

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Opens reader `name` with its own context; `style` `nil` means "guess from the name".
    ///
    /// - Throws: `PCSCError` when no context can be established (`.noService` when pcscd is down).
    public init(name: String, style: PCSCReaderStyle? = nil, feedback: Bool = true) throws(PCSCError) {
        self.name = name
        self.style = style ?? PCSCReaderStyle(readerName: name)
        feedbackEnabled = feedback
        executor = QueueExecutor(label: "pcsc.\(name)")
        do {
            context = try PCSCContext()
        } catch {
            throw PCSCError.from(error, while: "opening reader '\(name)'")
        }
    }

    /// What this reader can send: raw commands unless the style is `plain` or `storage`.
    public nonisolated var capabilities: ReaderCapabilities {
        if style.hasRawPath { return ReaderCapabilities(rawCommands: true) }
        return ReaderCapabilities(
            rawCommands: false,
            notes: [
                "PC/SC reader without a raw path (style \(style)): READ instead of FAST_READ; "
                    + "no GET_VERSION, signature, password or counter commands"
            ])
    }

    /// APDUs sent so far over every connection (for exchange counting).
    public var transmittedAPDUs: Int { finishedAPDUs + (transceiver?.apduCount ?? 0) }

    /// Waits for a tag (event-driven, `SCardGetStatusChange`), connects exclusively and reads its UID.
    ///
    /// A tag still connected from an unreleased cycle is returned again if its UID is unchanged.
    /// Returns `.empty` on timeout or cancellation.
    public func poll(timeoutMilliseconds: Int) async throws(TransportError) -> FieldState {
        if let transceiver, let uid = cycleUID {
            if let now = try? transceiver.readUID(), now == uid, let cycleTag { return .tag(cycleTag) }
            dropCard()
        }
        return try await watch(timeoutMilliseconds: timeoutMilliseconds, orElse: .empty) {
            state, remaining, current throws(TransportError) -> FieldState? in
            guard state.isPresent, state.eventState & PCSCConstant.stateMute == 0 else { return nil }
            if let tag = try connect(eventCount: state.eventCount, atr: state.atr) { return .tag(tag) }
            // Present but not answering: a tag swapped faster than the reader's presence check
            // comes good without any state change, so look again after a short pause.
            guard remaining > 0 else { return .empty }
            try? await Task.sleep(for: .milliseconds(min(remaining, Self.retryMilliseconds)))
            current = PCSCConstant.stateUnaware
            return nil
        }
    }

    /// Runs `body` with the current tag's transceiver; afterwards, if the body wrote or re-activated,
    /// reads the UID again (`FF CA`) and throws `.tagLost` when it changed.
    public func withTransceiver<Result: Sendable>(
        _ body: @Sendable (any Transceiver) throws -> Result
    ) async throws -> Result {
        guard let transceiver, let uid = cycleUID else { throw TransportError.tagLost }
        do {
            let result = try body(transceiver)
            if transceiver.uidCheckDue {
                transceiver.uidCheckDue = false
                guard try transceiver.readUID() == uid else { throw TransportError.tagLost }
            }
            return result
        } catch let error as TransportError {
            if error == .tagLost { dropCard() }
            throw error
        }
    }

    /// The UID of the tag now in the field, read with `FF CA 00 00 00`.
    ///
    /// - Throws: `.tagLost` when no tag is connected or it left.
    public func currentUID() async throws(TransportError) -> [UInt8] {
        guard let transceiver else { throw .tagLost }
        do {
            return try transceiver.readUID()
        } catch {
            if error == .tagLost { dropCard() }
            throw error
        }
    }

    /// Shows pass (green LED, short beep) or fail (red LED, long beep) on ACR122U-style readers.
    ///
    /// Sends `FF 00 40 …` (ACR122U API §6.2, [UNVERIFIED] on hardware). Best effort; a no-op for other
    /// styles, with feedback off, or without a connected tag.
    public func signal(_ outcome: TagCycleOutcome) async {
        guard feedbackEnabled, style == .acr122u, let transceiver else { return }
        _ = try? transceiver.transmit(Self.feedbackAPDU(outcome))
    }

    /// The LED/buzzer pseudo-APDU: `FF 00 40 <LED state> 04 <T1> <T2> <repetitions> <buzzer>`.
    ///
    /// Pass: green blinking then green (`AE`), T1 = T2 = 100 ms, buzzer during T1. Fail: red blinking
    /// then red (`5D`), T1 = 500 ms, buzzer during T1.
    public static func feedbackAPDU(_ outcome: TagCycleOutcome) -> [UInt8] {
        switch outcome {
        case .pass: [0xFF, 0x00, 0x40, 0xAE, 0x04, 0x01, 0x01, 0x01, 0x01]
        case .fail: [0xFF, 0x00, 0x40, 0x5D, 0x04, 0x05, 0x01, 0x01, 0x01]
        }
    }

    /// Disconnects (`SCARD_UNPOWER_CARD`) and waits until the slot is empty or another tag arrived.
    ///
    /// - Returns: `true` when the tag left within the time.
    public func release(waitingForRemovalMilliseconds timeoutMilliseconds: Int) async throws(TransportError) -> Bool {
        let eventCount = cycleEventCount
        try? transceiver?.closeSession()
        dropCard(disposition: PCSCConstant.unpowerCard)
        return try await watch(timeoutMilliseconds: timeoutMilliseconds, orElse: false) {
            state, _, _ throws(TransportError) -> Bool? in
            if state.isEmpty { return true }
            if let eventCount, state.eventCount != eventCount { return true }
            return nil
        }
    }

    /// Opens the reader again after it or pcscd went away: a new context (the old one died with the daemon),
    /// and the same name in `SCardListReaders`. Any tag session is dropped.
    ///
    /// - Throws: `.readerGone` while pcscd is down or does not list this reader.
    public func reopen() async throws(TransportError) {
        dropCard()
        let fresh: PCSCContext
        do {
            fresh = try PCSCContext()
        } catch {
            throw .readerGone("reader '\(name)': \(error)")
        }
        switch PCSCCalls.listReaders(fresh.value) {
        case .success(let names) where names.contains(name): context = fresh
        case .success: throw .readerGone("reader '\(name)' is not connected")
        case .failure(let status): throw .readerGone("reader '\(name)': \(status)")
        }
    }

    // MARK: internals

    /// Watches the slot (`SCardGetStatusChange`, in slices of `waitSliceMilliseconds`) until `decide`
    /// answers or the time is up (`timedOut`); an unavailable reader or a failed wait throws.
    ///
    /// `decide` gets each changed state, the milliseconds left and the state to wait from next (set it
    /// to `stateUnaware` to look again at once); `nil` keeps watching.
    private func watch<T>(
        timeoutMilliseconds: Int, orElse timedOut: T,
        _ decide: (PCSCReaderState, Int, inout PCSCDWord) async throws(TransportError) -> T?
    ) async throws(TransportError) -> T {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(max(0, timeoutMilliseconds))
        var current = PCSCConstant.stateUnaware
        while !Task.isCancelled {
            let remaining = Self.milliseconds(until: deadline, clock: clock)
            switch await waitForChange(current, timeoutMilliseconds: min(remaining, Self.waitSliceMilliseconds)) {
            case .failure(let status) where status == .timeout && remaining > Self.waitSliceMilliseconds:
                continue
            case .failure(let status) where status == .timeout || status == .cancelled:
                return timedOut
            case .failure(let status) where status.meansReaderGone:
                throw .readerGone("reader '\(name)': \(status)")
            case .failure(let status):
                throw .transport("reader '\(name)': \(status)")
            case .success(let state):
                current = state.currentState
                if state.isUnavailable { throw .readerGone("reader '\(name)' is unavailable (unplugged?)") }
                if let answer = try await decide(state, remaining, &current) { return answer }
            }
            if remaining == 0 { return timedOut }
        }
        return timedOut
    }

    private func connect(eventCount: PCSCDWord, atr: [UInt8]) throws(TransportError) -> DetectedTag? {
        let result = PCSCCalls.connect(
            context.value, reader: name, share: PCSCConstant.shareExclusive,
            protocols: PCSCConstant.protocolT0 | PCSCConstant.protocolT1)
        switch result {
        case .failure(let status) where status.meansTagLeft:
            return nil
        case .failure(let status) where status.meansReaderGone:
            throw .readerGone("reader '\(name)': connect failed: \(status)")
        case .failure(let status) where status == .sharingViolation:
            throw .transport("reader '\(name)' is in use by another program (\(status))")
        case .failure(let status):
            throw .transport("reader '\(name)': connect failed: \(status)")
        case .success(let (handle, active)):
            let card = PCSCCard(value: handle, activeProtocol: active)
            self.card = card
            do {
                let (transceiver, tag) = try Self.detect(card, style: style, reportedATR: atr)
                self.transceiver = transceiver
                cycleTag = tag
                cycleEventCount = eventCount
                return tag
            } catch {
                dropCard()
                if error == .tagLost || error == .nak(0) { return nil }
                throw error
            }
        }
    }

    private func dropCard(disposition: PCSCDWord = PCSCConstant.leaveCard) {
        finishedAPDUs += transceiver?.apduCount ?? 0
        card?.disconnect(disposition)
        card = nil
        transceiver = nil
        cycleTag = nil
        cycleEventCount = nil
    }

    private func waitForChange(_ current: PCSCDWord, timeoutMilliseconds: Int) async -> Result<
        PCSCReaderState, PCSCStatus
    > {
        let cancel = PCSCCancelHandle(context: context.value)
        let contextValue = context.value
        let reader = name
        return await withTaskCancellationHandler {
            PCSCCalls.getStatusChange(
                contextValue, reader: reader, currentState: current,
                timeoutMilliseconds: PCSCDWord(timeoutMilliseconds))
        } onCancel: {
            cancel.cancel()
        }
    }

    /// Longest single `SCardGetStatusChange` wait, in milliseconds.
    ///
    /// `SCardCancel` normally ends a wait at once; a cancellation that races the start of the call is
    /// still noticed within this time.
    static let waitSliceMilliseconds = 1000

    /// Pause before connecting again to a card that is present but did not answer.
    static let retryMilliseconds = 100

    private static func milliseconds(until deadline: ContinuousClock.Instant, clock: ContinuousClock) -> Int {
        let left = clock.now.duration(to: deadline)
        guard left > .zero else { return 0 }
        return left.millisecondsRoundedUp
    }
}
