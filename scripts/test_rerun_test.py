#!/usr/bin/env python3
"""Tests of scripts/test_rerun.py (`make test`'s gate) against a fake `swift` that prints canned runner output.

Run: python3 scripts/test_rerun_test.py   (`make test` and `make lint` run it; it takes about a second)
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "test_rerun.py")

# The fake driver: `swift test --skip-build --list-tests` prints the scenario's list; every other call prints the
# next canned run and exits with its status, and logs its arguments and PROVISION_TEST_SEED.
FAKE_SWIFT = r"""#!/usr/bin/env python3
import json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
scenario = json.load(open(os.path.join(here, "scenario.json")))
if "--list-tests" in sys.argv:
    print("\n".join(scenario["list"]))
    sys.exit(0)
with open(os.path.join(here, "calls.jsonl"), "a") as log:
    log.write(json.dumps({"args": sys.argv[1:], "seed": os.environ.get("PROVISION_TEST_SEED")}) + "\n")
calls = sum(1 for _ in open(os.path.join(here, "calls.jsonl")))
output, status = scenario["runs"][calls - 1]
sys.stdout.write(output)
sys.exit(status)
"""

LIST = ["Mod.A/one()", "Mod.A/two()", "Mod.B/three(family:)", "Mod.B/four()", "Mod.five()"]
XCTEST = ("Test Suite 'All tests' started at 2026-01-01 00:00:00.000\n"
          "Test Suite 'All tests' passed at 2026-01-01 00:00:00.001\n"
          "\t Executed 0 tests, with 0 failures (0 unexpected) in 0.0 (0.0) seconds\n")
START = "◇ Test run started.\nCrashTests: seed 4242 (replay with PROVISION_TEST_SEED=4242)\n"


def failed(name, cases=""):
    """A Swift Testing failure line."""
    return f"✘ Test {name}{cases} failed after 0.5 seconds with 1 issue.\n"


def summary(count, passed):
    """Swift Testing's final line."""
    mark, word = ("✔", "passed") if passed else ("✘", "failed")
    return f"{mark} Test run with {count} test{'s' if count != 1 else ''} in 2 suites {word} after 9.0 seconds.\n"


def read(path):
    """A file's text, or "" when it does not exist."""
    if not os.path.exists(path):
        return ""
    with open(path) as f:
        return f.read()


