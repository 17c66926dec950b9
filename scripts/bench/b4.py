"""B4, manifests at scale: `provision validate` wall time, rows/s and peak RSS on large CSVs."""
import os
import resource

from . import common
from .common import WORK, log, make_job, rnd, run


def bench_b4(sizes):
    results = []
    timer = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None
    for rows in sizes:
        folder = os.path.join(WORK, f"b4-{rows}")
        log(f"B4: generating {rows} rows")
        manifest = make_job(folder, f"b4x{rows}", rows, lock=True)
        cmd = [common.BIN, "validate", manifest, "--json"]
        log(f"B4: validate {rows} rows")
        full = ([timer, "-v"] if timer else []) + cmd
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        done, wall, cpu = run(full, timeout=900)
        if done.returncode != 0:
            raise RuntimeError(f"validate exit {done.returncode}: {done.stderr[-1000:]}")
        rss_kb = None
        if timer:
            for line in done.stderr.splitlines():
                if "Maximum resident set size" in line:
                    rss_kb = int(line.split(":")[1])
        else:
            after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            rss_kb = after if after > before else None
        results.append({"rows": rows, "command": " ".join(full), "wall_s": rnd(wall), "cpu_s": rnd(cpu),
                        "rows_per_s": round(rows / wall), "rows_per_cpu_s": round(rows / cpu) if cpu else None,
                        "peak_rss_mb": rnd(rss_kb / 1024, 1) if rss_kb else None,
                        "csv_mb": rnd(os.path.getsize(os.path.join(folder, "records.csv")) / 1e6, 1)})
    return results
