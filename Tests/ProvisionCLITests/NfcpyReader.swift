import Foundation
import TestSupport

/// Runs `Tests/Fixtures/nfcpy/tag.py` with the `python3` on `PATH` (nfcpy from PyPI; `make deps`
/// installs it) against a PN532 on a pty: nfcpy's own PN532 driver, not libnfc.
enum NfcpyReader {
    /// nfcpy's view of the tag on the PN532 at `path`: its open sequence, `connect`, the NDEF read.
    static func readTag(at path: String) async throws -> ClientScript.Outcome {
        try await python([Fixtures.url("nfcpy/tag.py").path, path])
    }

    /// nfcpy writes one URI record to the tag on the PN532 at `path` (`tag.ndef.records = …`) and reads it back.
    static func writeTag(at path: String, uri: String) async throws -> ClientScript.Outcome {
        try await python([Fixtures.url("nfcpy/tag.py").path, path, uri])
    }

    /// Runs `python3 arguments` through `/usr/bin/env` (the first `python3` on `PATH`), killed after `timeoutSeconds`.
    static func python(_ arguments: [String], timeoutSeconds: Int = 60) async throws -> ClientScript.Outcome {
        try await onThread {
            try ClientScript.run("/usr/bin/env", ["python3"] + arguments, timeoutSeconds: timeoutSeconds)
        }
    }
}
