"""Paired B1-style comparison of two provision binaries (for example before and after a ledger change).

Usage: python3 scripts/bench_ab.py OLD_BINARY NEW_BINARY [--rounds 10] [--tags 2000]

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


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--tags", type=int, default=2000)
    args = parser.parse_args()
    binaries = {"old": os.path.abspath(args.old), "new": os.path.abspath(args.new)}
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
