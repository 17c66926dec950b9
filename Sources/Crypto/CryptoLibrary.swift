internal import CCrypto

/// Facts about the linked OpenSSL libcrypto, for `provision --version`.
public enum CryptoLibrary {
    /// libcrypto's version, e.g. `3.0.17`. The corresponding C function is `OpenSSL_version(OPENSSL_VERSION_STRING)`.
    public static var version: String { String(cString: OpenSSL_version(OPENSSL_VERSION_STRING)) }
}
