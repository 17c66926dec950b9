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
    #expect(status.description.contains(text), "\(status.description)")
}

/// Status codes that mean the card left the field become `tagLost`; the rest stay transport errors.
@Test func removedAndResetCardsAreALostTagOthersAreTransportErrors() {
    #expect(PCSCStatus.removedCard.transportError == .tagLost)
    #expect(PCSCStatus.noSmartcard.transportError == .tagLost)
    guard case .transport = PCSCStatus.noService.transportError else {
        Issue.record("noService became \(PCSCStatus.noService.transportError)")
        return
    }
}
