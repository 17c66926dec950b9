internal import CBuildInfo
import Crypto
import Foundation
import HTTPService
import Ledger
import ReaderLibNFC
import ReaderPCSC
import Reports
import TokenKeys

/// `provision --version`: this build's version and the C libraries' versions, so a station's IT can tell what
/// runs (`--json`: `{version, provision, libraries: [{name, version, source, from}]}`, docs/json.md).
struct VersionReport: Encodable, Sendable {
    /// Where a library's version comes from.
    enum Source: String, Encodable, Sendable {
        /// Asked of the loaded library when the command ran.
        case runtime
        /// The header the build was compiled against: the library cannot tell (pcsc-lite, PKCS #11).
        case build
    }

    /// One C library and its version.
    struct Library: Encodable, Sendable {
        var name: String
        var version: String
        var source: Source
        /// The C call or header macro the version comes from.
        var from: String
    }

    var version = JSONDocument.version
    /// This build's version: from `git describe` when `make deb` built it, else the fallback `0.1.0+unstamped`.
    var provision: String
    var libraries: [Library]

    /// This build's version (`0.1.0+747.g65e70e7` from `make deb`; `0.1.0+unstamped` from a plain `swift build`).
    static var buildVersion: String { String(cString: cbuildinfo_version()) }

    /// The report of this process: the build's version and every library's.
    static func current() -> VersionReport {
        VersionReport(
            provision: buildVersion,
            libraries: [
                Library(name: "libnfc", version: LibNFC.version, source: .runtime, from: "nfc_version"),
                Library(
                    name: "pcsc-lite", version: PCSCLibrary.headerVersion, source: .build,
                    from: "PCSCLITE_VERSION_NUMBER"),
                Library(name: "sqlite", version: SQLiteLibrary.version, source: .runtime, from: "sqlite3_libversion"),
                Library(name: "libpq", version: PostgresLibrary.version, source: .runtime, from: "PQlibVersion"),
                Library(name: "libcrypto", version: CryptoLibrary.version, source: .runtime, from: "OpenSSL_version"),
                Library(
                    name: "libmicrohttpd", version: MicroHTTPDLibrary.version, source: .runtime,
                    from: "MHD_get_version"),
                Library(name: "pkcs11", version: PKCS11Header.version, source: .build, from: "CRYPTOKI_VERSION"),
            ])
    }

    /// The text form: `provision VERSION` first (as before, for scripts that read one line), then one line
    /// per library with where its version comes from.
    var text: String {
        var text = "provision \(provision)\n"
        let nameWidth = (libraries.map(\.name.count).max() ?? 0) + 2
        let versionWidth = (libraries.map(\.version.count).max() ?? 0) + 2
        for library in libraries {
            let when = library.source == .runtime ? "at run time" : "built with"
            text +=
                "  " + library.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                + library.version.padding(toLength: versionWidth, withPad: " ", startingAt: 0)
                + "\(when) (\(library.from))\n"
        }
        return text
    }
}
