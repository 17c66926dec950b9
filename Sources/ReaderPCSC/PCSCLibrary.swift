internal import CPCSC

/// Facts about pcsc-lite, for `provision --version`.
public enum PCSCLibrary {
    /// The pcsc-lite version of the headers this build was compiled against (`PCSCLITE_VERSION_NUMBER`, e.g.
    /// `1.9.9`): libpcsclite has no call that reports its own version, so this is the build's, not the run's.
    public static let headerVersion: String = PCSCLITE_VERSION_NUMBER
}
