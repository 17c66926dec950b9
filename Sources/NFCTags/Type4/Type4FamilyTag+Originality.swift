/// The NTAG 424 DNA's originality signature behind the family seam: Read_Sig `90 3C 00 00 01 00 00`, answered
/// with the 56-byte `r ‖ s` of an ECDSA secp224r1 signature over the raw 7-byte UID (`docs/reference/type4.md` §2.9).
///
/// Only a chip GetVersion named NTAG 424 DNA has one: a generic Type 4 tag, a MIFARE DESFire or another NXP
/// ISO-DEP chip offers no capability, so the pipeline records nothing for it. Verification is not the family's
/// business: the pipeline checks the bytes against its trusted keys (`SignatureCheck`).
extension Type4FamilyTag: OriginalitySigned {
    /// The capability, once `identify()` named an NTAG 424 DNA; `nil` before that and for every other chip.
    public var originality: (any OriginalitySigned)? {
        chip == Type4ChipModel.ntag424DNA.chip ? self : nil
    }

    /// NT4H2421Gx's spelling.
    public var signatureCommand: String { "Read_Sig" }

    /// Always: Read_Sig is an ordinary ISO 7816-4 wrapped APDU (CLA `90`), which every ISO-DEP reader path passes
    /// to the tag unchanged, a PC/SC reader of style `plain` included (`docs/reference/type4.md` §1.9).
    public var canReadSignature: Bool { true }

    /// Read_Sig `90 3C 00 00 01 00 00` in plain mode (`NTAG424Tag.readSignature()`): free while Random ID is off.
    ///
    /// With Random ID on (GetVersion answered an all-zero UID) the chip answers Read_Sig only in an authenticated
    /// session, so nothing is sent and the signature counts as unreadable.
    ///
    /// - Throws: `TagError.unsupportedCommand` under Random ID; `NTAG424Error` for a `91 xx` refusal or an answer
    ///   that is not 56 bytes; `TransportError`.
    public func readSignature() throws -> [UInt8] {
        if versionAnswer?.version?.hidesUID == true { throw Self.randomIDRefusal }
        return try NTAG424Tag(tag).readSignature()
    }

    /// The UID GetVersion part 3 named (no exchange: `identify()` read it).
    ///
    /// - Throws: `TagError.unsupportedCommand` under Random ID (GetVersion hides the UID), `.unknownChip` before
    ///   `identify()` completed GetVersion.
    public func signedUID() throws -> [UInt8] {
        guard let version = versionAnswer?.version else {
            throw TagError(.unknownChip, "GetVersion did not name the UID the originality signature signs")
        }
        guard !version.hidesUID else { throw Self.randomIDRefusal }
        return version.uid
    }

    /// Why no Read_Sig is sent to a chip with Random ID on.
    static var randomIDRefusal: TagError {
        TagError(
            .unsupportedCommand,
            "Random ID is on (GetVersion hides the UID): Read_Sig `90 3C` needs an authenticated session")
    }
}
