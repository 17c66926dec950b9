import Foundation
import TagEmulator
import Testing

@testable import ProvisionCLI

/// Every command parses its arguments into typed fields, and every usage error is caught by `parse`
/// (exit 64, the message naming the option) before anything is touched.
@Suite struct CommandParseTests {
    /// Bad command lines per verb, each with the text its error must contain (the option it names).
    static let badArguments: [(arguments: [String], names: String)] = [
        (["inspect", "--timeout", "0"], "--timeout"),
        (["inspect", "--nope"], "--nope"),
        (["inspect", "extra"], "unexpected argument 1;"),
        (["write", "--uri", "https://a", "--text", "b"], "--uri"),
        (["write", "--replace", "--uri", "https://a"], "--replace"),
        (["write", "--lang", "en", "--uri", "https://a"], "--lang"),
        (["write", "--text", "hi", "--lang", "not a language"], "--lang"),
        (["write", "--uri", ""], "--uri"),
        (["write", "--uri", "https://a", "--timeout", "x"], "--timeout"),
        (["write"], "no message"),
        (["lock", "--timeout", "-1"], "--timeout"),
        (["lock", "--reader"], "--reader"),
        (["readers", "extra"], "unexpected argument 1;"),
        (["doctor", "--reports", ""], "--reports"),
        (["validate"], "missing argument"),
        (["validate", "a.json", "--strict"], "--strict"),
        (["run"], "missing argument"),
        (["run", "job.json", "--idle", "0"], "--idle"),
        (["run", "job.json", "--max-wrong-chip", "x"], "--max-wrong-chip"),
        (["run", "job.json", "--max-consecutive-failures", "-1"], "--max-consecutive-failures"),
        (["run", "job.json", "--wait=1"], "--wait"),
        (["audit", "job.json", "--count", "0"], "--count"),
        (["audit", "job.json", "--idle", "-3"], "--idle"),
        (["audit", "job.json", "--max-unknown", "-1"], "--max-unknown"),
        (["audit", "job.json", "--reader", "sim:ntag215"], "store=DIR"),
        (["report"], "--ledger"),
        (["report", "--ledger", "l.sqlite"], "--job"),
        (["release", "job.json"], "--row"),
        (["release", "job.json", "--row", "0"], "--row"),
        (["reissue", "job.json", "--row", "1"], "--reason"),
        (["verify-url", "https://a"], "--manifest"),
        (["verify-url", "https://a", "--manifest", "m.json", "--key", "brand=00112233"], "--key"),
        (["verify-url", "https://a", "--manifest", "m.json", "--counter-window", "0"], "--counter-window"),
        (["ndef"], "missing subcommand"),
        (["ndef", "frob"], "frob"),
        (["ndef", "encode", "--json"], "--json"),
        (["ndef", "decode", "a", "b"], "unexpected argument 2;"),
        (["emulate", "pn532", "--timing", "slow"], "--timing"),
        (["emulate", "vpcd", "--host", "nowhere"], "--host"),
        (["emulate", "vpcd", "--reader-style", "x"], "--reader-style"),
    ]

    @Test(arguments: badArguments.indices)
    func aBadCommandLineIsAUsageErrorNamingTheOption(index: Int) throws {
        let (arguments, names) = Self.badArguments[index]
        let command = try #require(CommandRegistry.command(named: arguments[0]))
        do {
            _ = try command.parse(Array(arguments.dropFirst()))
            Issue.record("\(arguments) parsed")
        } catch {
            #expect(error.exitCode == .usage, "\(arguments)")
            #expect(error.message.contains(names), "\(arguments): \(error.message)")
        }
    }

    @Test(arguments: badArguments.indices)
    func theEntryPointExits64OnEveryBadCommandLine(index: Int) async {
        let arguments = Self.badArguments[index].arguments
        let context = CommandContext.buffered()
        #expect(await ProvisionCLI.run(arguments, context: context) == 64, "\(arguments)")
        #expect(context.err.text.hasPrefix("error: "), "\(arguments)")
        if arguments.contains("--json") {
            // Under --json the usage error is the one document on stdout.
            let object = try? JSONSerialization.jsonObject(with: Data(context.out.text.utf8)) as? [String: Any]
            #expect(((object?["error"] as? [String: Any])?["exit"] as? Int) == 64, "\(arguments)")
        } else {
            #expect(context.out.text.isEmpty, "\(arguments)")
        }
    }

