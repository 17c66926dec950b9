import Foundation
import TestSupport
import Testing

/// `provision readers`.
@Suite struct ReadersCommandTests {
    @Test func listsTheSimulatorAlwaysAndMarksMissingBackends() throws {
        let outcome = try ProvisionProcess.run(["readers"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("sim:ntag215"))
        #expect(outcome.stdout.contains("(the default reader)"))
        let report = try jsonOutput(["readers", "--json"])
        #expect(report["version"] as? Int == 1)
        let readers = try #require(report["readers"] as? [[String: Any]])
        let sims = readers.filter { $0["backend"] as? String == "sim" }
        #expect(
            sims.compactMap { $0["spec"] as? String } == [
                "sim:ntag213", "sim:ntag215", "sim:ntag216", "sim:mf0ul11", "sim:mf0ul21",
            ])
        #expect(sims.allSatisfy { $0["available"] as? Bool == true })
        #expect(Set(readers.compactMap { $0["backend"] as? String }) == ["sim", "nfc", "pcsc"])
    }

    @Test func everySimulatorListingOpensWithInspect() throws {
        let report = try jsonOutput(["readers", "--json"])
        let readers = try #require(report["readers"] as? [[String: Any]])
        for reader in readers where reader["backend"] as? String == "sim" {
            let spec = try #require(reader["spec"] as? String)
            #expect(try ProvisionProcess.run(["inspect", "--reader", spec]).status == 0, "\(spec)")
        }
    }

    @Test func unexpectedArgumentsAreUsageErrors() throws {
        #expect(try ProvisionProcess.run(["readers", "extra"]).status == 64)
        #expect(try ProvisionProcess.run(["readers", "--nope"]).status == 64)
    }
}
