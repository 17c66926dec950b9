import NFCTags

extension FailureClass {
    /// The failure class of an error raised by a Type 2 tag operation or its transport.
    ///
    /// `TransportError`: silence → `timeout`, NAK → `nak`, gone → `tagLost`, reader faults and
    /// malformed answers → `transport`. `Type2Error`: `notNDEF`/`unsupportedCC` → `notNDEF`,
    /// `readOnly`, `capacity`, `verifyMismatch`, `lockFailed` by name, `unknownChip` → `wrongChip`,
    /// anything else (invalid answers, unsupported commands, failed PWD_AUTH) → `transport`, with the
    /// underlying `TransportError` taking precedence when the error carries one as its cause.
    /// Returns `nil` for errors that are not about a tag (cancellation, CLI errors).
    public init?(classifying error: any Error) {
        if let transport = error as? TransportError {
            switch transport {
            case .noAnswer: self = .timeout
            case .nak: self = .nak
            case .tagLost: self = .tagLost
            case .transport, .invalidResponse: self = .transport
            }
            return
        }
        guard let tagError = error as? Type2Error else { return nil }
        switch tagError.code {
        case .notNDEF, .unsupportedCC: self = .notNDEF
        case .readOnly: self = .readOnly
        case .capacity: self = .capacity
        case .verifyMismatch: self = .verifyMismatch
        case .lockFailed: self = .lockFailed
        case .unknownChip: self = .wrongChip
        default:
            if let cause = tagError.cause, let inner = FailureClass(classifying: cause) {
                self = inner
            } else {
                self = .transport
            }
        }
    }
}
