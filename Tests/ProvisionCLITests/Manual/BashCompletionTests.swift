import Foundation
import Testing

@testable import ProvisionCLI

/// The bash completion generated from the command registry (issue 46 item 1): verbs, subcommands and options
/// come from the commands themselves, and bash completes with it.
struct BashCompletionTests {
    @Test func optionsAndSubcommandsComeFromTheHelpTexts() {
        #expect(
            BashCompletion.options(in: "Usage: x [--json] [--reader SPEC]\n  --max-consecutive-failures N\n — a") == [
                "--json", "--max-consecutive-failures", "--reader",
            ])
        #expect(BashCompletion.subcommands(of: LedgerCommand.self) == ["migrate", "grant", "copy"])
        #expect(BashCompletion.subcommands(of: NDEFCommand.self) == ["encode", "decode"])
        // A placeholder is no subcommand.
        #expect(BashCompletion.subcommands(of: RunCommand.self).isEmpty)
    }

    @Test func bashCompletesVerbsSubcommandsAndOptions() throws {
        let script = BashCompletion.script()
        #expect(try complete(script, ["provision", "le"]) == ["ledger"])
        #expect(try complete(script, ["provision", "ledger", "mi"]) == ["migrate"])
        let options = try complete(script, ["provision", "run", "--rea"])
        #expect(options.contains("--reader") && options.allSatisfy { $0.hasPrefix("--rea") }, "\(options)")
        #expect(try complete(script, ["provision", "help", "doc"]) == ["doctor"])
        #expect(try complete(script, ["provision", ""]).count == CommandRegistry.all.count + 3)
    }

    /// What bash's completion function offers for `words`, the last being the word under the cursor.
    private func complete(_ script: String, _ words: [String]) throws -> [String] {
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let program =
            script + """
                COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _provision; printf '%s\\n' "${COMPREPLY[@]}"
                """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", program]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
