/// The dynamic message a keyed chip renders on every unauthenticated read (a fresh MAC over its UID and a counter
/// that only rises), and how a tap of it is verified: the VERIFY side of a `KeyedScheme`.
///
/// Provisioning and the CLI ask this capability instead of naming a chip: the template placeholders the scheme
/// declares, the layout it computes from where a row's message puts them, the read-back check after personalising
/// and in `audit`, and the verification of a tap URL (UID, counter, MAC verdict). Replay (the counter against the
/// ledger's counters) stays with the caller.
public protocol DynamicMessageScheme: Sendable {
    /// The scheme's name in messages (`SUN`).
    var name: String { get }
    /// What the scheme's placeholder names start with (`sun.`): a name with it that is not a token is refused.
    var tokenPrefix: String { get }
    /// The placeholders the scheme declares, in their canonical order.
    var tokens: [DynamicToken] { get }
    /// How a template uses the tokens, after the chip's name (`mirrors with {{sun.uid}} …`), for messages.
    var usage: String { get }
    /// The key numbers a tag of the scheme holds (their versions are what the key journal names).
    var keyNumbers: ClosedRange<Int> { get }
    /// The key that may change every other key, which a `--deep` audit proves with one authentication.
    var deepKeyNumber: Int { get }

    /// What a keyed job's section (`options`, as the keyed scheme decoded it) and its write `rights` say about the
    /// dynamic message.
    func messageOptions(_ options: any KeyedJobOptions, rights: DynamicMessageOptions.Rights) -> DynamicMessageOptions
    /// The first rule the scheme's `tokens` break as one template uses them (each token once and without filters
    /// is checked by the caller), naming the offending token; `nil` when they are accepted.
    func problem(with tokens: [DynamicToken]) -> DynamicMessageProblem?
    /// The layout of a row's dynamic message from where each token's window starts in the encoded NDEF message.
    func layout(messageOffsets: [DynamicToken: Int], options: DynamicMessageOptions) -> any DynamicMessageLayout
    /// Where a tap URL carries the dynamic message, from the template strings that hold tokens (in file order).
    ///
    /// - Throws: `DynamicMessageProblem` when no string holds what a tap must carry, or a token sits where a tap
    ///   cannot be taken apart.
    func tapLayout(strings: [[DynamicTemplatePart]], options: DynamicMessageOptions) throws(DynamicMessageProblem)
        -> any TapLayout
    /// Checks that `key` can verify taps (the right lengths), so a bad master key is an error, not a verdict.
    ///
    /// - Throws: the key derivation's error.
    func checkKeys(_ key: @escaping TagKey) throws
    /// Checks one tap URL with the tag's keys (`key(uid, number)`, derived by the keyed scheme, only the ones the
    /// check needs): the UID, the counter and the MAC verdict. A bad URL is a verdict, never an error.
    func verifyTap(_ url: String, layout: any TapLayout, key: @escaping TagKey) -> TapVerification
    /// Reads what an audit checks besides the message (the file settings and key versions), without changing the
    /// tag; with `deepKey`, one authentication proves it. `nil` when the tag is not one of the scheme's chips.
    ///
    /// - Throws: transport and tag errors of the reads.
    func readKeyedState(_ tag: any FamilyTag, deepKey: SecretKey?) throws -> KeyedTagReading?
}

/// A tag's keys by key number, derived by its keyed scheme for the tag's UID.
public typealias TagKeys = @Sendable (_ uid: [UInt8]) throws -> [SecretKey]

/// One key of a tag by its key number, derived alone (a tap's check needs one or two of a tag's keys, and a key in
/// a token costs a call each).
public typealias TagKey = @Sendable (_ uid: [UInt8], _ number: Int) throws -> SecretKey

/// One placeholder a `DynamicMessageScheme` declares: a window of `length` characters the chip fills.
public struct DynamicToken: Sendable, Hashable {
    /// The name between the braces (`sun.picc`).
    public let name: String
    /// The characters the window takes.
    public let length: Int

    /// Creates a token.
    public init(name: String, length: Int) {
        self.name = name
        self.length = length
    }

    /// The token as a template writes it.
    public var written: String { "{{\(name)}}" }

    /// What the template writes into the window: `0`s (the chip never writes its window back), or, to locate the
    /// window, `Z`s.
    public func filler(marked: Bool) -> String { String(repeating: marked ? "Z" : "0", count: length) }
}

