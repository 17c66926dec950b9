internal import CPKCS11

/// A PKCS #11 return value (`CK_RV`), named as the specification names it (docs/style.md §3.1).
///
/// Values are those of PKCS #11 v2.40 base specification §5.1 (as in p11-kit's `pkcs11.h`); the description is
/// the `CKR_*` name and its hex value, e.g. `CKR_PIN_INCORRECT (0xA0)`. Thrown by the call seam
/// (`PKCS11Functions`) and turned into a `TokenError` by the session, which adds what was being done.
public struct PKCS11Status: Error, RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt

    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// `CKR_OK`.
    public static let ok = PKCS11Status(rawValue: UInt(CKR_OK))
    /// `CKR_GENERAL_ERROR`.
    public static let generalError = PKCS11Status(rawValue: UInt(CKR_GENERAL_ERROR))
    /// `CKR_ARGUMENTS_BAD`.
    public static let argumentsBad = PKCS11Status(rawValue: UInt(CKR_ARGUMENTS_BAD))
    /// `CKR_ATTRIBUTE_SENSITIVE`: the value of a sensitive or unextractable attribute cannot be read.
    public static let attributeSensitive = PKCS11Status(rawValue: UInt(CKR_ATTRIBUTE_SENSITIVE))
    /// `CKR_ATTRIBUTE_TYPE_INVALID`: the object has no such attribute.
    public static let attributeTypeInvalid = PKCS11Status(rawValue: UInt(CKR_ATTRIBUTE_TYPE_INVALID))
    /// `CKR_DATA_LEN_RANGE`.
    public static let dataLenRange = PKCS11Status(rawValue: UInt(CKR_DATA_LEN_RANGE))
    /// `CKR_DEVICE_ERROR`.
    public static let deviceError = PKCS11Status(rawValue: UInt(CKR_DEVICE_ERROR))
    /// `CKR_DEVICE_REMOVED`: the token was removed during the call.
    public static let deviceRemoved = PKCS11Status(rawValue: UInt(CKR_DEVICE_REMOVED))
    /// `CKR_KEY_SIZE_RANGE`.
    public static let keySizeRange = PKCS11Status(rawValue: UInt(CKR_KEY_SIZE_RANGE))
    /// `CKR_KEY_TYPE_INCONSISTENT`.
    public static let keyTypeInconsistent = PKCS11Status(rawValue: UInt(CKR_KEY_TYPE_INCONSISTENT))
    /// `CKR_KEY_FUNCTION_NOT_PERMITTED`: the key lacks the usage attribute (`CKA_SIGN`, `CKA_ENCRYPT`, …).
    public static let keyFunctionNotPermitted = PKCS11Status(rawValue: UInt(CKR_KEY_FUNCTION_NOT_PERMITTED))
    /// `CKR_MECHANISM_INVALID`: the token does not offer the mechanism (or not for this key).
    public static let mechanismInvalid = PKCS11Status(rawValue: UInt(CKR_MECHANISM_INVALID))
    /// `CKR_OBJECT_HANDLE_INVALID`.
    public static let objectHandleInvalid = PKCS11Status(rawValue: UInt(CKR_OBJECT_HANDLE_INVALID))
    /// `CKR_OPERATION_ACTIVE`.
    public static let operationActive = PKCS11Status(rawValue: UInt(CKR_OPERATION_ACTIVE))
    /// `CKR_PIN_INCORRECT`.
    public static let pinIncorrect = PKCS11Status(rawValue: UInt(CKR_PIN_INCORRECT))
    /// `CKR_PIN_LEN_RANGE`.
    public static let pinLenRange = PKCS11Status(rawValue: UInt(CKR_PIN_LEN_RANGE))
    /// `CKR_PIN_EXPIRED`.
    public static let pinExpired = PKCS11Status(rawValue: UInt(CKR_PIN_EXPIRED))
    /// `CKR_PIN_LOCKED`.
    public static let pinLocked = PKCS11Status(rawValue: UInt(CKR_PIN_LOCKED))
    /// `CKR_SESSION_CLOSED`.
    public static let sessionClosed = PKCS11Status(rawValue: UInt(CKR_SESSION_CLOSED))
    /// `CKR_SESSION_HANDLE_INVALID`: the session is gone (after a removal, or closed).
    public static let sessionHandleInvalid = PKCS11Status(rawValue: UInt(CKR_SESSION_HANDLE_INVALID))
    /// `CKR_TOKEN_NOT_PRESENT`.
    public static let tokenNotPresent = PKCS11Status(rawValue: UInt(CKR_TOKEN_NOT_PRESENT))
    /// `CKR_USER_ALREADY_LOGGED_IN`: the application is logged in already (login is per application and token).
    public static let userAlreadyLoggedIn = PKCS11Status(rawValue: UInt(CKR_USER_ALREADY_LOGGED_IN))
    /// `CKR_USER_NOT_LOGGED_IN`.
    public static let userNotLoggedIn = PKCS11Status(rawValue: UInt(CKR_USER_NOT_LOGGED_IN))
    /// `CKR_BUFFER_TOO_SMALL`.
    public static let bufferTooSmall = PKCS11Status(rawValue: UInt(CKR_BUFFER_TOO_SMALL))
    /// `CKR_CRYPTOKI_NOT_INITIALIZED`.
    public static let cryptokiNotInitialized = PKCS11Status(rawValue: UInt(CKR_CRYPTOKI_NOT_INITIALIZED))
    /// `CKR_CRYPTOKI_ALREADY_INITIALIZED`: not an error for a process that initialises once per module.
    public static let cryptokiAlreadyInitialized = PKCS11Status(rawValue: UInt(CKR_CRYPTOKI_ALREADY_INITIALIZED))

    private static let names: [UInt: String] = [
        UInt(CKR_OK): "CKR_OK", UInt(CKR_CANCEL): "CKR_CANCEL", UInt(CKR_HOST_MEMORY): "CKR_HOST_MEMORY",
        UInt(CKR_SLOT_ID_INVALID): "CKR_SLOT_ID_INVALID", UInt(CKR_GENERAL_ERROR): "CKR_GENERAL_ERROR",
        UInt(CKR_FUNCTION_FAILED): "CKR_FUNCTION_FAILED", UInt(CKR_ARGUMENTS_BAD): "CKR_ARGUMENTS_BAD",
        UInt(CKR_ATTRIBUTE_READ_ONLY): "CKR_ATTRIBUTE_READ_ONLY",
        UInt(CKR_ATTRIBUTE_SENSITIVE): "CKR_ATTRIBUTE_SENSITIVE",
        UInt(CKR_ATTRIBUTE_TYPE_INVALID): "CKR_ATTRIBUTE_TYPE_INVALID",
        UInt(CKR_ATTRIBUTE_VALUE_INVALID): "CKR_ATTRIBUTE_VALUE_INVALID",
        UInt(CKR_ACTION_PROHIBITED): "CKR_ACTION_PROHIBITED", UInt(CKR_DATA_INVALID): "CKR_DATA_INVALID",
        UInt(CKR_DATA_LEN_RANGE): "CKR_DATA_LEN_RANGE", UInt(CKR_DEVICE_ERROR): "CKR_DEVICE_ERROR",
        UInt(CKR_DEVICE_MEMORY): "CKR_DEVICE_MEMORY", UInt(CKR_DEVICE_REMOVED): "CKR_DEVICE_REMOVED",
        UInt(CKR_FUNCTION_NOT_SUPPORTED): "CKR_FUNCTION_NOT_SUPPORTED",
        UInt(CKR_KEY_HANDLE_INVALID): "CKR_KEY_HANDLE_INVALID", UInt(CKR_KEY_SIZE_RANGE): "CKR_KEY_SIZE_RANGE",
        UInt(CKR_KEY_TYPE_INCONSISTENT): "CKR_KEY_TYPE_INCONSISTENT",
        UInt(CKR_KEY_FUNCTION_NOT_PERMITTED): "CKR_KEY_FUNCTION_NOT_PERMITTED",
        UInt(CKR_MECHANISM_INVALID): "CKR_MECHANISM_INVALID",
        UInt(CKR_MECHANISM_PARAM_INVALID): "CKR_MECHANISM_PARAM_INVALID",
        UInt(CKR_OBJECT_HANDLE_INVALID): "CKR_OBJECT_HANDLE_INVALID",
        UInt(CKR_OPERATION_ACTIVE): "CKR_OPERATION_ACTIVE",
        UInt(CKR_OPERATION_NOT_INITIALIZED): "CKR_OPERATION_NOT_INITIALIZED",
        UInt(CKR_PIN_INCORRECT): "CKR_PIN_INCORRECT", UInt(CKR_PIN_LEN_RANGE): "CKR_PIN_LEN_RANGE",
        UInt(CKR_PIN_EXPIRED): "CKR_PIN_EXPIRED", UInt(CKR_PIN_LOCKED): "CKR_PIN_LOCKED",
        UInt(CKR_SESSION_CLOSED): "CKR_SESSION_CLOSED", UInt(CKR_SESSION_HANDLE_INVALID): "CKR_SESSION_HANDLE_INVALID",
        UInt(CKR_SESSION_READ_ONLY): "CKR_SESSION_READ_ONLY",
        UInt(CKR_TEMPLATE_INCOMPLETE): "CKR_TEMPLATE_INCOMPLETE",
        UInt(CKR_TEMPLATE_INCONSISTENT): "CKR_TEMPLATE_INCONSISTENT",
        UInt(CKR_TOKEN_NOT_PRESENT): "CKR_TOKEN_NOT_PRESENT",
        UInt(CKR_TOKEN_NOT_RECOGNIZED): "CKR_TOKEN_NOT_RECOGNIZED",
        UInt(CKR_TOKEN_WRITE_PROTECTED): "CKR_TOKEN_WRITE_PROTECTED",
        UInt(CKR_USER_ALREADY_LOGGED_IN): "CKR_USER_ALREADY_LOGGED_IN",
        UInt(CKR_USER_NOT_LOGGED_IN): "CKR_USER_NOT_LOGGED_IN",
        UInt(CKR_USER_PIN_NOT_INITIALIZED): "CKR_USER_PIN_NOT_INITIALIZED",
        UInt(CKR_USER_TYPE_INVALID): "CKR_USER_TYPE_INVALID", UInt(CKR_BUFFER_TOO_SMALL): "CKR_BUFFER_TOO_SMALL",
        UInt(CKR_CRYPTOKI_NOT_INITIALIZED): "CKR_CRYPTOKI_NOT_INITIALIZED",
        UInt(CKR_CRYPTOKI_ALREADY_INITIALIZED): "CKR_CRYPTOKI_ALREADY_INITIALIZED",
    ]

    /// The `CKR_*` name and hex value, e.g. `CKR_DEVICE_REMOVED (0x32)`; unknown values as `CKR 0x…`.
    public var description: String {
        let hex = "0x" + String(rawValue, radix: 16, uppercase: true)
        guard let name = Self.names[rawValue] else { return "CKR \(hex)" }
        return "\(name) (\(hex))"
    }
}
