/// A SUN template token: a window of `0` characters in the NDEF file that an NTAG 424 DNA fills on every
/// unauthenticated read (`docs/reference/type4.md` §3.2), written `{{sun.picc}}`, `{{sun.mac}}`, `{{sun.uid}}` or
/// `{{sun.counter}}`.
public enum SUNToken: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The encrypted PICC data (UID and read counter under K1): 32 hex characters.
    case picc
    /// The SDM MAC (under the session key from K2): 16 hex characters.
    case mac
    /// The plain UID mirror: 14 hex characters.
    case uid
    /// The plain read-counter mirror: 6 hex characters, most significant first.
    case counter

    /// What the token names start with.
    public static let prefix = "sun."

    /// The characters the window takes.
    public var length: Int {
        switch self {
        case .picc: Type4SDMSettings.piccDataLength
        case .mac: Type4SDMSettings.macLength
        case .uid: Type4SDMSettings.uidMirrorLength
        case .counter: Type4SDMSettings.counterMirrorLength
        }
    }

    /// The token as a template writes it.
    public var written: String { "{{\(Self.prefix)\(rawValue)}}" }

    /// The token as the scheme declares it (`SUNScheme.tokens`).
    public var token: DynamicToken { DynamicToken(name: Self.prefix + rawValue, length: length) }

    /// The SUN token a declared token is, `nil` for another scheme's.
    public init?(_ token: DynamicToken) {
        guard token.name.hasPrefix(Self.prefix),
            let found = Self(rawValue: String(token.name.dropFirst(Self.prefix.count))),
            found.length == token.length
        else { return nil }
        self = found
    }

    public static func < (lhs: SUNToken, rhs: SUNToken) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
