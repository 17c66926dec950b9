"""Start-up benchmark (issue 46 item 2): milliseconds from exec to exit of `provision --version`.

    python3 scripts/bench/startup.py [--binary PATH] [--runs N] [--args=--version]

Default binary: the release build (`swift build -c release`), else the debug build. Each run is a fresh process
(fork, exec, dynamic loading, Swift runtime start, the command, exit), timed with time.perf_counter_ns around
the child's exit (os.wait4, which also gives its CPU time); the first 3 runs warm the page cache and are not
counted. Goal: median ≤ 20 ms. A benchmark, not a test: on a busy shared machine the wall times spread.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def default_binary():
    for configuration in ("release", "debug"):
        path = os.path.join(ROOT, ".build", configuration, "provision")
        if os.path.exists(path):
            return path
    sys.exit("no provision binary: build it first (swift build -c release --product provision)")


def measure(binary, args, runs, warmup=3):
    """The wall time and the CPU time (user + system) of each of `runs` runs, in milliseconds, after `warmup`
    uncounted runs. CPU time barely moves when other processes load the machine; wall time does."""
    wall, cpu = [], []
    for index in range(warmup + runs):
        start = time.perf_counter_ns()
        child = subprocess.Popen([binary, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        elapsed = (time.perf_counter_ns() - start) / 1e6
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            sys.exit(f"{binary} {' '.join(args)} exited {child.returncode}")
        if index >= warmup:
            wall.append(elapsed)
            cpu.append((usage.ru_utime + usage.ru_stime) * 1e3)
    return wall, cpu


def describe(times):
    times = sorted(times)
    p90 = times[min(len(times) - 1, int(round(0.9 * (len(times) - 1))))]
    return (f"min {times[0]:.1f} ms, median {statistics.median(times):.1f} ms, p90 {p90:.1f} ms, "
            f"max {times[-1]:.1f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=None)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--args", default="--version", help="the command line after the binary")
    options = parser.parse_args()
    binary = options.binary or default_binary()
    wall, cpu = measure(binary, options.args.split(), options.runs)
    print(f"{binary} {options.args}: {len(wall)} runs (goal: median wall time ≤ 20 ms)")
    print(f"  wall time, exec to exit: {describe(wall)}")
    print(f"  CPU time, user + system: {describe(cpu)}")


if __name__ == "__main__":
    main()
