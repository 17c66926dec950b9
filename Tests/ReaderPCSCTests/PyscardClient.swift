import Foundation
import NDEF
import TestSupport

/// Runs `Tests/Fixtures/pyscard/type4_ndef.py` (or `type5_blocks.py`, `felica_block.py`) with Debian's
/// `/usr/bin/python3` (`python3-pyscard`, installed by `make test-deps`): an independent PC/SC client reading a
/// Type 4 tag's NDEF file, a Type 5 tag's CC and NDEF blocks, or a FeliCa card's IDm and block 0.
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

    /// Reads the CC and NDEF blocks of the Type 5 tag on `reader` with `FF B0`, the block number in P1 or P2.
    static func readType5Blocks(reader: String, blockNumberInP1: Bool, timeoutSeconds: Int = 60) async throws
        -> ClientScript.Outcome
    {
        let arguments = [Fixtures.url("pyscard/type5_blocks.py").path, reader, blockNumberInP1 ? "--p1" : "--p2"]
        let environment = ["PCSCLITE_CSOCK_NAME": PCSCDaemon.socketPath]
        return try await onThread {
            try ClientScript.run(
                "/usr/bin/python3", arguments, environment: environment, timeoutSeconds: timeoutSeconds)
        }
    }

    /// Reads the IDm and block 0 of the FeliCa card on `reader` (an ACR122U-style slot) by InDataExchange.
    static func readFeliCaBlock(reader: String, timeoutSeconds: Int = 60) async throws -> ClientScript.Outcome {
        let arguments = [Fixtures.url("pyscard/felica_block.py").path, reader]
        let environment = ["PCSCLITE_CSOCK_NAME": PCSCDaemon.socketPath]
        return try await onThread {
            try ClientScript.run(
                "/usr/bin/python3", arguments, environment: environment, timeoutSeconds: timeoutSeconds)
        }
    }
}
