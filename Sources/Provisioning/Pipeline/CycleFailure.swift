import NFCTags

/// A classified tag failure: the stable class, where it happened, and words for the operator.
public struct CycleFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stable failure class.
    public var failureClass: FailureClass
    /// The phase it happened in.
    public var phase: Phase
    /// The page involved, when known.
    public var page: Int?
    /// Detail for `failures.csv` (NAK code, expected vs found); never key material.
    public var detail: String

    /// Creates a failure.
    public init(_ failureClass: FailureClass, phase: Phase, page: Int? = nil, _ detail: String) {
        self.failureClass = failureClass
        self.phase = phase
        self.page = page
        self.detail = detail
    }

    /// Maps transport and Type 2 errors to failure classes, keeping NAK codes, silence and a lost tag
    /// apart (`docs/reference/type2.md` §3.10).
    public init(classifying error: any Error, phase: Phase) {
        self.phase = phase
        if let transport = error as? TransportError {
            page = nil
            switch transport {
            case .tagLost: (failureClass, detail) = (.tagLost, "tag left the field")
            case .noAnswer: (failureClass, detail) = (.timeout, "no answer from the tag")
            case .nak(let code):
                (failureClass, detail) = (
                    .nak, "NAK \(String(code, radix: 16, uppercase: true))h" + Self.nakMeaning(code)
                )
            case .transport(let text): (failureClass, detail) = (.transport, text)
            case .invalidResponse(let text): (failureClass, detail) = (.transport, "invalid response: \(text)")
            case .readerGone(let text): (failureClass, detail) = (.transport, "reader gone: \(text)")
            }
            return
        }
        if let type2 = error as? TagError {
            page = type2.page
            if let cause = type2.cause as? TransportError {
                self = CycleFailure(classifying: cause, phase: phase)
                page = type2.page
                detail += type2.page.map { " (page \($0))" } ?? ""
                return
            }
            detail = type2.message
            switch type2.code {
            case .notNDEF, .unsupportedCC: failureClass = .notNDEF
            case .readOnly: failureClass = .readOnly
            case .capacity: failureClass = .capacity
            case .verifyMismatch: failureClass = .verifyMismatch
            case .lockFailed: failureClass = .lockFailed
            case .unknownChip, .wrongChip: failureClass = .wrongChip
            case .tamperedCC, .identityMismatch: failureClass = .identityMismatch
            case .protectFailed, .authenticationFailed: failureClass = .protectFailed
            case .lockUnsupported: failureClass = .lockUnsupported
            default: failureClass = .transport
            }
            return
        }
        page = nil
        failureClass = .transport
        detail = String(describing: error)
    }

    /// The reader loss under `error` (directly, or as a tag error's cause), if that is what it is: no tag
    /// failure, the line pauses for the reader (`LineWorker+ReaderLoss`).
    public static func readerLoss(in error: any Error) -> TransportError? {
        let transport = (error as? TransportError) ?? ((error as? TagError)?.cause as? TransportError)
        guard case .readerGone = transport else { return nil }
        return transport
    }

    /// Whether trying again while the tag stays in the field can help.
    public var isRetryable: Bool {
        switch failureClass {
        case .timeout, .nak, .verifyMismatch, .lockFailed, .transport, .identityMismatch: true
        default: false
        }
    }

    /// Whether another try is due after try `attempt` of `tries` in all: retryable classes are tried
    /// `tries` times, an `identityMismatch` at most twice (a misread passes on the re-read; a clone
    /// stays a clone).
    public func allowsRetry(after attempt: Int, of tries: Int) -> Bool {
        guard isRetryable else { return false }
        let limit = failureClass == .identityMismatch ? min(tries, IdentityCheck.triesForMismatch) : tries
        return attempt < limit
    }

    public var description: String { "\(failureClass.rawValue) in \(phase.rawValue): \(detail)" }

    static func nakMeaning(_ code: UInt8) -> String {
        switch code {
        case 0x0: " (invalid argument or locked page)"
        case 0x1: " (parity or CRC error)"
        case 0x4: " (authentication counter overflow)"
        case 0x5: " (EEPROM write error)"
        default: ""
        }
    }
}
