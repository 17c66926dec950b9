#!/usr/bin/env python3
"""`make test`: runs the whole suite once; a run that completed and failed in at most MAX_RERUN tests runs exactly
those tests again, alone, once, with the first run's random seed. The suite passes only if they pass then; every
test that needed the second run is written to .build/flaky.txt and printed as the last line, so a load-sensitive
test is seen, never hidden. A test that fails twice fails the build.

A run completed when the runner printed its final summary and ran as many tests as `--list-tests` names (Swift
Testing counts a parameterised test once, as the list does; XCTest's "Executed N tests" is checked as well when
the suite has XCTest tests). A run that died (a crash, a signal) or ran fewer tests is never rerun: it fails and
says why, because the crash and the tests that never ran would otherwise pass unseen.

Usage: scripts/test_rerun.py SWIFT   (the swift driver; LIBNFC_LOG_LEVEL etc. come from the environment)
"""
import os
import re
import signal
import subprocess
import sys

MAX_RERUN = 3
FLAKY_FILE = os.path.join(".build", "flaky.txt")
FAILED = re.compile(r"^✘ Test (\w+)\(.*\) (?:with \d+ test cases? )?failed after")
# Swift Testing's last line: "✔ Test run with 1504 tests in 210 suites passed after …" (or "✘ … failed after"; a
# run with known issues passes under another symbol).
SUMMARY = re.compile(r"^\S+ Test run with (\d+) tests? (?:in \d+ suites? )?(?:passed|failed) after")
# XCTest: the run's outermost suite ends, then its total: "\t Executed 12 tests, with 0 failures …".
XCTEST_END = re.compile(r"^Test Suite '(?:All tests|Selected tests)' (?:passed|failed) at")
XCTEST_EXECUTED = re.compile(r"^\s*Executed (\d+) tests?, with")
# TestSupport's TestSeed prints this once per test process (Tests: every randomised test draws from it).
SEED = re.compile(r"seed (\d+) \(replay with PROVISION_TEST_SEED=\1\)")


class Run:
    """What one `swift test` printed: exit status, failed tests, the runners' totals and the seeds drawn."""

    def __init__(self, status, failed, swift_testing, xctest, seeds):
        self.status, self.failed, self.swift_testing, self.xctest, self.seeds = (
            status, failed, swift_testing, xctest, seeds)

    def incomplete(self, expected):
        """Why this run did not run all `expected` tests (a list of names), or None when it did."""
        swift_testing = [name for name in expected if "(" in name]
        xctest = [name for name in expected if "(" not in name]
        how = f"exit {self.status}" if self.status >= 0 else f"killed by signal {-self.status}"
        if swift_testing and self.swift_testing is None:
            return f"the test process ended ({how}) before Swift Testing's final summary: it crashed or was killed"
        if swift_testing and self.swift_testing != len(swift_testing):
            return f"Swift Testing ran {self.swift_testing} tests, the suite has {len(swift_testing)} ({how})"
        if xctest and self.xctest is None:
            return f"the test process ended ({how}) before XCTest's final summary: it crashed or was killed"
        if xctest and self.xctest != len(xctest):
            return f"XCTest ran {self.xctest} tests, the suite has {len(xctest)} ({how})"
        return None


def run(swift, extra, environment=None):
    """Runs `swift test --skip-build` with `extra`, echoing its output; returns the Run it printed."""
    process = subprocess.Popen([swift, "test", "--skip-build"] + extra, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, errors="replace", env=environment)
    failed, seeds = [], []
    swift_testing = xctest = None
    xctest_ending = False
    for line in process.stdout:
        sys.stdout.write(line)
        match = FAILED.match(line)
        if match and match.group(1) not in failed:
            failed.append(match.group(1))
        match = SUMMARY.match(line)
        if match:
            swift_testing = int(match.group(1))
        if XCTEST_END.match(line):
            xctest_ending = True
        match = XCTEST_EXECUTED.match(line)
        if match and xctest_ending:
            xctest, xctest_ending = int(match.group(1)), False
        match = SEED.search(line)
        if match and match.group(1) not in seeds:
            seeds.append(match.group(1))
    sys.stdout.flush()
    return Run(process.wait(), failed, swift_testing, xctest, seeds)


