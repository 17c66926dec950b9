internal import CPKCS11

/// Facts about the PKCS #11 header, for `provision --version`.
public enum PKCS11Header {
    /// The Cryptoki version of the header this build was compiled against (`CRYPTOKI_VERSION_MAJOR.MINOR`, e.g.
    /// `2.40`): modules are loaded at run time, each with its own version, so the build's is the one to report.
    public static let version = "\(CRYPTOKI_VERSION_MAJOR).\(CRYPTOKI_VERSION_MINOR)"
}