class GateTests(unittest.TestCase):
    def gate(self, runs, names=LIST):
        """Runs test_rerun.py in a scratch folder with the fake swift; returns (exit, output, calls, flaky.txt)."""
        with tempfile.TemporaryDirectory(prefix="test-rerun-") as folder:
            with open(os.path.join(folder, "scenario.json"), "w") as f:
                json.dump({"list": names, "runs": runs}, f)
            swift = os.path.join(folder, "swift")
            with open(swift, "w") as f:
                f.write(FAKE_SWIFT)
            os.chmod(swift, 0o755)
            result = subprocess.run([sys.executable, SCRIPT, swift], cwd=folder, capture_output=True, text=True)
            calls = [json.loads(line) for line in read(os.path.join(folder, "calls.jsonl")).splitlines()]
            flaky = read(os.path.join(folder, ".build", "flaky.txt")).splitlines()
        return result.returncode, result.stdout, calls, flaky

    def testACompleteRunThatPassesPassesWithNoRerun(self):
        status, output, calls, flaky = self.gate([[XCTEST + START + summary(5, True), 0]])
        self.assertEqual((status, len(calls), flaky), (0, 1, []))
        self.assertEqual(output.splitlines()[-1], "test: needed a rerun (.build/flaky.txt): none")

    def testARunWithKnownIssuesIsComplete(self):
        known = "━ Test run with 5 tests in 2 suites passed after 9.0 seconds with 2 known issues.\n"
        status, _, calls, _ = self.gate([[XCTEST + START + known, 0]])
        self.assertEqual((status, len(calls)), (0, 1))

    def testACrashAfterTwoFailuresFailsWithoutARerun(self):
        crash = XCTEST + START + failed("one()") + failed("four()") + "error: Exited with unexpected signal code 11\n"
        status, output, calls, flaky = self.gate([[crash, 1]])
        self.assertEqual((status, len(calls), flaky), (1, 1, []))
        self.assertIn("did not complete", output)
        self.assertIn("before Swift Testing's final summary", output)

    def testAKilledRunExitingZeroStillFails(self):
        status, output, calls, _ = self.gate([[XCTEST + START + failed("one()"), 0]])
        self.assertEqual((status, len(calls)), (1, 1))
        self.assertIn("did not complete", output)

    def testTwoFailuresThatPassAloneAreFlakyWithTheFirstRunsSeed(self):
        first = XCTEST + START + failed("one()") + failed("three(family:)", " with 3 test cases") + summary(5, False)
        again = XCTEST + START + summary(2, True)
        status, output, calls, flaky = self.gate([[first, 1], [again, 0]])
        self.assertEqual(status, 0)
        self.assertEqual(flaky, ["one", "three"])
        self.assertEqual(calls[1]["seed"], "4242")
        self.assertIsNone(calls[0]["seed"])
        self.assertEqual(calls[1]["args"][-1], r"Mod\.A/one\(\)|Mod\.B/three\(family:\)")
        self.assertEqual(output.splitlines()[-1], "test: needed a rerun (.build/flaky.txt): one, three")

    def testAFailureThatFailsAgainFails(self):
        first = XCTEST + START + failed("two()") + summary(5, False)
        again = XCTEST + START + failed("two()") + summary(1, False)
        status, output, calls, flaky = self.gate([[first, 1], [again, 1]])
        self.assertEqual((status, len(calls), flaky), (1, 2, ["two"]))
        self.assertIn("FAILED again: two", output)

    def testARerunThatCrashesFails(self):
        first = XCTEST + START + failed("two()") + summary(5, False)
        status, output, _, _ = self.gate([[first, 1], [XCTEST + START, 1]])
        self.assertEqual(status, 1)
        self.assertIn("the rerun did not complete", output)

    def testFourFailuresAreNotRerun(self):
        first = XCTEST + START + "".join(failed(n) for n in ["one()", "two()", "four()", "five()"]) + summary(5, False)
        status, output, calls, flaky = self.gate([[first, 1]])
        self.assertEqual((status, len(calls), flaky), (1, 1, []))
        self.assertIn("4 tests failed; not rerunning (at most 3 are)", output)

    def testThreeFailuresAreRerun(self):
        first = XCTEST + START + "".join(failed(n) for n in ["one()", "two()", "five()"]) + summary(5, False)
        status, _, calls, flaky = self.gate([[first, 1], [XCTEST + START + summary(3, True), 0]])
        self.assertEqual((status, len(calls), flaky), (0, 2, ["one", "two", "five"]))

    def testACountMismatchFailsEvenWhenEverythingRunPassed(self):
        status, output, calls, _ = self.gate([[XCTEST + START + summary(4, True), 0]])
        self.assertEqual((status, len(calls)), (1, 1))
        self.assertIn("Swift Testing ran 4 tests, the suite has 5", output)

    def testXCTestTestsMustAllRunToo(self):
        names = LIST + ["Mod.Legacy/testSomething"]
        status, output, _, _ = self.gate([[XCTEST + START + summary(5, True), 0]], names)
        self.assertEqual(status, 1)
        self.assertIn("XCTest ran 0 tests, the suite has 1", output)

    def testSeveralSeedsAreNotRerun(self):
        first = XCTEST + START + "seed 7 (replay with PROVISION_TEST_SEED=7)\n" + failed("one()") + summary(5, False)
        status, output, calls, _ = self.gate([[first, 1]])
        self.assertEqual((status, len(calls)), (1, 1))
        self.assertIn("several seeds", output)


if __name__ == "__main__":
    unittest.main()