def list_tests(swift):
    """The suite's tests as `--list-tests` names them (Module.Suite/test(labels:)); None if it could not list."""
    listing = subprocess.run([swift, "test", "--skip-build", "--list-tests"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, errors="replace")
    names = [line.strip() for line in listing.stdout.splitlines() if line.strip()]
    return names if listing.returncode == 0 and names else None


def selected(names, failed):
    """The listed tests whose function name is one of `failed` (the runner's failure lines name only that)."""
    return [name for name in names if re.split(r"[/.]", re.sub(r"\(.*", "", name))[-1] in failed]


def orphans(since_ticks):
    """`provision` processes of this build left behind by tests: reparented (parent 1), started after since_ticks."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{name}/cmdline", "rb") as f:
                command = f.read().split(b"\0")[0].decode(errors="replace")
        except OSError:
            continue
        # Fields after the command name: state, ppid (index 1) … starttime (index 19), in clock ticks since boot.
        ours = "/.build/" in command and command.endswith("/debug/provision")
        if ours and fields[1] == "1" and int(fields[19]) >= since_ticks:
            found.append(int(name))
    return found


def reap(since_ticks):
    """Kills and names what the tests leaked, so a leak is seen and never outlives the run."""
    leaked = orphans(since_ticks)
    for pid in leaked:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    if leaked:
        print(f"test: {len(leaked)} child process(es) left running by tests, killed: {leaked}", flush=True)


def flaky(names):
    """Writes the tests that needed a rerun to FLAKY_FILE (empty when none) and prints them as the last line."""
    os.makedirs(os.path.dirname(FLAKY_FILE), exist_ok=True)
    with open(FLAKY_FILE, "w") as f:
        f.writelines(name + "\n" for name in names)
    print(f"test: needed a rerun ({FLAKY_FILE}): {', '.join(names) or 'none'}", flush=True)


def failure(status):
    """A failing exit status for the gate: the run's own, or 1 when it was 0 or a signal's (negative)."""
    return status if status > 0 else 1


def gate(swift, started):
    """Runs the suite (and at most one rerun); returns (exit status, tests that needed the rerun)."""
    names = list_tests(swift)
    if names is None:
        print("test: FAILED: `swift test --list-tests` listed no tests, so no run can be checked as complete",
              flush=True)
        return 1, []
    first = run(swift, [])
    reap(started)
    why = first.incomplete(names)
    if why:
        print(f"test: FAILED: the run did not complete: {why}; {len(first.failed)} test(s) had failed by then: "
              f"{', '.join(first.failed) or 'none'}. Not rerunning.", flush=True)
        return failure(first.status), []
    if first.status == 0:
        return 0, []
    if not first.failed:
        print(f"test: FAILED (exit {first.status}) with no failing test named (a suite-level issue?)", flush=True)
        return failure(first.status), []
    if len(first.failed) > MAX_RERUN:
        print(f"test: FAILED: {len(first.failed)} tests failed; not rerunning (at most {MAX_RERUN} are)", flush=True)
        return failure(first.status), []
    if len(first.seeds) > 1:
        print(f"test: FAILED: the run drew several seeds ({', '.join(first.seeds)}); a rerun cannot replay them",
              flush=True)
        return failure(first.status), []
    rerun = selected(names, first.failed)
    if not rerun:
        print(f"test: FAILED: no listed test is named {', '.join(first.failed)}; cannot rerun", flush=True)
        return failure(first.status), []
    environment = dict(os.environ)
    if first.seeds:
        environment["PROVISION_TEST_SEED"] = first.seeds[0]
    seed = f" with PROVISION_TEST_SEED={first.seeds[0]}" if first.seeds else ""
    print(f"test: rerunning alone, once{seed}: {', '.join(rerun)}", flush=True)
    again = run(swift, ["--filter", "|".join(re.escape(name) for name in rerun)], environment)
    reap(started)
    why = again.incomplete(rerun)
    if why:
        print(f"test: FAILED: the rerun did not complete: {why}", flush=True)
        return failure(again.status), first.failed
    if again.status != 0:
        print(f"test: FAILED again: {', '.join(again.failed) or 'see above'}", flush=True)
        return failure(again.status), first.failed
    print(f"test: FLAKY (failed in the full run, passed alone{seed}): {', '.join(first.failed)}", flush=True)
    return 0, first.failed


def main():
    swift = sys.argv[1] if len(sys.argv) > 1 else "swift"
    with open("/proc/self/stat") as f:
        started = int(f.read().rsplit(")", 1)[1].split()[19])
    status, needed = gate(swift, started)
    flaky(needed)
    return status


if __name__ == "__main__":
    sys.exit(main())
