/// A failure of the PKCS #11 token layer, with a stable code, an operator message and its sysexits status.
///
/// Messages name the token, key label, mechanism and `CKR_*` value, never key bytes or a PIN (the layer never
/// puts either into a message). Equality and hashing use the code only (docs/style.md §3.2).
public struct TokenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is; new codes never break callers that switch with a default.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code's name, for messages and tests.
        public let name: String
        /// The sysexits(3) status a command exits with (docs/style.md §3.4).
        public let exitStatus: Int32

        /// A URI that does not parse or names an unsupported attribute (64, usage).
        public static let badURI = Code(name: "badURI", exitStatus: 64)
        /// No module to load, or the module cannot be loaded or initialised (69, unavailable).
        public static let moduleUnavailable = Code(name: "moduleUnavailable", exitStatus: 69)
        /// No token matches the URI (66, no input).
        public static let tokenNotFound = Code(name: "tokenNotFound", exitStatus: 66)
        /// Several tokens or keys match where one is needed (64, usage: name it more precisely).
        public static let ambiguous = Code(name: "ambiguous", exitStatus: 64)
        /// No key matches the label or id (66, no input).
        public static let objectNotFound = Code(name: "objectNotFound", exitStatus: 66)
        /// The PIN was refused (`CKR_PIN_INCORRECT`, `CKR_PIN_LEN_RANGE`, locked or expired) (77, permission).
        public static let pinIncorrect = Code(name: "pinIncorrect", exitStatus: 77)
        /// The token does not offer a mechanism for this key (69, unavailable).
        public static let mechanismNotOffered = Code(name: "mechanismNotOffered", exitStatus: 69)
        /// The token went away (removed, not present, session gone): pause and reconnect (69, unavailable).
        public static let tokenLost = Code(name: "tokenLost", exitStatus: 69)
        /// A key with this label exists already; import and generate never overwrite (73, cannot create).
        public static let keyExists = Code(name: "keyExists", exitStatus: 73)
        /// The key is provisioned wrongly for the operation (wrong type, usage not permitted) (65, data error).
        public static let keyUnsuitable = Code(name: "keyUnsuitable", exitStatus: 65)
        /// Input of a length the operation cannot take (a caller's programming error) (70, internal).
        public static let invalidInput = Code(name: "invalidInput", exitStatus: 70)
        /// Any other `CKR_*` the layer does not expect (70, internal).
        public static let library = Code(name: "library", exitStatus: 70)

        public var description: String { name }
    }

    /// The kind of failure.
    public let code: Code
    /// What happened and what to do, without key bytes or PINs.
    public let message: String
    /// The `CKR_*` value that caused it, if a PKCS #11 call did.
    public let status: PKCS11Status?

    /// Creates an error with `code` and `message`, optionally caused by `status`.
    public init(_ code: Code, _ message: String, status: PKCS11Status? = nil) {
        self.code = code
        self.message = message
        self.status = status
    }

    /// The sysexits(3) status for this error.
    public var exitStatus: Int32 { code.exitStatus }

    /// Whether the token went away: the caller pauses the line and reconnects (finalise, initialise, log in).
    public var isTokenLost: Bool { code == .tokenLost }

    public var description: String { message }

    public static func == (lhs: TokenError, rhs: TokenError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// The error for `status` returned by `operation` (e.g. "C_Sign(CKM_AES_CMAC) with key brand-master").
    ///
    /// The mapping is docs/reference/pkcs11.md §6: PIN refusals → `.pinIncorrect`; removal, absence and a session
    /// gone → `.tokenLost`; `CKR_MECHANISM_INVALID` → `.mechanismNotOffered`; key type or usage → `.keyUnsuitable`.
    static func from(_ status: PKCS11Status, _ operation: String) -> TokenError {
        let text = "\(operation) failed: \(status)"
        switch status {
        case .pinIncorrect, .pinLenRange, .pinLocked, .pinExpired:
            return TokenError(
                .pinIncorrect, "\(text): the token refused the PIN (check the pin-source)", status: status)
        case .deviceRemoved, .tokenNotPresent, .sessionHandleInvalid, .sessionClosed, .deviceError:
            return TokenError(.tokenLost, "\(text): the token went away; reconnect when it is back", status: status)
        case .mechanismInvalid:
            return TokenError(.mechanismNotOffered, "\(text): the token does not offer this mechanism", status: status)
        case .keyTypeInconsistent, .keyFunctionNotPermitted, .keySizeRange:
            return TokenError(.keyUnsuitable, "\(text): the key is not provisioned for this use", status: status)
        default:
            return TokenError(.library, text, status: status)
        }
    }
}
