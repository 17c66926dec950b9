"""Start-up benchmark (issue 46 item 2): milliseconds from exec to exit of `provision --version`.

    python3 scripts/bench/startup.py [--binary PATH] [--runs N] [--args "--version"]

Default binary: the release build (`swift build -c release`), else the debug build. Each run is a fresh process
(fork, exec, dynamic loading, Swift runtime start, the command, exit), timed with time.perf_counter_ns around
subprocess.run; the first 3 runs warm the page cache and are not counted. Goal: median ≤ 20 ms. A benchmark,
not a test: on a busy shared machine the figures spread.
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
    """The wall time of each of `runs` runs, in milliseconds, after `warmup` uncounted runs."""
    times = []
    for index in range(warmup + runs):
        start = time.perf_counter_ns()
        result = subprocess.run([binary, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        elapsed = (time.perf_counter_ns() - start) / 1e6
        if result.returncode != 0:
            sys.exit(f"{binary} {' '.join(args)} exited {result.returncode}")
        if index >= warmup:
            times.append(elapsed)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=None)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--args", default="--version", help="the command line after the binary")
    options = parser.parse_args()
    binary = options.binary or default_binary()
    times = sorted(measure(binary, options.args.split(), options.runs))
    p90 = times[min(len(times) - 1, int(round(0.9 * (len(times) - 1))))]
    print(f"{binary} {options.args}: {len(times)} runs, min {times[0]:.1f} ms, "
          f"median {statistics.median(times):.1f} ms, p90 {p90:.1f} ms, max {times[-1]:.1f} ms (goal: median ≤ 20 ms)")


if __name__ == "__main__":
    main()
