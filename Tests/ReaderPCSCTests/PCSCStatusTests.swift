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
/// transaction cut off) become `tagLost`; codes that mean the reader or pcscd went away (no service, service stopped,
/// a broken link, the reader unavailable, unknown or missing, a handle the daemon no longer knows) become
/// `readerGone` with their description, so the line waits for the reader; every other code is `.transport`.
@Test(arguments: [
    (PCSCStatus.removedCard, "tag"), (.resetCard, "tag"), (.noSmartcard, "tag"), (.unpoweredCard, "tag"),
    (.unresponsiveCard, "tag"), (.notTransacted, "tag"), (.noService, "reader"), (.serviceStopped, "reader"),
    (.commError, "reader"), (.noReadersAvailable, "reader"), (.readerUnavailable, "reader"),
    (.unknownReader, "reader"), (.invalidHandle, "reader"), (.success, "other"), (.timeout, "other"),
    (.cancelled, "other"), (.sharingViolation, "other"),
])
func tagLeftAndReaderGoneCodesAreTheirOwnErrorsOthersAreTransportErrors(status: PCSCStatus, gone: String) {
    #expect(status.meansTagLeft == (gone == "tag"))
    #expect(status.meansReaderGone == (gone == "reader"))
    let expected: TransportError =
        switch gone {
        case "tag": .tagLost
        case "reader": .readerGone(status.description)
        default: .transport(status.description)
        }
    #expect(status.transportError == expected)
}
