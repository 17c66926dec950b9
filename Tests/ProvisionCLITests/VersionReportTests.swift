import Foundation
import TestSupport
import Testing

@testable import ProvisionCLI

/// `provision --version` (issue 46 item 2): the build's version, then every C library's, at run time where the
/// library tells and as built where it cannot; the same as a version-2 JSON document.
struct VersionReportTests {
    /// Every library, whether its version is asked at run time, and the C call or macro it comes from.
    static let expected: [(String, String, String)] = [
        ("libnfc", "at run time", "nfc_version"), ("pcsc-lite", "built with", "PCSCLITE_VERSION_NUMBER"),
        ("sqlite", "at run time", "sqlite3_libversion"), ("libpq", "at run time", "PQlibVersion"),
        ("libcrypto", "at run time", "OpenSSL_version"), ("libmicrohttpd", "at run time", "MHD_get_version"),
        ("pkcs11", "built with", "CRYPTOKI_VERSION"),
    ]

    @Test func textNamesTheBuildThenEveryLibrary() throws {
        let outcome = try ProvisionProcess.run(["--version"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        // A test build is a plain `swift build`: the fallback says it was not stamped by `make deb`.
        #expect(lines.first == "provision 0.1.0+unstamped", "\(outcome.stdout)")
        #expect(lines.count == 1 + Self.expected.count, "\(outcome.stdout)")
        for ((name, when, from), line) in zip(Self.expected, lines.dropFirst()) {
            let words = line.split(separator: " ", maxSplits: 2).map(String.init)
            #expect(words.first == name, "\(line)")
            #expect(words.count == 3 && Self.isVersion(words[1]), "\(line)")
            #expect(line.hasSuffix("\(when) (\(from))"), "\(line)")
        }
    }

    @Test func jsonIsAVersionTwoDocument() throws {
        let object = try JSONContract.check(try ProvisionProcess.run(["--version", "--json"]), schema: "version")
        #expect(object["provision"] as? String == VersionReport.buildVersion)
        let libraries = try #require(object["libraries"] as? [[String: String]])
        #expect(libraries.map { $0["name"] } == Self.expected.map(\.0))
        for (library, (_, when, from)) in zip(libraries, Self.expected) {
            #expect(library["source"] == (when == "at run time" ? "runtime" : "build"), "\(library)")
            #expect(library["from"] == from)
            #expect(Self.isVersion(library["version"] ?? ""), "\(library)")
        }
    }

    @Test func runtimeVersionsAreTheLoadedLibraries() {
        let report = VersionReport.current()
        let byName = Dictionary(uniqueKeysWithValues: report.libraries.map { ($0.name, $0.version) })
        // PQlibVersion's 150018 is 15.18, not 15.0.18 (PostgreSQL 10 and later have two parts).
        #expect(byName["libpq"]?.split(separator: ".").count == 2)
        #expect(byName["pkcs11"] == "2.40")
    }

    /// Digits and dots, at least two parts (`1.8.0`, `15.18`, `3.0.17`).
    static func isVersion(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
    }
}
