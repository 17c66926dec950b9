internal import CPCSC

/// pcsc-lite's `DWORD` (`unsigned long`: a `UInt` on Linux x86_64, never `UInt32`).
typealias PCSCDWord = DWORD
/// pcsc-lite's `LONG` status type (`long`).
typealias PCSCLong = LONG
/// An established resource manager context (`SCARDCONTEXT`).
typealias PCSCContextValue = SCARDCONTEXT
/// A connection to a card (`SCARDHANDLE`).
typealias PCSCCardValue = SCARDHANDLE

/// pcsc-lite constants, typed as `DWORD` (the C macros import as `Int32` literals).
enum PCSCConstant {
    static let shareExclusive = PCSCDWord(SCARD_SHARE_EXCLUSIVE)
    static let shareShared = PCSCDWord(SCARD_SHARE_SHARED)
    static let protocolT0 = PCSCDWord(SCARD_PROTOCOL_T0)
    static let protocolT1 = PCSCDWord(SCARD_PROTOCOL_T1)
    static let leaveCard = PCSCDWord(SCARD_LEAVE_CARD)
    static let resetCard = PCSCDWord(SCARD_RESET_CARD)
    static let unpowerCard = PCSCDWord(SCARD_UNPOWER_CARD)
    static let stateUnaware = PCSCDWord(SCARD_STATE_UNAWARE)
    static let stateChanged = PCSCDWord(SCARD_STATE_CHANGED)
    static let stateUnknown = PCSCDWord(SCARD_STATE_UNKNOWN)
    static let stateUnavailable = PCSCDWord(SCARD_STATE_UNAVAILABLE)
    static let stateEmpty = PCSCDWord(SCARD_STATE_EMPTY)
    static let statePresent = PCSCDWord(SCARD_STATE_PRESENT)
    static let stateExclusive = PCSCDWord(SCARD_STATE_EXCLUSIVE)
    static let stateInUse = PCSCDWord(SCARD_STATE_INUSE)
    static let stateMute = PCSCDWord(SCARD_STATE_MUTE)
}

/// What `SCardGetStatusChange` reported for one reader.
struct PCSCReaderState: Sendable, Hashable {
    /// `dwEventState`: state bits in the low 16 bits, the card event counter in the high 16 bits.
    var eventState: PCSCDWord
    /// The card's ATR (empty when no card).
    var atr: [UInt8]

    /// The state bits to pass back as `dwCurrentState` (without `SCARD_STATE_CHANGED`).
    var currentState: PCSCDWord { eventState & ~PCSCConstant.stateChanged }
    /// The number of card insertions and removals seen by pcscd (high 16 bits).
    var eventCount: PCSCDWord { (eventState >> 16) & 0xFFFF }
    /// Whether a card is present.
    var isPresent: Bool { eventState & PCSCConstant.statePresent != 0 }
    /// Whether the slot is empty.
    var isEmpty: Bool { eventState & PCSCConstant.stateEmpty != 0 }
    /// Whether the reader is gone or unusable.
    var isUnavailable: Bool { eventState & (PCSCConstant.stateUnknown | PCSCConstant.stateUnavailable) != 0 }
}

/// Every pcsc-lite call the backend makes: the one file that touches C functions and raw pointers.
///
/// Each function names the C function it wraps and returns the status as `PCSCStatus`.
enum PCSCCalls {
    /// The corresponding C function is `SCardEstablishContext` (scope `SCARD_SCOPE_SYSTEM`).
    static func establishContext() -> Result<PCSCContextValue, PCSCStatus> {
        var context: SCARDCONTEXT = 0
        let status = SCardEstablishContext(PCSCDWord(SCARD_SCOPE_SYSTEM), nil, nil, &context)
        return status == SCARD_S_SUCCESS ? .success(context) : .failure(PCSCStatus(rawValue: status))
    }

    /// The corresponding C function is `SCardReleaseContext`.
    static func releaseContext(_ context: PCSCContextValue) {
        _ = SCardReleaseContext(context)
    }

    /// The corresponding C function is `SCardCancel`; the one call made from outside the owning queue.
    static func cancel(_ context: PCSCContextValue) {
        _ = SCardCancel(context)
    }

    /// The corresponding C function is `SCardListReaders` (called twice: length, then fill).
    ///
    /// `SCARD_E_NO_READERS_AVAILABLE` gives an empty list.
    static func listReaders(_ context: PCSCContextValue) -> Result<[String], PCSCStatus> {
        var length: DWORD = 0
        var status = SCardListReaders(context, nil, nil, &length)
        if status == SCARD_E_NO_READERS_AVAILABLE { return .success([]) }
        guard status == SCARD_S_SUCCESS else { return .failure(PCSCStatus(rawValue: status)) }
        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        status = SCardListReaders(context, nil, &buffer, &length)
        if status == SCARD_E_NO_READERS_AVAILABLE { return .success([]) }
        guard status == SCARD_S_SUCCESS else { return .failure(PCSCStatus(rawValue: status)) }
        var names: [String] = []
        var current: [UInt8] = []
        for char in buffer.prefix(Int(length)) {
            if char == 0 {
                if current.isEmpty { break }
                names.append(String(decoding: current, as: UTF8.self))
                current.removeAll()
            } else {
                current.append(UInt8(bitPattern: char))
            }
        }
        return .success(names)
    }

