"""Shared runner of the benchmarks: paths, commands, job folders, ledger queries, figures and report helpers."""
import datetime
import json
import os
import platform
import resource
import shutil
import sqlite3
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORK = os.path.join(ROOT, ".build", "bench")
# The provision binary; read as `common.BIN` where used, so that setting it here (bench_ab.py) applies everywhere.
BIN = os.path.join(ROOT, ".build", "release", "provision")
LEDGER_BENCH = os.path.join(ROOT, ".build", "release", "ledger-bench")
ENV = dict(os.environ, LIBNFC_LOG_LEVEL="0")

# The ~60-byte URL message (one URI record; sku 9 chars, serial 10, uid 14 hex digits).
TEMPLATE = {"records": [{"type": "uri", "uri": "https://example.com/p/{{sku}}/{{serial}}?u={{uid}}"}]}


def log(text):
    print(f"[bench {time.strftime('%H:%M:%S')}] {text}", flush=True)


# KiB the last `run` made the disk write (getrusage ru_oublock of the children, 512-byte blocks).
# Read it as `common.LAST_RUN_WRITTEN_KIB`: `run` rebinds it.
LAST_RUN_WRITTEN_KIB = 0.0


def run(cmd, timeout=1200, stdin=None, env=None):
    """Runs cmd; returns (completed, wall seconds, child user+sys CPU seconds). Sets LAST_RUN_WRITTEN_KIB."""
    global LAST_RUN_WRITTEN_KIB
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, input=stdin, env=env or ENV)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    LAST_RUN_WRITTEN_KIB = (after.ru_oublock - before.ru_oublock) * 512 / 1024
    return done, wall, cpu


def fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def make_job(folder, name, rows, lock=True, readers=None, tag="ntag215", template=None):
    """Writes template (default TEMPLATE), CSV records and manifest into folder; returns the manifest path."""
    fresh(folder)
    with open(os.path.join(folder, "template.json"), "w") as f:
        json.dump(template or TEMPLATE, f)
    with open(os.path.join(folder, "records.csv"), "w") as f:
        f.write("sku,name,lot\n")
        f.writelines(f"SKU-{10000 + i:05d},Part {i},L2612-A\n" for i in range(1, rows + 1))
    manifest = {
        "job": name, "template": "template.json", "records": "records.csv", "tag": tag,
        "lock": "permanent" if lock else "none", "retries": 2, "onFailure": "reuse", "unique": ["sku"],
        "serial": {"start": 1, "step": 1, "width": 6, "prefix": "B26-"},
        "readers": readers or ["sim:ntag215?timing=instant"],
        "ledger": "ledger.sqlite", "reports": "reports",
    }
    path = os.path.join(folder, "job.json")
    with open(path, "w") as f:
        json.dump(manifest, f, indent=1)
    return path


def ledger_rows(folder, sql, args=()):
    con = sqlite3.connect(os.path.join(folder, "ledger.sqlite"))
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def iso_seconds(text):
    """Seconds of a timestamp in UTC with milliseconds: the ledger's and JSON version 2's (zone `Z` or `+00:00`), or
    JSON version 1's without a zone (so bench_ab.py can read an older binary's summary.json)."""
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    if not (text.endswith("+00:00") or text[-6] in "+-"):
        text += "+00:00"
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()


def pct(values, p):
    ordered = sorted(values)
    if not ordered:
        return None
    k = (len(ordered) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def rnd(x, n=3):
    return None if x is None else round(x, n)


def provision_run(manifest, readers, timeout=1200, idle=20, env=None):
    cmd = [BIN, "run", manifest, "--quiet", "--json", "--idle", str(idle)]
    for r in readers:
        cmd += ["--reader", r]
    done, wall, cpu = run(cmd, timeout=timeout, env=dict(ENV, **env) if env else None)
    if done.returncode not in (0, 1) or not done.stdout.strip():
        raise RuntimeError(f"provision run exit {done.returncode}: {done.stderr[-2000:]}")
    return json.loads(done.stdout), wall, cpu, cmd


def machine():
    model = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {"cores": os.cpu_count(), "cpu_model": model, "kernel": platform.release(),
            "python": platform.python_version(),
            "sqlite": sqlite3.sqlite_version, "disk_of_ledgers": WORK,
            "load_average_at_start": [round(x, 2) for x in os.getloadavg()]}


def verdict(ok):
    return "pass" if ok else "FAIL"


def relative_paths(value):
    """Commands and paths as seen from the checkout's root (no machine-specific prefix in the reports)."""
    if isinstance(value, str):
        return value.replace(ROOT + "/", "")
    if isinstance(value, list):
        return [relative_paths(v) for v in value]
    if isinstance(value, dict):
        return {k: relative_paths(v) for k, v in value.items()}
    return value
