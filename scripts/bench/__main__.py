"""Entry point of the benchmarks (`python3 scripts/bench`, `make bench`): arguments, build, runs, reports."""
import argparse
import datetime
import json
import os
import subprocess
import sys
import time

if not __package__:  # `python3 scripts/bench` runs this file alone: import the package from scripts/
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from bench.b1 import bench_b1  # noqa: E402
from bench.b2 import bench_b2  # noqa: E402
from bench.b3 import bench_b3  # noqa: E402
from bench.b4 import bench_b4  # noqa: E402
from bench.b5 import bench_b5  # noqa: E402
from bench.b6a import bench_b6a  # noqa: E402
from bench.b6b import bench_b6b  # noqa: E402
from bench.b7 import bench_b7  # noqa: E402
from bench.b8 import bench_b8  # noqa: E402
from bench.b9 import bench_b9  # noqa: E402
from bench.b10 import bench_b10  # noqa: E402
from bench.b11 import bench_b11  # noqa: E402
from bench.b12 import bench_b12  # noqa: E402
from bench.common import ROOT, WORK, log, machine, rnd  # noqa: E402
from bench.report import write_reports  # noqa: E402

FULL = {"B1": 10_000, "B2": 200, "B3": 50, "B4": (100_000, 1_000_000), "B5": 400, "B6a": 200, "B6b": 100,
        "B7": (40, 400, 3), "B8": 100, "B9": 100, "B10": (20, 200), "B11": (40, 8),
        "B12": (2_000, 100, 4, 20_000)}
QUICK = {"B1": 500, "B2": 40, "B3": 3, "B4": (10_000, 100_000), "B5": 80, "B6a": 40, "B6b": 20,
         "B7": (10, 100, 1), "B8": 20, "B9": 20, "B10": (5, 100), "B11": (15, 4),
         "B12": (300, 30, 2, 5_000)}
ALL = ",".join(FULL)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", default=ALL)
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--out", default=os.path.join(ROOT, "reports"))
    parser.add_argument("--render", metavar="BENCH_JSON", help="only rewrite bench.md from an existing bench.json")
    args = parser.parse_args()
    if args.render:
        data = json.load(open(args.render))
        notes_path = os.path.join(ROOT, "scripts", "bench_notes.json")
        if os.path.exists(notes_path):
            data.update({k: v for k, v in json.load(open(notes_path)).items() if k[:2] in data})
        write_reports(data, args.out)
        return
    sizes = QUICK if args.quick else FULL
    only = set(args.only.split(","))
    started = time.perf_counter()
    if not args.skip_build:
        log("swift build -c release")
        for product in ("provision", "ledger-bench"):
            subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=ROOT, check=True)
    os.makedirs(WORK, exist_ok=True)
    command = "make bench" + (" QUICK=1" if args.quick else "")
    if args.only != ALL:
        command = "python3 scripts/bench " + " ".join(sys.argv[1:])
    data = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "command": command, "quick": args.quick, "sizes": {k: v for k, v in sizes.items()}, "machine": machine()}
    notes_path = os.path.join(ROOT, "scripts", "bench_notes.json")
    notes = json.load(open(notes_path)) if os.path.exists(notes_path) else {}
    steps = {"B1": bench_b1, "B2": bench_b2, "B3": bench_b3, "B4": bench_b4, "B5": bench_b5, "B6a": bench_b6a, "B6b": bench_b6b,
             "B7": bench_b7, "B8": bench_b8, "B9": bench_b9, "B10": bench_b10, "B11": bench_b11,
             "B12": bench_b12}
    previous_path = os.path.join(args.out, "bench.json")
    if only != set(steps) and os.path.exists(previous_path):
        # --only: the other sections stay as the earlier run wrote them, each with its own run line.
        previous = json.load(open(previous_path))
        for key in steps:
            if key in only:
                continue
            for name, value in previous.items():
                if name == key or name.startswith(key + "_"):
                    data[name] = value
            if key in previous and key + "_run" not in previous:
                data[key + "_run"] = {"date": previous.get("date"), "command": previous.get("command")}
    for key, step in steps.items():
        if key not in only:
            continue
        t0 = time.perf_counter()
        try:
            data[key] = step(sizes[key])
        except Exception as error:  # a failed benchmark is reported, the others still run
            data[key + "_error"] = f"{type(error).__name__}: {error}"
            log(f"{key} failed: {error}")
        data[key + "_s"] = rnd(time.perf_counter() - t0, 1)
        data[key + "_run"] = {"date": data["date"], "command": command}
        if key + "_notes" in notes:
            data[key + "_notes"] = notes[key + "_notes"]
        data["total_s"] = rnd(time.perf_counter() - started, 1)
        data["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
        write_reports(data, args.out)
    log(f"done in {data['total_s']} s: {os.path.join(args.out, 'bench.md')}")


if __name__ == "__main__":
    main()
