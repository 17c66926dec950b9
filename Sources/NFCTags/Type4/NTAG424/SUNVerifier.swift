import Foundation
import NDEF

/// Where the SDMMAC input starts (`docs/reference/type4.md` §3.5): at the PICC data, covering everything up to the
/// MAC, or nothing (the Bolt card layout, `SDMMACInputOffset == SDMMACOffset`).
public enum SUNMACInput: String, Sendable, Hashable, CaseIterable {
    /// From the PICC data's first character to just before the MAC.
    case picc
    /// The empty string.
    case empty
}

/// How a SUN URL carries its mirrors: the query parameters of the PICC data and the MAC, and the MAC input.
public struct SUNURLLayout: Sendable, Hashable {
    /// The parameter holding the 32-hex-digit encrypted PICC data (default `picc_data`).
    public var picc: String
    /// The parameter holding the 16-hex-digit SDMMAC (default `cmac`).
    public var mac: String
    /// What the MAC covers.
    public var macInput: SUNMACInput

    /// Creates a layout; the defaults are NXP's AN12196 names.
    public init(picc: String = "picc_data", mac: String = "cmac", macInput: SUNMACInput = .picc) {
        self.picc = picc
        self.mac = mac
        self.macInput = macInput
    }
}

/// Checks a SUN (NTAG 424 DNA Secure Dynamic Messaging) tap URL in AES mode: decrypts the PICC data with the
/// SDM meta-read key, derives the SDM MAC session key from the file-read key of that UID, and compares the
/// SDMMAC (`docs/reference/type4.md` §3.3–§3.5). Replay (the counter) is the caller's, against its ledger.
public enum SUNVerifier {
    /// The one reason given when the cryptography fails: PICC data that does not decrypt and a MAC that does not
    /// match are not told apart, so the answer is no oracle on what the meta-read key decrypted.
    public static let notVerified = TapVerification.notVerified("SUN")
    /// The UID the MAC of undecryptable PICC data is computed for (the answer is `invalid` whatever it gives).
    static let standInUID: [UInt8] = [0x04, 0, 0, 0, 0, 0, 0]

    /// Verifies `url`; `fileReadKey` gives the SDM file-read key for a UID (shared, or diversified per tag).
    public static func verify(
        url: String, layout: SUNURLLayout, metaReadKey: [UInt8], fileReadKey: ([UInt8]) throws -> [UInt8]
    ) -> TapVerification {
        func invalid(_ why: String, _ data: PICCData? = nil) -> TapVerification {
            TapVerification(isValid: false, uid: data?.uid, counter: data?.counter, detail: why)
        }
        let query: TapURLQuery
        do {
            query = try TapURLQuery(url)
        } catch {
            return invalid(error.description)
        }
        guard let picc = query.parameter(layout.picc), picc.value.utf8.count == 32,
            let cryptogram = Hex.bytes(picc.value)
        else { return invalid("no query parameter '\(layout.picc)' of 32 hex digits") }
        guard let mac = query.parameter(layout.mac), mac.value.utf8.count == 16, let tag = Hex.bytes(mac.value)
        else { return invalid("no query parameter '\(layout.mac)' of 16 hex digits") }
        guard layout.macInput == .empty || picc.range.lowerBound < mac.range.lowerBound else {
            return invalid("the MAC parameter comes before the PICC data, so it cannot cover it")
        }
        do {
            let data = try SUNCrypto.decryptPICCData(metaReadKey: metaReadKey, cryptogram).flatMap { data in
                data.tag & 0xC0 == 0xC0 && data.uid != nil && data.counter != nil ? data : nil
            }
            // PICC data that does not decrypt takes the same key derivation and MAC as a MAC that does not match
            // (over a stand-in UID and counter), so the answer's time does not tell the two apart.
            let uid = data?.uid ?? standInUID
            let counter = data?.counter ?? 0
            let input = layout.macInput == .empty ? [] : Array(url.utf8[picc.range.lowerBound..<mac.range.lowerBound])
            let key = try SUNCrypto.macKey(fileReadKey: try fileReadKey(uid), uid: uid, counter: counter)
            guard try SUNCrypto.sdmMACMatches(macKey: key, input: input, presented: tag), data != nil else {
                return invalid(notVerified, data)
            }
            return TapVerification(
                isValid: true, uid: uid, counter: counter,
                detail: "SUN valid; UID \(Hex.compact(uid)), counter \(counter)")
        } catch {
            return invalid("cannot check: \(error)")
        }
    }

    /// Verifies `url` with two loaded keys (one shared file-read key); `nil` when a key is not 16 bytes.
    public static func verify(
        url: String, layout: SUNURLLayout, metaReadKey: SecretKey, fileReadKey: SecretKey
    ) -> TapVerification? {
        guard metaReadKey.bytes.count == 16, fileReadKey.bytes.count == 16 else { return nil }
        return verify(url: url, layout: layout, metaReadKey: metaReadKey.bytes) { _ in fileReadKey.bytes }
    }
}

extension SUNURLLayout: TapLayout {
    /// `url` with the values of its PICC data and MAC parameters replaced by zeros of the same length: the URL as
    /// the template wrote it, before the chip mirrored into it.
    public func masked(_ url: String) -> String {
        guard let query = try? TapURLQuery(url) else { return url }
        var masked = url
        for parameter in [picc, mac].compactMap(query.parameter).sorted(by: {
            $0.range.lowerBound > $1.range.lowerBound
        }) {
            masked.replaceSubrange(parameter.range, with: String(repeating: "0", count: parameter.value.count))
        }
        return masked
    }
}
