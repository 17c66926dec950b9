import Foundation
import TagEmulator
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
        #expect(report["version"] as? Int == 2)
        let readers = try #require(report["readers"] as? [[String: Any]])
        let sims = readers.filter { $0["backend"] as? String == "sim" }
        // Issue 41 item 2: one entry per chip the families publish a simulator name for (it had been every
        // Type 2 chip and one hand-picked chip of each other family).
        #expect(sims.compactMap { $0["spec"] as? String } == SimulationOptions.chipNames.map { "sim:" + $0 })
        #expect(sims.allSatisfy { $0["available"] as? Bool == true })
        #expect(Set(readers.compactMap { $0["backend"] as? String }) == ["sim", "nfc", "pcsc"])
    }

    @Test func eachReaderPathSaysWhichTagFamiliesItReaches() throws {
        let readers = try #require(try jsonOutput(["readers", "--json"])["readers"] as? [[String: Any]])
        func reach(_ spec: String) -> [String]? {
            readers.first { $0["spec"] as? String == spec }?["reaches"] as? [String]
        }
        #expect(reach("sim:ntag215") == ["type2"] && reach("sim:felica-lite-s") == ["type3"])
        #expect(reach("sim:icode-slix2") == ["type5"] && reach("sim:ntag424") == ["type4"])
        // No PN532 reaches ISO 15693; the libnfc entry says so whether or not a device is attached.
        let libnfc = try #require(readers.first { $0["backend"] as? String == "nfc" })
        #expect(libnfc["reaches"] as? [String] == ["type2", "type4", "type3"])
        #expect((libnfc["note"] as? String)?.contains("not Type 5 (no ISO 15693)") == true)
        let text = try ProvisionProcess.run(["readers"]).stdout
        #expect(text.contains("reaches Type 2, Type 4 and Type 3 (FeliCa, 212/424 kbit/s); not Type 5"), "\(text)")
    }

    @Test func everySimulatorListingOpensWithInspect() throws {
        let report = try jsonOutput(["readers", "--json"])
        let readers = try #require(report["readers"] as? [[String: Any]])
        for reader in readers where reader["backend"] as? String == "sim" {
            let spec = try #require(reader["spec"] as? String)
            #expect(try ProvisionProcess.run(["inspect", "--reader", spec]).status == 0, "\(spec)")
        }
    }

    /// Issue 40 item 10: the `CHIP:` list of every reader help names every chip the simulator takes (it left out
    /// icode-slix, icode-slix2, st25tv02k, type5 and felica-standard), each once.
    @Test(arguments: ["run", "audit", "readers", "inspect", "write", "lock"])
    func everySimulatorChipIsListedInTheHelp(command: String) throws {
        let help = try ProvisionProcess.run([command, "--help"])
        #expect(help.status == 0)
        let section = try #require(help.stdout.firstRange(of: "CHIP: ").map { help.stdout[$0.upperBound...] })
        let list = try #require(section.firstRange(of: "count=N").map { section[..<$0.lowerBound] })
        let words = list.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "|" }).map(String.init)
        for name in SimulationOptions.chipNames {
            #expect(words.filter { $0 == name }.count == 1, "\(command) --help lists sim:\(name): \(list)")
        }
    }

    @Test func unexpectedArgumentsAreUsageErrors() throws {
        #expect(try ProvisionProcess.run(["readers", "extra"]).status == 64)
        #expect(try ProvisionProcess.run(["readers", "--nope"]).status == 64)
    }
}
