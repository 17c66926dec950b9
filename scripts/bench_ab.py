"""Paired comparison of two provision binaries (for example before and after a redesign), in one run.

Usage: python3 scripts/bench_ab.py OLD_BINARY NEW_BINARY [--rounds 10] [--tags 2000]
       python3 scripts/bench_ab.py OLD_BINARY NEW_BINARY --benchmarks B1,B2,...,B11 [--rounds 2] [--quick]

With --benchmarks, each named benchmark of `make bench` runs with each binary in alternating order, round after
round, and its headline figures (HEADLINES: throughput up, software time and exchanges down) are printed as
medians with new ÷ old and whether new is no worse than old within --tolerance.

Without it:

Runs the B1 job (`sim:ntag215?timing=instant`, verify and lock on, real ledger) with each binary in
alternating order, round after round, so both meet the same phases of a shared machine's disk, and prints
per round and as medians: wall time a tag over the ledger window, ledger time a tag (claim + done, from
the attempts), CPU a tag and disk writes a tag (getrusage of the child). Not part of `make bench`.
"""

import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import common  # noqa: E402


def one_run(binary, folder, tags):
    common.BIN = binary
    manifest = common.make_job(folder, "b1", tags, lock=True)
    _, _, cpu, _ = common.provision_run(manifest, [f"sim:ntag215?timing=instant&count={tags}"])
    written = common.LAST_RUN_WRITTEN_KIB
    first, last = common.ledger_rows(
        folder, "SELECT min(started_at), max(finished_at) FROM attempts WHERE outcome = 'done'")[0]
    ledger_us = common.ledger_rows(folder, "SELECT avg(ledger_us) FROM attempts WHERE outcome = 'done'")[0][0]
    window = common.iso_seconds(last) - common.iso_seconds(first)
    return {"wall_ms": 1000 * window / tags, "ledger_ms": ledger_us / 1000, "cpu_ms": 1000 * cpu / tags,
            "written_kib": written / tags}


# Per benchmark: (path into its result, +1 when higher is better, -1 when lower is better).
HEADLINES = {
    "B1": [("tags_per_s", 1)],
    "B2": [("software_ms_per_tag_median", -1), ("measured_over_floor_median", -1)],
    "B3": [("ours.s_per_tag", -1), ("ours.frames_per_tag", -1), ("ours.tag_exchanges_per_tag", -1)],
    "B4": [("0.rows_per_cpu_s", 1), ("1.rows_per_cpu_s", 1), ("1.peak_rss_mb", -1)],
    "B5": [("0.tags_per_s", 1), ("1.tags_per_s", 1)],
    "B6a": [("software_ms_per_tag_median", -1), ("measured_over_floor_median", -1)],
    "B6b": [("software_ms_per_tag_median", -1), ("measured_over_floor_median", -1)],
    "B7": [("four_over_one_datasheet", 1), ("sqlite_instant_tags_per_s_median", 1)],
    "B8": [("software_ms_per_tag_median", -1), ("measured_over_floor_median", -1)],
    "B9": [("software_ms_per_tag_median", -1), ("measured_over_floor_median", -1)],
    "B11": [("token_over_file_median", -1), ("token_ms_per_tag", -1)],
}


def figure(result, path):
    """The number at a dotted path (list indices as digits), or None."""
    value = result
    for part in path.split("."):
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        else:
            return None
    return value if isinstance(value, (int, float)) else None


def compare_benchmarks(binaries, names, rounds, quick, tolerance):
    """Runs each benchmark with both binaries alternately; prints medians and new ÷ old per headline figure."""
    from bench.__main__ import FULL, QUICK
    from bench import b1, b2, b3, b4, b5, b6a, b6b, b7, b8, b9, b11
    steps = {"B1": b1.bench_b1, "B2": b2.bench_b2, "B3": b3.bench_b3, "B4": b4.bench_b4, "B5": b5.bench_b5,
             "B6a": b6a.bench_b6a, "B6b": b6b.bench_b6b, "B7": b7.bench_b7, "B8": b8.bench_b8, "B9": b9.bench_b9,
             "B11": b11.bench_b11}
    sizes = QUICK if quick else FULL
    os.makedirs(common.WORK, exist_ok=True)
    worse = []
    for name in names:
        results = {n: [] for n in binaries}
        for r in range(rounds):
            order = list(binaries.items()) if r % 2 == 0 else list(reversed(binaries.items()))
            for label, binary in order:
                common.BIN = binary
                try:
                    results[label].append(steps[name](sizes[name]))
                except Exception as error:  # reported, the other benchmarks still run
                    print(f"{name} {label} round {r + 1} failed: {type(error).__name__}: {error}")
        for path, better in HEADLINES[name]:
            old = [x for x in (figure(v, path) for v in results["old"]) if x is not None]
            new = [x for x in (figure(v, path) for v in results["new"]) if x is not None]
            if not old or not new:
                print(f"{name} {path}: no figure (old {len(old)}, new {len(new)} rounds)")
                worse.append(f"{name} {path}")
                continue
            o, n = statistics.median(old), statistics.median(new)
            ratio = n / o if o else float("inf")
            ok = ratio >= 1 - tolerance if better > 0 else ratio <= 1 + tolerance
            print(f"{name} {path}: old {o:.4g}, new {n:.4g}, new ÷ old {ratio:.3f} "
                  f"({'higher' if better > 0 else 'lower'} is better) {'ok' if ok else 'WORSE'}", flush=True)
            if not ok:
                worse.append(f"{name} {path}")
    print("no worse: all headline figures" if not worse else "worse: " + ", ".join(worse))
    return not worse


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--tags", type=int, default=2000)
    parser.add_argument("--benchmarks", help="comma-separated B1..B11: run these benchmarks A/B instead of B1 alone")
    parser.add_argument("--quick", action="store_true", help="the benchmarks' QUICK sizes")
    parser.add_argument("--tolerance", type=float, default=0.05, help="noise allowed before 'worse' (0.05: 5%%)")
    args = parser.parse_args()
    binaries = {"old": os.path.abspath(args.old), "new": os.path.abspath(args.new)}
    if args.benchmarks:
        names = [n.strip() for n in args.benchmarks.split(",") if n.strip()]
        unknown = [n for n in names if n not in HEADLINES]
        if unknown:
            parser.error(f"unknown benchmark(s): {', '.join(unknown)} (known: {', '.join(HEADLINES)})")
        sys.exit(0 if compare_benchmarks(binaries, names, args.rounds, args.quick, args.tolerance) else 1)
    results = {name: [] for name in binaries}
    for r in range(args.rounds):
        order = list(binaries.items()) if r % 2 == 0 else list(reversed(binaries.items()))
        for name, binary in order:
            results[name].append(one_run(binary, os.path.join(common.WORK, f"ab-{name}"), args.tags))
        print(f"round {r + 1}: " + "; ".join(
            f"{n} {results[n][-1]['wall_ms']:.3f} ms/tag (ledger {results[n][-1]['ledger_ms']:.3f})" for n in binaries))
    faster = sum(1 for o, n in zip(results["old"], results["new"]) if n["wall_ms"] < o["wall_ms"])
    for figure in ("wall_ms", "ledger_ms", "cpu_ms", "written_kib"):
        old = statistics.median(x[figure] for x in results["old"])
        new = statistics.median(x[figure] for x in results["new"])
        print(f"median {figure}: old {old:.3f}, new {new:.3f} (new ÷ old {new / old:.3f})")
    print(f"new faster in {faster} of {args.rounds} paired rounds")


if __name__ == "__main__":
    main()