    @Test func writeParsesItsTypedFields() throws {
        let write = try WriteCommand.parse(
            ["--reader", "sim:ntag213", "--lock", "--json", "--text", "hi", "--lang", "de", "--timeout", "2.5"])
        #expect(write.reader == "sim:ntag213" && write.lock && write.json && write.append == nil)
        #expect(write.source == .text("hi", language: "de"))
        #expect(write.timeout == .milliseconds(2500))
        let file = try WriteCommand.parse(["message.json", "--append", "--replace"])
        #expect(file.source == .file("message.json") && file.append?.replace == true && !file.lock && !file.json)
        #expect(file.timeout == .seconds(30))
        #expect(try WriteCommand.parse(["--uri", "https://a"]).source == .uri("https://a"))
    }

    @Test func inspectAndLockParseTheirFields() throws {
        let inspect = try InspectCommand.parse(["--manifest", "m.json", "--dump", "--json", "--timeout", "1"])
        #expect(inspect.manifest == "m.json" && inspect.dump && inspect.json && inspect.reader == nil)
        #expect(inspect.timeout == .seconds(1))
        let lock = try LockCommand.parse(["--yes", "--reader", "sim:ntag216"])
        #expect(lock.yes && !lock.json && lock.reader == "sim:ntag216")
    }

    @Test func runAndAuditParseTheirFields() throws {
        let run = try RunCommand.parse(
            [
                "job.json", "--reader", "a", "--reader", "b", "-q", "--idle", "1.5", "--max-wrong-chip", "0",
                "--accept-new-rows", "--no-feedback", "--json",
            ])
        #expect(run.manifest == "job.json" && run.readers == ["a", "b"] && run.quiet && run.json)
        #expect(run.idle == 1.5 && run.maxConsecutiveFailures == 0 && !run.feedback && !run.allowTestKeys)
        #expect(run.changePolicy.acceptNewRows && !run.changePolicy.acceptChanged)
        let defaults = try RunCommand.parse(["job.json"])
        #expect(defaults.maxConsecutiveFailures == 5 && defaults.idle == nil && defaults.feedback && !defaults.json)
        #expect(!defaults.waitForWork)
        let renamed = try RunCommand.parse(["job.json", "--max-consecutive-failures", "2", "--wait"])
        #expect(renamed.maxConsecutiveFailures == 2 && renamed.waitForWork)
        let audit = try AuditCommand.parse(["job.json", "--count", "3", "--max-unknown", "0", "--json"])
        #expect(audit.count == 3 && audit.maxUnknown == 0 && audit.json && audit.idle == nil && !audit.quiet)
        #expect(try AuditCommand.parse(["job.json"]).maxUnknown == 20)
    }

    @Test func ledgerCommandsParseTheirTargets() throws {
        let report = try ReportCommand.parse(["--ledger", "l.sqlite", "--job", "batch", "--out", "o", "--json"])
        #expect(report.target == .ledger(path: "l.sqlite", job: "batch") && report.out == "o" && report.json)
        #expect(try ReportCommand.parse(["job.json"]).target == .manifest("job.json", ledger: nil))
        let release = try ReleaseCommand.parse(["job.json", "--row", "7", "--by", "al", "--note", "n", "--json"])
        #expect(release.target == .manifest("job.json", ledger: nil) && release.row == 7 && release.by == "al")
        #expect(release.note == "n" && release.json)
        let reissue = try ReissueCommand.parse(["job.json", "--row", "2", "--reason", "crushed"])
        #expect(reissue.row == 2 && reissue.reason == "crushed" && reissue.by == nil)
    }

    @Test func theRestParseTheirFields() throws {
        let verify = try VerifyURLCommand.parse(
            ["https://a", "--manifest", "m.json", "--key", "brand=env:K", "--operator", "--counter-window", "9"])
        #expect(verify.url == "https://a" && verify.manifest == "m.json" && verify.operatorMode && !verify.json)
        #expect(verify.keys.map(\.id) == ["brand"] && verify.counterWindow == 9)
        #expect(try VerifyURLCommand.parse(["u", "--manifest", "m"]).counterWindow == nil)
        let decode = try NDEFCommand.parse(["decode", "-", "--tlv", "--json"])
        #expect(decode.action == .decode && decode.input == "-" && decode.tlv && decode.json && !decode.binary)
        let encode = try NDEFCommand.parse(["encode", "--binary"])
        #expect(encode.action == .encode && encode.input == nil && encode.binary && !encode.json)
        #expect(try ValidateCommand.parse(["a.json", "--json"]).json)
        #expect(try ReadersCommand.parse(["--json"]).json && !(try ReadersCommand.parse([])).json)
        #expect(try DoctorCommand.parse(["--reports", "r"]).reports == "r")
        guard case .vpcd(let vpcd) = try EmulateCommand.parse(["vpcd", "--port", "4000"]).device else {
            Issue.record("not vpcd")
            return
        }
        #expect(vpcd.port == 4000 && vpcd.host == "127.0.0.1" && vpcd.style == .acr122u)
    }
}
