/// Owns one `SCARDCONTEXT` and releases it in `deinit`.
///
/// Not Sendable: pcsc-lite wants one context per thread of use; it is used only on the owning actor's
/// queue (the single exception, `SCardCancel`, goes through `PCSCCancelHandle`).
final class PCSCContext {
    let value: PCSCContextValue

    /// Establishes a context.
    ///
    /// The corresponding C function is `SCardEstablishContext`.
    init() throws(PCSCStatus) {
        value = try PCSCCalls.establishContext().get()
    }

    deinit { PCSCCalls.releaseContext(value) }
}

@available(*, unavailable)
extension PCSCContext: Sendable {}

/// Carries a context to a task-cancellation handler: `SCardCancel` is the one pcsc-lite call designed
/// to run while another call (`SCardGetStatusChange`) blocks on the context.
struct PCSCCancelHandle: Sendable {
    let context: PCSCContextValue
    func cancel() { PCSCCalls.cancel(context) }
}

/// Owns one card connection (`SCARDHANDLE`); disconnects with `SCARD_LEAVE_CARD` in `deinit` unless
/// already disconnected.
///
/// Not Sendable: used only on the owning actor's queue.
final class PCSCCard {
    let value: PCSCCardValue
    private(set) var activeProtocol: PCSCDWord
    private(set) var isOpen = true

    init(value: PCSCCardValue, activeProtocol: PCSCDWord) {
        self.value = value
        self.activeProtocol = activeProtocol
    }

    /// Sends one APDU.
    ///
    /// The corresponding C function is `SCardTransmit`.
    func transmit(_ apdu: [UInt8]) throws(PCSCStatus) -> [UInt8] {
        guard isOpen else { throw .invalidHandle }
        return try PCSCCalls.transmit(value, activeProtocol: activeProtocol, apdu).get()
    }

    /// The ATR of the connected card.
    ///
    /// The corresponding C function is `SCardStatus`.
    func answerToReset() throws(PCSCStatus) -> [UInt8] {
        guard isOpen else { throw .invalidHandle }
        return try PCSCCalls.status(value).get()
    }

    /// Reconnects exclusively with `initialization` (`SCARD_RESET_CARD` re-activates the tag).
    ///
    /// The corresponding C function is `SCardReconnect`.
    func reconnect(initialization: PCSCDWord) throws(PCSCStatus) {
        guard isOpen else { throw .invalidHandle }
        activeProtocol = try PCSCCalls.reconnect(
            value, share: PCSCConstant.shareExclusive, protocols: PCSCConstant.protocolT0 | PCSCConstant.protocolT1,
            initialization: initialization
        ).get()
    }

    /// Ends the connection with `disposition`.
    ///
    /// The corresponding C function is `SCardDisconnect`.
    func disconnect(_ disposition: PCSCDWord) {
        guard isOpen else { return }
        isOpen = false
        _ = PCSCCalls.disconnect(value, disposition: disposition)
    }

    deinit { disconnect(PCSCConstant.leaveCard) }
}

@available(*, unavailable)
extension PCSCCard: Sendable {}
