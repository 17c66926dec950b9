import Foundation
import NFCTags
import TestSupport
import Testing

@testable import ProvisionCLI

/// Each command's failure paths, run through the built binary as a user would: the exit status is the one
/// `ErrorTable` gives the error document's class, and an absent reader or ledger server is 69 (EX_UNAVAILABLE)
/// as `run --help` documents.
@Suite struct ExitCodeContractTests {
    /// A reader spec libnfc cannot open (no such serial device).
    static let absentNFC = "nfc:pn532_uart:/dev/provision-no-such-reader"

    /// Runs `arguments` with `--json`; checks the status equals the table's code for the error document's
    /// class, and returns the class.
    @discardableResult
    private func failure(
        _ arguments: [String], in folder: URL, environment: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (status: Int32, errorClass: String) {
        let outcome = try ProvisionProcess.run(arguments + ["--json"], directory: folder, environment: environment)
        let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        let error = try #require(object?["error"] as? [String: Any], "\(arguments): \(outcome.stdout)\(outcome.stderr)")
        let errorClass = try #require(error["class"] as? String, "\(arguments)")
        let codes = Set(ErrorTable.rules.filter { $0.errorClass == errorClass }.map(\.exit.rawValue))
        #expect(
            codes == [outcome.status], "\(arguments): class \(errorClass): \(outcome.stderr)",
            sourceLocation: sourceLocation)
        #expect(error["exit"] as? Int == Int(outcome.status), "\(arguments)", sourceLocation: sourceLocation)
        return (outcome.status, errorClass)
    }

    @Test func aReaderThatCannotBeOpenedIsUnavailableForEveryCommand() throws {
        let folder = try JobFolder(rows: 1, lock: false)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        // A ledger for audit to read.
        let seeded = try ProvisionProcess.run(
            ["run", "job.json", "--reader", folder.sim(uid: "04000000000001"), "--quiet"], directory: folder.url)
        #expect(seeded.status == 0, "\(seeded.stderr)")
        // No pcscd answers on this socket.
        let noPCSCD = ["PCSCLITE_CSOCK_NAME": folder.url.appendingPathComponent("no-pcscd.comm").path]
        for reader in [Self.absentNFC, "pcsc:#9"] {
            for command in [
                ["run", "job.json", "--reader", reader], ["audit", "job.json", "--reader", reader],
                ["inspect", "--reader", reader], ["write", "--uri", "https://example.com", "--reader", reader],
            ] {
                let end = try failure(command, in: folder.url, environment: noPCSCD)
                #expect(end.status == 69 && end.errorClass == "readerUnavailable", "\(command)")
            }
        }
    }

    @Test func aLedgerServerThatCannotBeReachedIsUnavailable() throws {
        let folder = try JobFolder(rows: 1, lock: false)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        // A socket folder with no server in it.
        let empty = folder.url.appendingPathComponent("no-server")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let server = "host=\(empty.path) port=5432 user=ledger dbname=provision"
        for command in [
            ["run", "job.json", "--ledger", server, "--reader", folder.sim(uid: "04000000000001")],
            ["status", "job.json", "--ledger", server], ["report", "job.json", "--ledger", server],
            ["ledger", "migrate", "--ledger", server], ["ledger", "grant", "station", "bench_1", "--ledger", server],
        ] {
            let end = try failure(command, in: folder.url)
            #expect(end.status == 69 && end.errorClass == "ledgerUnreachable", "\(command)")
        }
        // A SQLite ledger that cannot be created stays 73 (the table's `LedgerError.cannotOpen`).
        #expect(ErrorTable.exitCode(for: LedgerServerUnreachable("x")) == .unavailable)
    }

    @Test func manifestAndKeyErrorsExitAsTheTableSays() throws {
        let folder = try JobFolder(
            rows: 1, lock: false, extra: #", "keys": {"brand": {"env": "PROVISION_NO_SUCH_KEY"}}"#)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let reader = folder.sim(uid: "04000000000001")
        let key = try failure(["run", "job.json", "--reader", reader], in: folder.url)
        #expect(key.errorClass == "keyMissing")
        try Data(#"{"job": "t"}"#.utf8).write(to: folder.url.appendingPathComponent("bad.json"))
        for command in [
            ["run", "bad.json", "--reader", reader], ["audit", "bad.json", "--reader", reader], ["report", "bad.json"],
            ["status", "bad.json"],
        ] {
            let end = try failure(command, in: folder.url)
            #expect(end.errorClass == "jobInput", "\(command)")
        }
    }

    @Test func aTagsTransportFailureInsideARunIsCountedAndTheRunExitsOne() throws {
        let folder = try JobFolder(rows: 2, lock: false)
        defer { try? FileManager.default.removeItem(at: folder.url) }
        // One tag for two rows, its first write torn: a failed attempt (tagLost, a transport failure) is
        // counted, a row remains, and no reader was lost.
        let sim = folder.sim(uid: "04000000000001", options: "count=1&faults=tear:1&seed=5")
        let outcome = try ProvisionProcess.run(
            ["run", "job.json", "--reader", sim, "--idle", "0.5", "--quiet", "--json"], directory: folder.url)
        #expect(outcome.status == ErrorTable.exitCode(for: TransportError.tagLost).rawValue, "\(outcome.stderr)")
        #expect(outcome.status == 1)
        let report = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        #expect(report?["error"] == nil, "\(outcome.stdout)")
        #expect(try folder.query("SELECT failure_class FROM attempts WHERE outcome = 'failed'") == [["tagLost"]])
        // The reader stopping under a run is a lost reader, not a failed tag.
        #expect(ErrorTable.exitCode(for: ReaderFailure(.stopped, "reader r: gone")) == .unavailable)
    }
}