    /// The corresponding C function is `SCardGetStatusChange` for one reader.
    ///
    /// Blocks until the state differs from `currentState` or `timeoutMilliseconds` passes
    /// (`SCARD_E_TIMEOUT`); `SCardCancel` ends it early with `SCARD_E_CANCELLED`.
    static func getStatusChange(
        _ context: PCSCContextValue, reader: String, currentState: PCSCDWord, timeoutMilliseconds: PCSCDWord
    ) -> Result<PCSCReaderState, PCSCStatus> {
        reader.withCString { name in
            var state = SCARD_READERSTATE()
            state.szReader = name
            state.dwCurrentState = currentState
            let status = SCardGetStatusChange(context, timeoutMilliseconds, &state, 1)
            guard status == SCARD_S_SUCCESS else { return .failure(PCSCStatus(rawValue: status)) }
            let count = min(Int(state.cbAtr), Int(MAX_ATR_SIZE))
            let atr = withUnsafeBytes(of: state.rgbAtr) { Array($0.prefix(count)) }
            return .success(PCSCReaderState(eventState: state.dwEventState, atr: atr))
        }
    }

    /// The corresponding C function is `SCardConnect`.
    ///
    /// - Returns: the card handle and the active protocol.
    static func connect(
        _ context: PCSCContextValue, reader: String, share: PCSCDWord, protocols: PCSCDWord
    ) -> Result<(PCSCCardValue, PCSCDWord), PCSCStatus> {
        var card: SCARDHANDLE = 0
        var active: DWORD = 0
        let status = SCardConnect(context, reader, share, protocols, &card, &active)
        return status == SCARD_S_SUCCESS ? .success((card, active)) : .failure(PCSCStatus(rawValue: status))
    }

    /// The corresponding C function is `SCardStatus`.
    ///
    /// - Returns: the ATR of the connected card (what the reader built for it, `docs/reference/pcsc.md` §10.1).
    static func status(_ card: PCSCCardValue) -> Result<[UInt8], PCSCStatus> {
        var name = [CChar](repeating: 0, count: 256)
        var nameLength = DWORD(name.count)
        var state: DWORD = 0
        var active: DWORD = 0
        var atr = [UInt8](repeating: 0, count: Int(MAX_ATR_SIZE))
        var atrLength = DWORD(atr.count)
        let status = SCardStatus(card, &name, &nameLength, &state, &active, &atr, &atrLength)
        guard status == SCARD_S_SUCCESS else { return .failure(PCSCStatus(rawValue: status)) }
        return .success(Array(atr.prefix(min(Int(atrLength), atr.count))))
    }

    /// The corresponding C function is `SCardReconnect`.
    static func reconnect(
        _ card: PCSCCardValue, share: PCSCDWord, protocols: PCSCDWord, initialization: PCSCDWord
    ) -> Result<PCSCDWord, PCSCStatus> {
        var active: DWORD = 0
        let status = SCardReconnect(card, share, protocols, initialization, &active)
        return status == SCARD_S_SUCCESS ? .success(active) : .failure(PCSCStatus(rawValue: status))
    }

    /// The corresponding C function is `SCardDisconnect`.
    static func disconnect(_ card: PCSCCardValue, disposition: PCSCDWord) -> PCSCStatus {
        PCSCStatus(rawValue: SCardDisconnect(card, disposition))
    }

    /// The corresponding C function is `SCardTransmit` (T=1 or T=0 PCI by the active protocol).
    ///
    /// - Returns: the response including SW1 SW2.
    static func transmit(_ card: PCSCCardValue, activeProtocol: PCSCDWord, _ apdu: [UInt8]) -> Result<
        [UInt8], PCSCStatus
    > {
        let pci = activeProtocol == PCSCConstant.protocolT0 ? cpcsc_pci_t0() : cpcsc_pci_t1()
        var response = [UInt8](repeating: 0, count: 4096)
        var length = DWORD(response.count)
        let status = SCardTransmit(card, pci, apdu, DWORD(apdu.count), nil, &response, &length)
        guard status == SCARD_S_SUCCESS else { return .failure(PCSCStatus(rawValue: status)) }
        return .success(Array(response.prefix(Int(length))))
    }
}
