/// The volatile state of an emulated Type 4 tag: cleared at power-up, RF reset, S(DESELECT) and HLTA
/// (`type4-ntag424.md` §5.1). Later issues add the authentication state (key, TI, CmdCtr, session keys)
/// and the SDM read tracker here.
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
    }

    /// The selected level.
    public var level: Level = .masterFile
    /// The file number of the selected elementary file (`nil`: none).
    public var file: UInt8?
    /// The pending continuation step, if any.
    public var pending: PendingStep?

    /// The power-up state (MF selected), or `level` selected; no file, nothing pending.
    public init(level: Level = .masterFile) { self.level = level }
}
