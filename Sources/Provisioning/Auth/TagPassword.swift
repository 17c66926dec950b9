import NDEF
import NFCTags

/// A per-tag password of a Type 2 chip with password protection: PWD (4 bytes) and PACK (2 bytes) diversified
/// from a brand key and the tag's UID (`docs/reference/type2.md` §3.6, §7.2).
///
/// PWD = bytes 0–3 and PACK = bytes 4–5 of HMAC-SHA256(key, UID). This is the split nfcpy's tagtool
/// uses (its password bytes 0–3 → PWD, 4–5 → PACK after HMAC-SHA256(password, UID)); the difference:
/// tagtool keys the HMAC with the typed password text, we key it with the job's key bytes.
public struct TagPassword: Sendable, Hashable {
    /// PWD as written to the PWD page and sent with PWD_AUTH `1B`.
    public var pwd: [UInt8]
    /// PACK as written to the PACK page (bytes 0–1) and expected back from PWD_AUTH.
    public var pack: [UInt8]

    /// Derives the password of the tag `uid` under `key`.
    public init(key: SecretKey, uid: [UInt8]) throws {
        let mac = try key.hmac(uid)
        pwd = Array(mac[0..<4])
        pack = Array(mac[4..<6])
    }

    /// Uses explicit bytes (factory `FF FF FF FF` / `00 00`).
    public init(pwd: [UInt8], pack: [UInt8]) {
        self.pwd = pwd
        self.pack = pack
    }

    /// The factory password.
    public static let factory = TagPassword(pwd: [0xFF, 0xFF, 0xFF, 0xFF], pack: [0x00, 0x00])
}
