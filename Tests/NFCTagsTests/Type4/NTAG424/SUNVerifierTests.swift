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
        (piccURL.replacingOccurrences(of: "cmac=DEF7", with: "cmac=DEF6"), SUNVerifier.notVerified),
        (piccURL.replacingOccurrences(of: "data=EF96", with: "data=EF97"), SUNVerifier.notVerified),
        (piccURL.replacingOccurrences(of: "cmac=", with: "mac="), "no query parameter 'cmac'"),
        ("https://example.com/t?cmac=DEF70D8941777AF7&picc_data=EF963FF7828658A599F3041510671E88", "comes before"),
        ("https://example.com/t?picc_data=EF963FF7&cmac=DEF70D8941777AF7", "32 hex digits"),
    ])
    func tamperedOrMalformedURLsAreInvalid(url: String, reason: String) {
        let result = Self.verify(url, SUNURLLayout())
        #expect(!result.isValid && result.detail.contains(reason), "\(result)")
    }

    /// Undecryptable PICC data derives the file-read key and computes the MAC as a wrong MAC does (issue 44 item 4):
    /// one key derivation each, so the answer's time does not tell "cannot decrypt" from "MAC wrong".
    @Test func undecryptablePICCDataTakesTheSameKeyDerivationAsAWrongMAC() throws {
        let undecryptable = "EF963FF7828658A599F3041510671E89"
        let cryptogram = try #require(Hex.bytes(undecryptable))
        #expect(try SUNCrypto.decryptPICCData(metaReadKey: Self.zero, cryptogram) == nil, "the data must not decrypt")
        let urls = [
            Self.piccURL.replacingOccurrences(of: "EF963FF7828658A599F3041510671E88", with: undecryptable),
            Self.piccURL.replacingOccurrences(of: "cmac=DEF7", with: "cmac=DEF6"),
        ]
        for url in urls {
            var derivations = 0
            let result = SUNVerifier.verify(url: url, layout: SUNURLLayout(), metaReadKey: Self.zero) { _ in
                derivations += 1
                return Self.zero
            }
            #expect(!result.isValid && result.detail == SUNVerifier.notVerified, "\(result)")
            #expect(derivations == 1, "\(url)")
        }
    }

    @Test func anotherMetaKeyDoesNotVerify() {
        let result = Self.verify(Self.piccURL, SUNURLLayout(), key: [UInt8](repeating: 0x42, count: 16))
        #expect(!result.isValid)
    }

    static let nxp = (e: "e=EF963FF7828658A599F3041510671E88", c: "c=94EED9EE65337086")

    /// The genuine NXP tap with its two parameters anywhere in the query, among others, and a fragment.
    @Test(arguments: [
        "https://ntag.nxp.com/424?\(nxp.e)&\(nxp.c)",
        "https://ntag.nxp.com/424?x=1&\(nxp.c)&y=&\(nxp.e)#z",
        "https://ntag.nxp.com/a&b=1/424?\(nxp.e)&&\(nxp.c)",
    ])
    func parametersAreFoundAnywhereInTheQuery(url: String) {
        let result = Self.verify(url, SUNURLLayout(picc: "e", mac: "c", macInput: .empty))
        #expect(result.isValid, "\(result)")
    }

    /// The same genuine parameters outside the query, under another name or given twice are not taken (issue 44
    /// item 4, finding 3): the old `?NAME=`/`&NAME=` search found them in the path and the fragment, and took the
    /// first of two.
    @Test(arguments: [
        ("https://ntag.nxp.com/424&\(nxp.e)&\(nxp.c)", "no query parameter 'e'"),
        ("https://ntag.nxp.com/424?x=1#&\(nxp.e)&\(nxp.c)", "no query parameter 'e'"),
        ("https://ntag.nxp.com/424&\(nxp.e)/?\(nxp.c)", "no query parameter 'e'"),
        ("https://ntag.nxp.com/424?\(nxp.e)#&\(nxp.c)", "no query parameter 'c'"),
        ("https://ntag.nxp.com/424?E=EF963FF7828658A599F3041510671E88&\(nxp.c)", "no query parameter 'e'"),
        ("https://ntag.nxp.com/424?\(nxp.e)&\(nxp.c)&c=0000000000000000", "'c' appears more than once"),
        ("https://ntag.nxp.com/424?\(nxp.e)&e=00&\(nxp.c)", "'e' appears more than once"),
    ])
    func parametersOutsideTheQueryOrTwiceAreInvalid(url: String, reason: String) {
        let result = Self.verify(url, SUNURLLayout(picc: "e", mac: "c", macInput: .empty))
        #expect(!result.isValid && result.detail.contains(reason), "\(result)")
        #expect(result.uid == nil && result.counter == nil)
    }

    @Test func maskingZeroesOnlyTheQueryValues() {
        let layout = SUNURLLayout(picc: "e", mac: "c")
        #expect(layout.masked("https://x/e=1&c=2/?c=AB&e=CDE#&c=9") == "https://x/e=1&c=2/?c=00&e=000#&c=9")
        // A query naming a parameter twice is not the template's: it is left as it is, so it matches no row.
        #expect(layout.masked("https://x/?e=1&e=2&c=3") == "https://x/?e=1&e=2&c=3")
    }
}
