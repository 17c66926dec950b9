/// Facts about the linked libnfc.
public enum LibNFC {
    /// The libnfc version string (`nfc_version`), e.g. `1.8.0`.
    ///
    /// The corresponding C function is `nfc_version`.
    public static var version: String { LibNFCCalls.version() }
}
