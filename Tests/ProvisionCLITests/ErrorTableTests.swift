import Foundation
import Ledger
import Provisioning
import Testing

@testable import ProvisionCLI

/// `ErrorTable`: the one mapping from error kinds to exit codes and error-document classes.
@Suite struct ErrorTableTests {
    /// The exit codes the README and `provision --help` promise, written out independently of the table.
    static let promised: [String: Int32] = [
        "CancellationError": 130,
        "KeyError.permissions": 77, "KeyError.missing": 66, "KeyError.unreadable": 66, "KeyError.malformed": 65,
        "KeyError.tooShort": 65, "KeyError.usage": 64, "KeyError.unsafe": 65, "KeyError.tokenUnavailable": 69,
        "KeyError.tokenFailure": 70,
        "LedgerError.cannotOpen": 73, "LedgerError.readOnly": 73, "LedgerError.roleRequired": 77,
        "LedgerError.schemaTooOld": 73,
        "LedgerError.schemaTooNew": 73, "LedgerError.stationTaken": 69, "LedgerError.leaseLost": 75,
        "LedgerError.disconnected": 69,
        "LedgerError.busy": 69, "LedgerError.manifestMismatch": 65, "LedgerError.unknownJob": 65,
        "LedgerError.unknownRow": 65, "LedgerError.invalidState": 65, "LedgerError (any other code)": 74,
        "JobInputError.fileMissing": 66, "JobInputError (manifest, template, records)": 65,
        "RecordJSONError": 65, "NDEFError": 65, "NDEFTLVError": 65, "ReaderSpecError": 64,
        "LibNFCError.badSpec": 64, "LibNFCError.deviceBusy": 75, "LibNFCError (any other code)": 69,
        "PCSCError.badSpec": 64, "PCSCError (any other code)": 69,
        "ReaderFailure.cannotOpen": 69, "ReaderFailure.stopped": 69, "ReaderFailure.exhausted": 69,
        "ReaderFailure.idle": 69, "ReaderFailure.releaseFailed": 74, "LedgerServerUnreachable": 69,
        "TransportError": 1, "TagError": 1, "CycleFailure": 1,
    ]

    @Test(arguments: ErrorTable.rules.indices)
    func everyRuleIsTheFirstToMatchItsSampleAndMapsIt(index: Int) {
        let rule = ErrorTable.rules[index]
        let sample = rule.sample()
        #expect(ErrorTable.rules.firstIndex { $0.matches(sample) } == index, "\(rule.kind) is shadowed")
        #expect(ErrorTable.exitCode(for: sample) == rule.exit, "\(rule.kind)")
        let failure = ErrorTable.cliError(sample)
        #expect(failure.exitCode == rule.exit, "\(rule.kind)")
        #expect(failure.className == rule.errorClass, "\(rule.kind)")
    }

    @Test func everyModuleErrorExitsAsPromised() {
        let modules = ErrorTable.rules.filter { !$0.kind.hasPrefix("CLIError") }
        #expect(Set(modules.map(\.kind)) == Set(Self.promised.keys))
        for rule in modules {
            #expect(rule.exit.rawValue == Self.promised[rule.kind], "\(rule.kind)")
        }
    }

    @Test func aCLIErrorKeepsItsOwnExitCodeForEveryCode() {
        for code in ExitCode.allCases where code != .success {
            let error = CLIError(code, "x")
            #expect(ErrorTable.exitCode(for: error) == code)
            #expect(ErrorTable.cliError(error) == error)
            #expect(ErrorTable.rule(for: error)?.errorClass == code.className)
        }
        #expect(Set(ExitCode.allCases.map(\.className)).count == ExitCode.allCases.count)
    }

    @Test func kindsAreUnique() {
        #expect(Set(ErrorTable.rules.map(\.kind)).count == ErrorTable.rules.count)
    }

    @Test func anErrorNoRuleKnowsIsAnInternalError() {
        struct Strange: Error {}
        #expect(ErrorTable.rule(for: Strange()) == nil)
        #expect(ErrorTable.exitCode(for: Strange()) == .software)
        #expect(ErrorTable.cliError(Strange()).className == "software")
    }

    @Test func conversionsKeepTheirMessagesAndTakeTheTablesCode() throws {
        for rule in ErrorTable.rules where rule.kind.hasPrefix("LedgerError") || rule.kind.hasPrefix("KeyError") {
            let sample = rule.sample()
            let converted: CLIError
            if let ledger = sample as? LedgerError {
                converted = JobContext.cliError(ledger)
            } else {
                converted = JobContext.cliError(try #require(sample as? KeyError))
            }
            #expect(converted.exitCode == rule.exit, "\(rule.kind)")
            #expect(!converted.message.isEmpty)
        }
    }

    @Test func fileLineAndFieldComeFromTheError() throws {
        let input = try #require(ErrorTable.rules.first { $0.kind == "JobInputError.fileMissing" }).sample()
        let missing = ErrorTable.cliError(input)
        #expect(missing.file == "job.json")
        let json = try #require(ErrorTable.rules.first { $0.kind == "RecordJSONError" }).sample()
        #expect(ErrorTable.cliError(json).field == "records[0].uri")
        #expect(CLIError.usage("bad", option: "timeout").field == "--timeout")
    }
}
