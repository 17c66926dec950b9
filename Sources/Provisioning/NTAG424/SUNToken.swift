import NFCTags

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

    /// What the template writes into the file: `0`s (the chip never writes its mirrors back), or, to locate the
    /// window, `Z`s.
    func placeholder(marked: Bool) -> String { String(repeating: marked ? "Z" : "0", count: length) }

    public static func < (lhs: SUNToken, rhs: SUNToken) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
