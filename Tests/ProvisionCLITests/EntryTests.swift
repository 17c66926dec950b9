import Foundation
import ProvisionCLI
import TestSupport
import Testing

@Test func unknownVerbExitsWithUsage() throws {
    let outcome = try ProvisionProcess.run(["frobnicate"])
    #expect(outcome.status == 64)
    #expect(outcome.stderr.hasPrefix("error: unknown command"))
}

@Test func versionAndHelpAreNormalResults() async {
    let context = CommandContext.buffered()
    #expect(await ProvisionCLI.run(["--version"], context: context) == 0)
    #expect(context.out.text.hasPrefix("provision "))
    let help = CommandContext.buffered()
    #expect(await ProvisionCLI.run(["--help"], context: help) == 0)
    #expect(help.out.text.contains("Commands:"))
    // It says what the tool programs: every NFC Forum tag type, not Type 2 alone (issue 40 item 10).
    let head = help.out.text.components(separatedBy: "Usage:").first ?? ""
    let summary = head.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    for family in ["Type 2 (", "Type 3 (", "Type 4 (", "Type 5 (", "NTAG 424 DNA", "SUN"] {
        #expect(summary.contains(family), "\(summary)")
    }
}

@Test func argumentsParseFlagsOptionsAndPositionals() throws {
    let args = try Arguments(
        ["--reader", "sim:a", "--reader=sim:b", "-q", "file.json", "--json"], flags: ["json", "quiet"],
        options: ["reader"], aliases: ["q": "quiet"])
    #expect(args.all("reader") == ["sim:a", "sim:b"])
    #expect(args.flag("json") && args.flag("quiet"))
    #expect(args.positionals == ["file.json"])
    #expect(throws: CLIError.self) { try Arguments(["--nope"], flags: [], options: []) }
}

@Test func topLevelHelpListsEveryExitCodeTheCommandsUse() throws {
    let outcome = try ProvisionProcess.run(["--help"])
    #expect(outcome.status == 0)
    let section = try #require(outcome.stdout.components(separatedBy: "Exit codes:").last)
    let text = section.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    for code in [
        "0 ok", "1 some work failed", "64 usage", "65 data error", "66 missing input", "69 unavailable",
        "73 cannot create output", "74 I/O error", "75 device busy", "77 key file permissions", "130 interrupted",
    ] {
        #expect(text.contains(code), "\(code)")
    }
}
