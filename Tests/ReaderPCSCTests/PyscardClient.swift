import Foundation
import NDEF
import TestSupport

/// Runs `Tests/Fixtures/pyscard/type4_ndef.py` with Debian's `/usr/bin/python3` (`python3-pyscard`,
/// installed by `make test-deps`): an independent PC/SC client reading a Type 4 tag's NDEF file.
enum PyscardClient {
    /// Reads the NDEF file of the tag on `reader`; with `write`, writes that message first (tear-safe).
    static func run(reader: String, write: [UInt8]? = nil, timeoutSeconds: Int = 60) async throws
        -> ClientScript.Outcome
    {
        var arguments = [Fixtures.url("pyscard/type4_ndef.py").path, reader]
        if let write { arguments += ["--write", Hex.compact(write)] }
        let environment = ["PCSCLITE_CSOCK_NAME": PCSCDaemon.socketPath]
        let all = arguments
        return try await onThread {
            try ClientScript.run("/usr/bin/python3", all, environment: environment, timeoutSeconds: timeoutSeconds)
        }
    }
}