/// A template string as the scheme sees it: literal text, its tokens, and other placeholders.
public enum DynamicTemplatePart: Sendable, Hashable {
    /// Literal text.
    case literal(String)
    /// One of the scheme's tokens, with its index among the template's tokens (to name it in a problem).
    case token(DynamicToken, index: Int)
    /// Any other placeholder.
    case other
}

/// What a job says about its dynamic message, in the scheme's neutral terms.
public struct DynamicMessageOptions: Sendable, Hashable {
    /// Who may rewrite the message after personalisation.
    public enum Rights: Sendable, Hashable {
        /// Anyone (the job leaves the tag writable).
        case free
        /// Only with the tag's write key.
        case key
        /// Nobody (a permanent lock).
        case never
    }

    /// Who may rewrite the message.
    public var rights: Rights
    /// Whether the MAC covers the message from its first window up to the MAC (`false`: nothing, the session key
    /// alone binds UID and counter).
    public var macCoversMessage: Bool

    /// Creates options.
    public init(rights: Rights, macCoversMessage: Bool) {
        self.rights = rights
        self.macCoversMessage = macCoversMessage
    }
}

/// A row's dynamic message as its scheme laid it out in the chip's memory.
public protocol DynamicMessageLayout: Sendable {
    /// Why the chip would refuse these windows (in the chip's words), `nil` when it takes them.
    func refusal() -> String?
    /// The settings answer the chip gives for the file once personalised (compared by `audit`).
    var settingsAnswer: [UInt8] { get }
    /// Checks `message` as an unauthenticated reader got it against `written` (what the job wrote, zeros in the
    /// windows) for the tag `uid` with its `keys`: every byte outside the windows unchanged, the windows filled the
    /// way the keys predict, and the counter `counter` (`nil`: any from 1 up). Returns the counter the windows show.
    ///
    /// - Throws: a `DynamicMessageProblem` naming the first byte or window that disagrees.
    func checkReadBack(_ message: [UInt8], written: [UInt8], uid: [UInt8], keys: [SecretKey], counter: UInt32?)
        throws(DynamicMessageProblem) -> UInt32?
}

/// Where a tap URL carries a scheme's dynamic message.
public protocol TapLayout: Sendable {
    /// `url` with the dynamic windows replaced by the zeros the template wrote: the URL as it was written.
    func masked(_ url: String) -> String
}

/// What a tap URL says about its tag once checked.
public struct TapVerification: Sendable, Hashable {
    /// Whether the dynamic message verified (its data decrypted and the MAC matched).
    public var isValid: Bool
    /// The UID the message names (also when only the MAC failed).
    public var uid: [UInt8]?
    /// The tag's counter the message names.
    public var counter: UInt32?
    /// Why, in words (no key material).
    public var detail: String

    /// The one reason a tap of scheme `name` is invalid once its cryptography is reached (data that does not
    /// decrypt, a MAC that does not match, a genuine message in another URL): one answer, so none is an oracle.
    public static func notVerified(_ name: String) -> String {
        "the \(name) does not verify (tampered URL, another key, a clone or forged data)"
    }

    /// Creates a verification.
    public init(isValid: Bool, uid: [UInt8]?, counter: UInt32?, detail: String) {
        self.isValid = isValid
        self.uid = uid
        self.counter = counter
        self.detail = detail
    }
}

/// What an audit reads from a keyed tag besides its message, all unauthenticated unless `deep`.
public struct KeyedTagReading: Sendable, Hashable {
    /// The chip's settings answer for the message's file.
    public var settings: [UInt8]
    /// The version of each key, by key number.
    public var keyVersions: [UInt8]
    /// Whether the job's master key opened a session (`nil`: not tried).
    public var deepAuthentication: Bool?

    /// Creates a reading.
    public init(settings: [UInt8], keyVersions: [UInt8], deepAuthentication: Bool? = nil) {
        self.settings = settings
        self.keyVersions = keyVersions
        self.deepAuthentication = deepAuthentication
    }
}

/// A dynamic-message rule broken, in words, with the template token it concerns (an index into the tokens the
/// scheme was given), if any.
public struct DynamicMessageProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The index of the token concerned among those given, if one is.
    public var token: Int?
    /// What is wrong.
    public var description: String

    /// Creates a problem.
    public init(token: Int? = nil, _ description: String) {
        self.token = token
        self.description = description
    }
}

extension KeyedScheme {
    public var dynamicMessage: (any DynamicMessageScheme)? { nil }
}

extension TagFamilies {
    /// Every dynamic message the families' keyed schemes offer.
    public var dynamicMessageSchemes: [any DynamicMessageScheme] {
        families.flatMap(\.keyedSchemes).compactMap(\.dynamicMessage)
    }
}
