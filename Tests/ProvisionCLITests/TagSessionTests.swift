import Foundation
import NFCTags
import Support
import TagEmulator
import Testing

@testable import ProvisionCLI

/// The shared wait/identify/release steps, in-process on the simulated reader.
@Suite struct TagSessionTests {
    @Test func exhaustedPopulationIsUnavailable() async throws {
        let reader = try await TagSession.openReader(spec: "sim:ntag213?count=1")
        let context = CommandContext.buffered()
        let uid = try await TagSession.withTag(on: reader, timeout: .seconds(60), context: context) { $0.uidHex }
        #expect(uid.count == 14)
        await #expect {
            _ = try await TagSession.withTag(on: reader, timeout: .seconds(60), context: context) { $0.uidHex }
        } throws: { error in
            guard let error = error as? CLIError else { return false }
            return error.exitCode == .unavailable && error.message.contains("no more tags")
        }
    }

    @Test func extraTagsArePromptedAndPollingContinues() async throws {
        let reader = try await TagSession.openReader(spec: "sim:ntag215?faults=multi:1&count=1")
        let context = CommandContext.buffered()
        let (chip, family) = try await TagSession.withTag(on: reader, timeout: .seconds(60), context: context) {
            ($0.chip, $0.family)
        }
        #expect(chip?.id == "ntag215")
        #expect(family == "type2")
        #expect(context.err.text.contains("2 tags in the field of sim:ntag215: remove the extra tags"))
    }

    @Test func tagIsReleasedWhenTheBodyThrows() async throws {
        let reader = SimulatedReader(options: try SimulationOptions("sim:ntag213?count=2"))
        let context = CommandContext.buffered()
        struct Boom: Error {}
        await #expect(throws: Boom.self) {
            try await TagSession.withTag(on: reader, timeout: .seconds(60), context: context) { _ -> Int in throw Boom()
            }
        }
        #expect(await reader.withField { $0.departures } == 1)
        let identifyCost = try await TagSession.withTag(on: reader, timeout: .seconds(60), context: context) {
            $0.identifyCost
        }
        #expect(identifyCost.exchanges == 1)
        #expect((identifyCost.airtimeMicroseconds ?? 0) > 0)
        #expect(await reader.withField { $0.departures } == 2)
    }

    @Test func aStopRequestBeforeATagArrivesIsAnInterruptionAndTouchesNoTag() async throws {
        let reader = SimulatedReader(options: try SimulationOptions("sim:ntag213?count=1"))
        let context = CommandContext.buffered()
        context.stop.request()
        await #expect {
            try await TagSession.withTag(on: reader, timeout: .seconds(60), context: context) { $0.uidHex }
        } throws: { error in
            guard let error = error as? CLIError else { return false }
            return error.exitCode == .interrupted && error.message.contains("nothing was written")
        }
        #expect(await reader.withField { $0.departures } == 0)
    }

    @Test func badAndUnavailableSpecsKeepTheirExitCodes() async throws {
        await #expect {
            _ = try await TagSession.openReader(spec: "sim:ntag215?count=x")
        } throws: { ($0 as? CLIError)?.exitCode == .usage }
        await #expect {
            _ = try await TagSession.openReader(spec: "nfc:whatever")
        } throws: { ($0 as? CLIError)?.exitCode == .unavailable }
    }

    @Test func phaseCostsSumAndPrint() {
        let a = PhaseCost(
            name: "write", exchanges: 6, writes: 6, reactivations: 0, airtimeMicroseconds: 30_000, wallSeconds: 0.01)
        let b = PhaseCost(
            name: "verify", exchanges: 1, writes: 0, reactivations: 1, airtimeMicroseconds: 7_000, wallSeconds: 0.002)
        let total = PhaseCost.sum([a, b])
        #expect(total.exchanges == 7 && total.writes == 6 && total.reactivations == 1)
        #expect(total.airtimeMicroseconds == 37_000)
        #expect(PhaseCost.sum([a, PhaseCost(name: "real")]).airtimeMicroseconds == nil)
        #expect(a.line.contains("6 exchanges (6 WRITE)  modelled 30.0 ms"))
        #expect(b.line.contains("1 exchange, 1 re-activation"))
    }
}
