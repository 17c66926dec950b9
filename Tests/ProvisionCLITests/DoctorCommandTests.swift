import Foundation
import TestSupport
import Testing

/// `provision doctor`, run as a user would on this machine (which may have no reader at all).
@Suite struct DoctorCommandTests {
    /// Every check, in the order doctor prints them (the `--json` contract).
    static let names = [
        "readers", "tag-families", "libnfc", "pcsc-lite", "pcscd", "devices", "lock-folder", "clock", "disk",
    ]

    /// The `--json` document of one doctor run, its exit status and how long it took.
    struct Run {
        var status: Int32
        var document: [String: Any]
        var checks: [[String: Any]]
        var seconds: Double

        /// The check named `name`.
        func check(_ name: String) throws -> [String: Any] {
            try #require(checks.first { $0["name"] as? String == name }, "no check \(name)")
        }

        /// The status of the check named `name`.
        func status(of name: String) throws -> String { try #require(check(name)["status"] as? String) }
    }

    static func run(_ extra: [String] = [], environment: [String: String] = [:]) throws -> Run {
        let start = ContinuousClock.now
        let outcome = try ProvisionProcess.run(["doctor", "--json"] + extra, environment: environment)
        let elapsed = (ContinuousClock.now - start).components
        let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))
        let document = try #require(object as? [String: Any], "stdout: \(outcome.stdout) stderr: \(outcome.stderr)")
        let checks = try #require(document["checks"] as? [[String: Any]])
        return Run(
            status: outcome.status, document: document, checks: checks,
            seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
    }

    @Test func jsonListsEveryCheckWithStatusAndDetailAndExitsByTheWorst() throws {
        let run = try Self.run()
        #expect(run.document["version"] as? Int == 2)
        #expect(run.checks.compactMap { $0["name"] as? String } == Self.names)
        let statuses = run.checks.compactMap { $0["status"] as? String }
        #expect(statuses.count == Self.names.count)
        #expect(statuses.allSatisfy { ["ok", "warn", "fail"].contains($0) })
        #expect(run.checks.allSatisfy { !(($0["detail"] as? String) ?? "").isEmpty })
        let worst = statuses.contains("fail") ? "fail" : statuses.contains("warn") ? "warn" : "ok"
        #expect(run.document["status"] as? String == worst)
        #expect(run.status == (worst == "fail" ? 1 : 0))
        #expect(run.seconds < 30, "every probe is bounded (about 10 s at worst)")
    }

    @Test func textPrintsOneLinePerCheckThenTheCounts() throws {
        let outcome = try ProvisionProcess.run(["doctor"])
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == Self.names.count + 1)
        var failed = 0
        var warned = 0
        for (line, name) in zip(lines, Self.names) {
            let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            #expect(fields.count == 3, "\(line)")
            #expect(fields.count >= 2 && fields[1] == name, "\(line)")
            let status = fields.first.map(String.init) ?? ""
            #expect(["ok", "warn", "fail"].contains(status), "\(line)")
            if status == "fail" { failed += 1 }
            if status == "warn" { warned += 1 }
        }
        #expect(lines.last?.hasPrefix("\(Self.names.count) checks: \(failed) failed, \(warned) warning") == true)
        #expect(outcome.status == (failed > 0 ? 1 : 0))
        #expect(outcome.stderr.isEmpty)
    }

    @Test func readersAgreeWithTheReadersCommandAndFamiliesNameType5() throws {
        let listing = try jsonOutput(["readers", "--json"])
        let readers = try #require(listing["readers"] as? [[String: Any]])
        let hardware = readers.filter { $0["backend"] as? String != "sim" && $0["available"] as? Bool == true }
        let run = try Self.run()
        let detail = try #require(try run.check("readers")["detail"] as? String)
        if hardware.isEmpty {
            #expect(try run.status(of: "readers") == "warn")
            #expect(detail.hasPrefix("no reader found"))
            #expect(detail.contains("--reader sim:CHIP"))
        } else {
            for reader in hardware { #expect(detail.contains(try #require(reader["spec"] as? String))) }
        }
        let families = try #require(try run.check("tag-families")["detail"] as? String)
        #expect(families.contains("Type 2"))
        // Without a reader the line says what each backend reaches; with one (a test's private pcscd may be up),
        // what that reader reaches.
        let nfcReaders = hardware.filter { $0["backend"] as? String == "nfc" }
        if hardware.isEmpty || !nfcReaders.isEmpty { #expect(families.contains("not ISO 15693 (Type 5)")) }
        #expect(families.contains("as far as the reader itself supports them"))
        // Issue 41 item 2: the simulator's chips come from the descriptors (it had said "FeliCa Lite-S, Standard").
        #expect(families.contains("Type 3 (FeliCa Lite-S, FeliCa Standard"), "the simulator's families")
    }

    @Test func withoutPCSCDaemonItWarnsAndSaysHowToStartIt() throws {
        let run = try Self.run(environment: ["PCSCLITE_CSOCK_NAME": "/nonexistent/pcscd.comm"])
        #expect(try run.status(of: "pcscd") == "warn")
        let detail = try #require(try run.check("pcscd")["detail"] as? String)
        #expect(detail.contains("systemctl"))
        #expect(try run.status(of: "libnfc") == "ok")
        #expect((try run.check("libnfc")["detail"] as? String)?.hasPrefix("libnfc 1.") == true)
        #expect(run.status == (run.checks.contains { $0["status"] as? String == "fail" } ? 1 : 0))
    }

    @Test func aReportsFolderWithNoFreeSpaceFailsWithExit1() throws {
        // /proc reports no free blocks on every Linux system: a reports folder there cannot hold a ledger.
        let run = try Self.run(["--reports", "/proc/provision-doctor-test"])
        #expect(try run.status(of: "disk") == "fail")
        let detail = try #require(try run.check("disk")["detail"] as? String)
        #expect(detail.contains("reports folder /proc/provision-doctor-test (not there yet; created in /proc)"))
        #expect(run.document["status"] as? String == "fail")
        #expect(run.status == 1)
    }

    @Test func helpExplainsEveryCheckAndTheTopLevelHelpListsDoctor() throws {
        let help = try ProvisionProcess.run(["doctor", "--help"])
        #expect(help.status == 0)
        for name in Self.names { #expect(help.stdout.contains("\n  \(name) "), "\(name)") }
        #expect(help.stdout.contains("Exit codes: 0 nothing failed (warnings allowed), 1 a check failed, 64 usage."))
        let top = try ProvisionProcess.run(["--help"])
        #expect(top.stdout.contains("\n  doctor "))
    }

    @Test func unexpectedArgumentsAreUsageErrors() throws {
        for arguments in [["doctor", "extra"], ["doctor", "--nope"], ["doctor", "--reports"]] {
            let outcome = try ProvisionProcess.run(arguments)
            #expect(outcome.status == 64, "\(arguments)")
            #expect(outcome.stderr.hasPrefix("error: "), "\(arguments)")
            #expect(outcome.stdout.isEmpty, "\(arguments)")
        }
    }
}
