import NFCTags
import Testing

@testable import ReaderPCSC

/// The C constants behind `PCSCStatus` (pcsclite.h values), and their text from `pcsc_stringify_error`:
/// a wrong constant or a broken link to libpcsclite fails here, not on a line station.
@Test(arguments: [
    (PCSCStatus.success, 0x0000_0000, "Command successful."),
    (.noService, 0x8010_001D, "Service not available."),
    (.timeout, 0x8010_000A, "Command timeout."),
    (.cancelled, 0x8010_0002, "Command cancelled."),
    (.noReadersAvailable, 0x8010_002E, "Cannot find a smart card reader."),
    (.noSmartcard, 0x8010_000C, "No smart card inserted."),
    (.sharingViolation, 0x8010_000B, "Sharing violation."),
    (.readerUnavailable, 0x8010_0017, "Reader is unavailable."),
    (.unknownReader, 0x8010_0009, "Unknown reader specified."),
    (.removedCard, 0x8010_0069, "Card was removed."),
    (.resetCard, 0x8010_0068, "Card was reset."),
    (.unresponsiveCard, 0x8010_0066, "Card is unresponsive."),
    (.invalidHandle, 0x8010_0003, "Invalid handle."),
])
func pcscLiteLinksAndDescribesStatusCodes(status: PCSCStatus, value: Int, text: String) {
    #expect(status.rawValue == value)
    let code = String(UInt32(truncatingIfNeeded: value), radix: 16, uppercase: true)
    #expect(status.description == "\(text) (\(code)h)")
}

/// Status codes that mean the card left the field (removed, reset, unpowered, unresponsive, no card, a
/// transaction cut off) become `tagLost`; every other code is exactly `.transport` with its description.
@Test(arguments: [
    (PCSCStatus.removedCard, true), (.resetCard, true), (.noSmartcard, true), (.unpoweredCard, true),
    (.unresponsiveCard, true), (.notTransacted, true), (.success, false), (.noService, false), (.timeout, false),
    (.cancelled, false), (.noReadersAvailable, false), (.sharingViolation, false), (.readerUnavailable, false),
    (.unknownReader, false), (.invalidHandle, false),
])
func tagLeftCodesAreALostTagOthersAreTransportErrors(status: PCSCStatus, tagLeft: Bool) {
    #expect(status.meansTagLeft == tagLeft)
    #expect(status.transportError == (tagLeft ? .tagLost : .transport(status.description)))
}
