import NFCTags

/// Switches of an emulated Type 4 tag where sources disagree or a line wants another chip
/// (`docs/reference/type4.md` §1.1, §2.3, §5.4, open questions 1–2).
///
/// ```
/// switch                           default                 note
/// ats                              06 77 77 71 02 80       DS Rev 3.0; AN12196 trace shows FWI 6 (…61…)
/// frameWaitingInteger              7 (FWT 38.66 ms)        TB1 high nibble of `ats`
/// batchNumber / week / year        CD 65 93 5D 40, 21, 18  GetVersion part 3 (§2.3 example)
/// requestsWaitingTimeExtension     false                   S(WTX) before answering a write (raw path)
/// originalitySignature             nil                     fixed Read_Sig answer r ‖ s (56 bytes)
/// signingKey                       NTAG424TestSigningKey   secp224r1 key signing the UID when no fixed answer;
///                                                          nil as well: Read_Sig answers `91 0B`
/// commandMicroseconds              1000                    ASSUMPTION (no published figure)
/// writeFrameMicroseconds           4000                    ASSUMPTION (§5.4: 3–6 ms)
/// ```
public struct Type4EmulatorConfiguration: Sendable, Hashable {
    /// The NTAG 424 DNA's ATS from the data sheet (Rev 3.0, §8.1.1 Table 4): FSC 128, FWI 7, SFGI 1, CID.
    public static let ntag424ATS: [UInt8] = [0x06, 0x77, 0x77, 0x71, 0x02, 0x80]

    /// The ATS sent after RATS, TL byte first, without CRC. The generic tag uses the same default.
    public var ats: [UInt8] = Type4EmulatorConfiguration.ntag424ATS
    /// GetVersion part 3 batch number: 4 bytes, then the byte holding the last batch bits and FabKey.
    public var batchNumber: [UInt8] = [0xCD, 0x65, 0x93, 0x5D, 0x40]
    /// GetVersion part 3 calendar week of production (BCD-like, as the chip reports it).
    public var productionWeek: UInt8 = 0x21
    /// GetVersion part 3 year of production.
    public var productionYear: UInt8 = 0x18
    /// Whether the tag asks for more time with S(WTX) `F2 01` before the answer to a command that
    /// programs its memory (raw air path only). Default `false`.
    public var requestsWaitingTimeExtension = false
    /// ASSUMPTION: the tag's processing time of a plain command, µs (`ISODEPTiming.commandMicroseconds`).
    public var commandMicroseconds = 1_000.0
    /// ASSUMPTION: programming time per non-volatile write frame, µs (`ISODEPTiming.writeFrameMicroseconds`).
    public var writeFrameMicroseconds = 4_000.0
    /// A fixed Read_Sig answer `r ‖ s` (56 bytes, ECDSA secp224r1 over the UID; `docs/reference/type4.md` §2.9).
    ///
    /// No emulator can make NXP's signature for its own UID: configure a recorded (UID, signature) pair here, or
    /// leave it `nil` (the default) and the tag signs its UID with `signingKey`.
    public var originalitySignature: [UInt8]?
    /// The secp224r1 private key (28 bytes big-endian) the tag signs its UID with when `originalitySignature` is
    /// `nil`: the repository's `NTAG424TestSigningKey` by default, whose public key only a verifier told to
    /// trust it accepts. `nil` as well: no signature is recorded and Read_Sig answers `91 0B` COMMAND_NOT_FOUND
    /// (ASSUMPTION: a real chip always has one).
    public var signingKey: [UInt8]? = NTAG424TestSigningKey.privateKey

    /// Creates the defaults above.
    public init() {}

    /// Index of TB1 in `ats`, when T0 announces it.
    private var tb1Index: Int? {
        guard ats.count > 1, ats[1] & 0x20 != 0 else { return nil }
        let index = ats[1] & 0x10 != 0 ? 3 : 2
        return index < ats.count ? index : nil
    }

    /// FWI, the TB1 high nibble of `ats` (4 when TB1 is absent); setting it rewrites TB1 (a no-op
    /// without TB1). Sources disagree between 6 and 7 for the NTAG 424 DNA (§1.1).
    public var frameWaitingInteger: UInt8 {
        get { tb1Index.map { ats[$0] >> 4 } ?? 4 }
        set {
            guard let index = tb1Index else { return }
            ats[index] = (newValue & 0x0F) << 4 | ats[index] & 0x0F
        }
    }

    /// SFGI, the TB1 low nibble of `ats` (0 when TB1 is absent).
    public var startupFrameGuardInteger: UInt8 { tb1Index.map { ats[$0] & 0x0F } ?? 0 }

    /// FSC, the largest frame the tag accepts, from the FSCI in T0 (32 bytes when T0 is absent).
    public var cardFrameSize: Int {
        ats.count > 1 ? ISODEPTiming.frameSize(code: ats[1] & 0x0F) : 32
    }

    /// The timing model for a reader with frame size `readerFrameSize` (FSD), with or without CID bytes.
    public func timing(readerFrameSize: Int = 256, usesCID: Bool = false) -> ISODEPTiming {
        ISODEPTiming(
            cardFrameSize: cardFrameSize, readerFrameSize: readerFrameSize, usesCID: usesCID,
            commandMicroseconds: commandMicroseconds, writeFrameMicroseconds: writeFrameMicroseconds)
    }
}

/// What the emulated chip draws random bytes for (`Type4Emulator.random`), so a test can inject each.
public enum Type4RandomPurpose: Sendable, Hashable {
    /// RndB, 16 bytes, in part 1 of AuthenticateEV2First/NonFirst (§2.4).
    case rndB
    /// TI, 4 bytes, in part 2 of AuthenticateEV2First (§2.4).
    case transactionIdentifier
    /// PICCData random padding, at the first read of an SDM read sequence (§3.3).
    case sdmPadding
}
