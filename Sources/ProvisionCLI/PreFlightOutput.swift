import Provisioning

/// How `validate` and `run` report a failed pre-flight: the same lines, prefix and count in both.
enum PreFlightOutput {
    /// Prints every problem (file:line:column: row N: …, the first 100, then a count) to stderr and
    /// returns the error both commands end with (exit 65).
    static func failure(_ summary: PreFlightSummary, context: CommandContext, printProblems: Bool = true) -> CLIError {
        if printProblems {
            for problem in summary.problems { context.output.diagnostics.line(problem.description) }
            if summary.problemCount > summary.problems.count {
                context.output.diagnostics.line("… and \(summary.problemCount - summary.problems.count) more problems")
            }
        }
        let plural = summary.problemCount == 1 ? "problem" : "problems"
        return CLIError.data(
            "pre-flight found \(summary.problemCount) \(plural) in \(summary.rows) rows; no tag was touched, "
                + "no ledger created")
    }
}
