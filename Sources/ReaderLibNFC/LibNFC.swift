/// Facts about the linked libnfc.
public enum LibNFC {
    /// The libnfc version string (`nfc_version`), e.g. `1.8.0`.
    ///
    /// The corresponding C function is `nfc_version`.
    public static var version: String { LibNFCCalls.version() }

    /// The folder where each open reader's `flock` file lives (`/run/lock`): it must be writable for
    /// an `nfc:` reader to open (`DeviceLock`).
    public static var lockFolder: String { DeviceLock.lockFolder }
}
