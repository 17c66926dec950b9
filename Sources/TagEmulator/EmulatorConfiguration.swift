import NFCTags

/// Switches for every chip behaviour the sources disagree on (`docs/reference/type2.md` §12), with the
/// emulator defaults stated there.
///
/// ```
/// #   switch                        default            alternative
/// 1   configActivation              .nextActivation    .immediate
/// 2   wrongPasswordAnswer           .nak               .silence
/// 3/10 storeRFUILockBits            false              true
/// 4   lockActivation                .immediate         .nextActivation
/// 5   cfg1Byte1 (NTAG213/215)       00                 05 (NTAG216 and EV1 always 05)
/// 6   programmingMicroseconds       4100               3000…10000
/// 7   mirrorShowsIncrementedCounter false              true
/// 12  unknownCommandAnswer          .nak               .silence
/// ```
public struct EmulatorConfiguration: Sendable, Hashable {
    /// When AUTH0 / PROT / ACCESS changes apply (`docs/reference/type2.md` §3.9, §12 #1).
    public enum ConfigActivation: Sendable, Hashable {
        /// CFG0/CFG1 act at once; CFGLCK too.
        case immediate
        /// CFG0/CFG1 act from the next REQA/WUPA; CFGLCK from the next power-up (field off/on).
        case nextActivation
    }

    /// How a tag answers a refused PWD_AUTH (§3.6, §12 #2).
    public enum RefusalAnswer: Sendable, Hashable {
        /// NAK `0`.
        case nak
        /// No answer at all (the tag still drops to IDLE).
        case silence
    }

    /// When newly set lock bits act (§2.3, §12 #4).
    public enum LockActivation: Sendable, Hashable {
        /// At once.
        case immediate
        /// From the next REQA/WUPA.
        case nextActivation
    }

    /// When AUTH0 / PROT / ACCESS (and CFGLCK) changes apply. Default `.nextActivation`.
    public var configActivation: ConfigActivation = .nextActivation
    /// Answer to a wrong password. Default NAK `0`.
    public var wrongPasswordAnswer: RefusalAnswer = .nak
    /// Answer to an unknown or unsupported command (`1A`, `C2`, …). Default NAK `0`.
    public var unknownCommandAnswer: RefusalAnswer = .nak
    /// Store RFUI bits written to the dynamic lock bytes (nfcpy's `FF FF FF 00`). Default `false`.
    public var storeRFUILockBits = false
    /// When new static/dynamic lock bits act. Default `.immediate`.
    public var lockActivation: LockActivation = .immediate
    /// CFG1 byte 1 of a factory NTAG213/215 (`00`; a genuine NTAG216 reads `05` and always gets `05`).
    public var cfg1Byte1: UInt8 = 0x00
    /// EEPROM programming time per written page (t_prog), microseconds. Default 4100.
    public var programmingMicroseconds = 4_100.0
    /// Whether the first mirrored READ of a power-up shows the counter after its increment. Default
    /// `false` (the old value, as Flipper and ChameleonUltra do).
    public var mirrorShowsIncrementedCounter = false
    /// Creates the defaults of `docs/reference/type2.md` §12.
    public init() {}

    /// The radio timing model with this configuration's programming time.
    public var timing: RFTiming { RFTiming(programmingMicroseconds: programmingMicroseconds) }
}
