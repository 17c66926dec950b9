import Foundation
import HTTPService
import Provisioning
import TestSupport
import Testing

@testable import ProvisionCLI

/// `provision serve`'s connection limits and trusted clients: options, defaults and refusals.
@Suite struct ServeLimitsTests {
    static let base = ["--listen", "tcp:127.0.0.1:0", "--manifest", "j.json"]

    @Test func theLimitOptionsHaveDocumentedDefaultsAndAreParsed() throws {
        let plain = try ServeCommand.parse(Self.base)
        #expect(plain.limits == ServeCommand.Limits(maxConnections: 1024, perClientConnections: 64))
        #expect(plain.limits.connectionTimeoutSeconds == 10 && plain.trustedClients == .loopback)
        let set = try ServeCommand.parse(
            Self.base + [
                "--max-connections", "20000", "--per-client-connections", "8", "--connection-timeout", "2",
                "--trusted-clients", "10.0.0.0/8,unix",
            ])
        #expect(
            set.limits
                == ServeCommand.Limits(maxConnections: 20000, perClientConnections: 8, connectionTimeoutSeconds: 2))
        #expect(set.trustedClients.trusts("10.9.9.9") && !set.trustedClients.trusts("127.0.0.1"))
        #expect(ServeCommand.help.contains("--per-client-connections") && ServeCommand.help.contains("(default 64"))
        #expect(plain.counterWindow == nil && set.counterWindow == nil)
        #expect(try ServeCommand.parse(Self.base + ["--counter-window", "5"]).counterWindow == 5)
        #expect(ServeCommand.help.contains("(default \(MACMirrorVerifier.defaultCounterWindow), as verify-url's)"))
    }

    @Test(arguments: [
        ["--max-connections", "0"], ["--per-client-connections", "x"], ["--connection-timeout", "0"],
        ["--trusted-clients", "10.0.0.0/40"], ["--counter-window", "0"], ["--counter-window", "16777216"],
    ])
    func aBadLimitIsAUsageErrorNamingItsOption(_ extra: [String]) {
        do {
            _ = try ServeCommand.parse(Self.base + extra)
            Issue.record("accepted \(extra)")
        } catch {
            #expect(error.exitCode == .usage && error.message.contains(extra[0]), "\(error.message)")
        }
    }

    /// `--counter-window` with no NTAG21x job is refused before any key or ledger is opened: with the job's master
    /// key missing from the environment, the usage error (64) comes first, not the missing key (66).
    @Test func aCounterWindowWithoutAnNTAG21xJobIsRefusedBeforeKeysOrLedgers() async throws {
        let job = try await SUNTapJob()
        let folder = job.folder
        let outcome = try await onThread {
            try ProvisionProcess.run(
                [
                    "serve", "--listen", "tcp:127.0.0.1:0", "--manifest", "job.json", "--counter-window", "5",
                    "--allow-root",
                ],
                directory: folder.url)
        }
        #expect(outcome.status == 64 && outcome.stderr.contains("--counter-window is for NTAG21x"), "\(outcome.stderr)")
    }
}
