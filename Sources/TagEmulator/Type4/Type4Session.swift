import NFCTags

/// The volatile state of an emulated Type 4 tag: cleared at power-up, RF reset, S(DESELECT) and HLTA
/// (`docs/reference/type4.md` §5.1): the selection, a pending multi-frame step, the AES authentication (key
/// number, TI, CmdCtr, session keys) and the SDM read tracker.
public struct Type4Session: Sendable, Hashable {
    /// The selected level: the PICC (MF) or the NDEF application (DF).
    public enum Level: Sendable, Hashable {
        /// PICC level (MF, `3F00`, DF name `D2760000850100`): selected after power-up.
        case masterFile
        /// The NDEF application (DF `E110`, DF name `D2760000850101`).
        case application
    }

    /// A multi-frame native command waiting for its `AF` continuation.
    public enum PendingStep: Sendable, Hashable {
        /// GetVersion answered part `1` or `2`; the next `90 AF` returns part `answered + 1`.
        case getVersion(answered: Int)
        /// AuthenticateEV2First (`first`) or NonFirst answered part 1 with `E(K, RndB)`; the next `90 AF`
        /// carries `E(K, RndA ‖ RotL(RndB))` (§2.4). `capabilities` is PCDcap2 as sent (First only).
        case authentication(keyNumber: UInt8, first: Bool, rndB: [UInt8], capabilities: [UInt8])
    }

    /// The selected level.
    public var level: Level = .masterFile
    /// The file number of the selected elementary file (`nil`: none).
    public var file: UInt8?
    /// The pending continuation step, if any.
    public var pending: PendingStep?
    /// The open AES session (EV2), if any.
    public var authentication: Type4Authentication?
    /// Commands (APDUs) received since power-up, counted from 1: tells consecutive reads apart (§3.1).
    public internal(set) var commandNumber = 0
    /// The unauthenticated read sequence of an SDM file under way, if the last command was one of its reads.
    var sdmRead: Type4SDMReadSequence?

    /// The power-up state (MF selected), or `level` selected; no file, nothing pending, not authenticated.
    public init(level: Level = .masterFile) { self.level = level }

    /// Selects `level` (no file selected then). Leaving the application ends its authentication; selecting
    /// the application again keeps it, as in AN12196's worked example (`docs/reference/type4.md` open question 3).
    mutating func select(_ newLevel: Level) {
        if newLevel != level { authentication = nil }
        level = newLevel
        file = nil
    }
}

/// An open AES (EV2) authentication of the emulated NTAG 424 DNA: the key it used and its secure-messaging
/// state (`docs/reference/type4.md` §2.4–2.5), the same value type the host keeps (`NTAG424SecureMessaging`).
public struct Type4Authentication: Sendable, Hashable {
    /// The key number (0–4) the session was opened with.
    public let keyNumber: UInt8
    /// SesAuthENCKey, SesAuthMACKey, TI and CmdCtr.
    public var messaging: NTAG424SecureMessaging

    /// A session with `keyNumber` and its secure-messaging state.
    public init(keyNumber: UInt8, messaging: NTAG424SecureMessaging) {
        self.keyNumber = keyNumber
        self.messaging = messaging
    }
}

/// One unauthenticated read sequence of an SDM-enabled file (`docs/reference/type4.md` §3.1): the file as it left
/// the chip at the sequence's first read (SDMReadCtr incremented once, random padding drawn once), so that
/// further reads of the same kind in a row return slices of the same bytes.
struct Type4SDMReadSequence: Sendable, Hashable {
    /// Which read command started the sequence; switching kinds starts a new one.
    enum Kind: Sendable, Hashable {
        /// ISOReadBinary `00 B0`.
        case isoReadBinary
        /// ReadData `90 AD`.
        case readData
    }

    /// The read command of the sequence.
    let kind: Kind
    /// The file number read.
    let file: UInt8
    /// The command number of the latest read of the sequence.
    var commandNumber: Int
    /// The whole file with every mirror filled in.
    let bytes: [UInt8]
}
