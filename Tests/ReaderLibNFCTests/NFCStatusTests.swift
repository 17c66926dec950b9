import ReaderLibNFC
import Testing

/// The libnfc constants behind `NFCStatus` (nfc.h values) and the names its description gives.
@Test(
    arguments: [
        (NFCStatus.success, 0, "NFC_SUCCESS"), (.io, -1, "NFC_EIO"), (.invalidArgument, -2, "NFC_EINVARG"),
        (.deviceNotSupported, -3, "NFC_EDEVNOTSUPP"), (.noSuchDevice, -4, "NFC_ENOTSUCHDEV"),
        (.overflow, -5, "NFC_EOVFLOW"), (.timeout, -6, "NFC_ETIMEOUT"), (.aborted, -7, "NFC_EOPABORTED"),
        (.notImplemented, -8, "NFC_ENOTIMPL"), (.targetReleased, -10, "NFC_ETGRELEASED"),
        (.rfTransmissionError, -20, "NFC_ERFTRANS"), (.mifareAuthenticationFailed, -30, "NFC_EMFCAUTHFAIL"),
        (.software, -80, "NFC_ESOFT"), (.chip, -90, "NFC_ECHIP"),
    ] as [(NFCStatus, Int32, String)])
func statusCodesMatchLibNFCAndNameTheirConstant(_ status: NFCStatus, _ value: Int32, _ name: String) {
    #expect(status.rawValue == value)
    #expect(status.description == name)
}

@Test func theCapturedTextIsShownButDoesNotChangeEquality() {
    let withText = NFCStatus(rawValue: -6, detail: "Timeout")
    #expect(withText.description == "NFC_ETIMEOUT (Timeout)")
    #expect(withText == .timeout)
    #expect(NFCStatus(rawValue: -99).description == "libnfc status -99")
    #expect(NFCStatus(rawValue: -6, detail: "").description == "NFC_ETIMEOUT")
}
