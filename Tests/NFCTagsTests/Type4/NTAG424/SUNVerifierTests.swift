import Foundation
import NDEF
import NFCTags
import Testing

/// SUN URLs checked with explicit keys (`docs/reference/type4.md` §3.3–§3.5).
@Suite struct SUNVerifierTests {
    static let zero = [UInt8](repeating: 0, count: 16)
    static func verify(_ url: String, _ layout: SUNURLLayout, key: [UInt8] = zero) -> TapVerification {
        SUNVerifier.verify(url: url, layout: layout, metaReadKey: key) { _ in key }
    }

    @Test func nxpsAN12196URLWithAnEmptyMACInput() {
        let result = Self.verify(
            "https://ntag.nxp.com/424?e=EF963FF7828658A599F3041510671E88&c=94EED9EE65337086",
            SUNURLLayout(picc: "e", mac: "c", macInput: .empty))
        #expect(result.isValid && result.uid == Hex.bytes("04DE5F1EACC040") && result.counter == 61, "\(result)")
    }

    /// MAC over `EF96…1E88&cmac=` under the session key of AN12196 Table 5, computed with the openssl
    /// command line (`openssl mac -cipher AES-128-CBC -macopt hexkey:3FB5…776F CMAC`): CMAC
    /// 5ADEA8F7A30D7B89B44186772F7A8EF7, MACt DEF70D8941777AF7.
    static let piccURL = "https://example.com/t?picc_data=EF963FF7828658A599F3041510671E88&cmac=DEF70D8941777AF7"

    @Test func theMACCoversThePICCDataUpToTheMACParameter() {
        let result = Self.verify(Self.piccURL, SUNURLLayout())
        #expect(result.isValid && result.counter == 61, "\(result)")
        // The same URL read as an empty-input layout does not verify.
        #expect(!Self.verify(Self.piccURL, SUNURLLayout(macInput: .empty)).isValid)
    }

    @Test(arguments: [
        (piccURL.replacingOccurrences(of: "cmac=DEF7", with: "cmac=DEF6"), "SDMMAC does not match"),
        (piccURL.replacingOccurrences(of: "data=EF96", with: "data=EF97"), "does not decrypt"),
        (piccURL.replacingOccurrences(of: "cmac=", with: "mac="), "no 'cmac' parameter"),
        ("https://example.com/t?cmac=DEF70D8941777AF7&picc_data=EF963FF7828658A599F3041510671E88", "comes before"),
        ("https://example.com/t?picc_data=EF963FF7&cmac=DEF70D8941777AF7", "32 hex digits"),
    ])
    func tamperedOrMalformedURLsAreInvalid(url: String, reason: String) {
        let result = Self.verify(url, SUNURLLayout())
        #expect(!result.isValid && result.detail.contains(reason), "\(result)")
    }

    @Test func anotherMetaKeyDoesNotVerify() {
        let result = Self.verify(Self.piccURL, SUNURLLayout(), key: [UInt8](repeating: 0x42, count: 16))
        #expect(!result.isValid)
    }
}
