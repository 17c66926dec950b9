import Foundation
import Testing

@testable import ProvisionCLI

/// The man pages rendered from the `--help` texts (issue 46 item 1): one page per command and provision(1), with
/// the usage as SYNOPSIS, headings as sections, indented blocks kept as they are and roff's specials escaped.
struct ManPageTests {
    @Test func renderTurnsHelpIntoSections() throws {
        let help = """
            Usage: provision demo FILE [--flag]
                   provision demo --other

            Reads FILE. A back\\slash and
            .a line starting with a dot.

            Options:
              --flag    does a thing
                        on two lines

            Exit codes: 0 ok, 64 usage.

            """
        let page = ManPage.render(
            name: "provision-demo", summary: "a demo", version: "1.2.3", help: help, seeAlso: ["provision"])
        let lines = page.components(separatedBy: "\n")
        #expect(lines.contains(".TH \"PROVISION\\-DEMO\" \"1\" \"\" \"provision 1.2.3\" \"provision manual\""))
        #expect(lines.contains("provision\\-demo \\- a demo"))
        // The usage block is the synopsis, its continuation lines aligned under the first.
        let synopsis = try #require(lines.firstIndex(of: ".SH SYNOPSIS"))
        #expect(
            Array(lines[(synopsis + 1)...(synopsis + 4)]) == [
                ".nf", "provision demo FILE [\\-\\-flag]", "provision demo \\-\\-other", ".fi",
            ])
        #expect(lines.contains("Reads FILE. A back\\eslash and"))
        #expect(lines.contains("\\&.a line starting with a dot."))
        #expect(lines.contains(".SH OPTIONS"))
        let block = try #require(lines.firstIndex(of: "\\-\\-flag    does a thing"))
        #expect(
            Array(lines[(block - 2)...(block + 3)]) == [
                ".RS 2", ".nf", "\\-\\-flag    does a thing", "          on two lines", ".fi", ".RE",
            ])
        // "Exit codes: 0 ok, …" is a paragraph, not a heading: it says more after its colon.
        #expect(lines.contains("Exit codes: 0 ok, 64 usage."))
        #expect(lines.contains(".BR provision (1)"))
    }

    @Test func everyCommandHasAPageFromItsOwnHelp() {
        for command in CommandRegistry.all {
            let page = ManPage.page(for: command, version: "9.9.9")
            #expect(page.contains(".SH NAME\nprovision\\-\(ManPage.escape(command.name)) \\- "), "\(command.name)")
            #expect(page.contains(".SH SYNOPSIS\n.nf\nprovision \(ManPage.escape(command.name))"), "\(command.name)")
            // Every line of the help text's options reaches the page (escaped), so nothing is lost.
            for option in BashCompletion.options(in: command.help) {
                #expect(page.contains(ManPage.escape(option)), "\(command.name): \(option)")
            }
        }
    }

    @Test func mainPageListsEveryCommandUnderSeeAlso() async {
        let context = CommandContext.buffered()
        #expect(await ProvisionCLI.run(["help", "--man"], context: context) == 0)
        let page = context.out.text
        #expect(page.contains(".SH NAME\nprovision \\- program NFC tags in bulk\n"), "\(page.prefix(400))")
        for command in CommandRegistry.all {
            #expect(page.contains(".BR provision\\-\(ManPage.escape(command.name)) (1)"), "\(command.name)")
        }
    }

    @Test func unknownCommandIsAUsageError() async {
        let context = CommandContext.buffered()
        #expect(await ProvisionCLI.run(["help", "--man", "frobnicate"], context: context) == 64)
        #expect(context.err.text.contains("unknown command 'frobnicate'"))
    }
}
