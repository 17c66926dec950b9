/// NFC Forum Type 4 tags (ISO-DEP: NTAG 424 DNA, MIFARE DESFire, any T4T): SAK bit 6 (`20h`, ISO/IEC
/// 14443-4) after type A anticollision (`docs/reference/type4.md` §1.1). Type 2 requires that bit clear, so the two
/// families never both claim a tag; a PC/SC path reports the SAK `Type4ATR` synthesises.
public struct Type4Family: TagFamily {
    public var name: String { Self.name }
    /// The family's name in chips and the ledger.
    public static let name = "type4"
    /// NXP NTAG 424 DNA, as identified by GetVersion.
    public static let ntag424 = Type4ChipModel.ntag424DNA.chip
    /// A Type 4 tag GetVersion does not name.
    public static let generic = Type4ChipModel.generic.chip

    public var displayName: String { "Type 4" }
    /// UPDATE BINARY pieces at NDEF file offsets.
    public var writeUnit: TagWriteUnit { .fileOffset }
    /// The chip's command and programming times are assumptions (`Type4EmulatorConfiguration`).
    public var airtimeAssumesProcessingTimes: Bool { true }
    public var airtimeAssumptionNote: String? {
        "Type 4 airtime includes modelled tag processing times that are assumptions (by default 1 ms a "
            + "command and 4 ms a write frame; the NT4H2421 data sheet publishes none): calibrate against "
            + "hardware before reading it as the chip's."
    }

    /// What the job says about its tags, passed to every tag the family opens.
    public var options: Type4Options

    /// Creates the family with a job's options (defaults: nothing assumed).
    public init(options: Type4Options = Type4Options()) {
        self.options = options
    }

    /// SAK with bit 6 set (`20h`): the tag speaks ISO/IEC 14443-4.
    public func handles(_ activation: DetectedTag) -> Bool { activation.sak & 0x20 != 0 }

    public func open(_ transceiver: any Transceiver, activation: DetectedTag?) -> any FamilyTag {
        Type4FamilyTag(Type4Tag(transceiver: transceiver), activation: activation, options: options)
    }
}

/// What a job tells the Type 4 family about its tags, beyond what the tags say themselves.
///
/// The manifest's `type4` section maps onto it (`honoursCCWriteByte`); build the job's `TagFamilies` with
/// `Type4Family(options:)`, or set `Type4FamilyTag.options` on an opened tag.
public struct Type4Options: Sendable, Hashable {
    /// The line engineer's word that these tags refuse UPDATE BINARY once the CC's NDEF write byte is `FF`:
    /// a lock is then allowed on chips whose `lockMethod` is not `.ccWriteByte`, and still proven on every tag
    /// by a refused no-change UPDATE (`6982`). Default `false`: such a lock fails with `lockUnsupported`.
    public var honoursCCWriteByte: Bool

    /// Creates options.
    public init(honoursCCWriteByte: Bool = false) {
        self.honoursCCWriteByte = honoursCCWriteByte
    }
}
