#!/usr/bin/env python3
"""provision benchmarks (issue 9): B1 software ceiling, B2 radio floor, B3 peers, B4 manifests, B5 readers.

Usage: python3 scripts/bench.py [--quick] [--only B1,B2,...] [--skip-build]

Builds the release binary, generates job folders under .build/bench/, runs them and writes
reports/bench.md and reports/bench.json. Every figure in the reports comes from this one run.
These are benchmarks, not tests: nothing here is part of `make test`.
"""
import argparse
import datetime
import json
import os
import platform
import random
import resource
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, ".build", "bench")
BIN = os.path.join(ROOT, ".build", "release", "provision")
LEDGER_BENCH = os.path.join(ROOT, ".build", "release", "ledger-bench")
ENV = dict(os.environ, LIBNFC_LOG_LEVEL="0")

FULL = {"B1": 10_000, "B2": 200, "B3": 50, "B4": (100_000, 1_000_000), "B5": 400}
QUICK = {"B1": 500, "B2": 40, "B3": 3, "B4": (10_000, 100_000), "B5": 80}

# The ~60-byte URL message (one URI record; sku 9 chars, serial 10, uid 14 hex digits).
TEMPLATE = {"records": [{"type": "uri", "uri": "https://example.com/p/{{sku}}/{{serial}}?u={{uid}}"}]}
NTAG215_TLV_ADDRESS = 16          # NDEF TLV at byte 16 (page 4) on a factory NTAG215
NTAG215_PAGES = 135
SIM_PROG_US = 4100.0              # SimulationOptions default prog=4.1 ms per page


# ---------------------------------------------------------------- helpers

def log(text):
    print(f"[bench {time.strftime('%H:%M:%S')}] {text}", flush=True)


# KiB the last `run` made the disk write (getrusage ru_oublock of the children, 512-byte blocks).
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


def make_job(folder, name, rows, lock=True, readers=None):
    """Writes template, CSV records and manifest into folder; returns the manifest path."""
    fresh(folder)
    with open(os.path.join(folder, "template.json"), "w") as f:
        json.dump(TEMPLATE, f)
    with open(os.path.join(folder, "records.csv"), "w") as f:
        f.write("sku,name,lot\n")
        f.writelines(f"SKU-{10000 + i:05d},Part {i},L2612-A\n" for i in range(1, rows + 1))
    manifest = {
        "job": name, "template": "template.json", "records": "records.csv", "tag": "ntag215",
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


def pct(values, p):
    ordered = sorted(values)
    if not ordered:
        return None
    k = (len(ordered) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def rnd(x, n=3):
    return None if x is None else round(x, n)


def provision_run(manifest, readers, timeout=1200, idle=20):
    cmd = [BIN, "run", manifest, "--quiet", "--json", "--idle", str(idle)]
    for r in readers:
        cmd += ["--reader", r]
    done, wall, cpu = run(cmd, timeout=timeout)
    if done.returncode not in (0, 1) or not done.stdout.strip():
        raise RuntimeError(f"provision run exit {done.returncode}: {done.stderr[-2000:]}")
    return json.loads(done.stdout), wall, cpu, cmd


# ---------------------------------------------------------------- airtime model (RFTiming.swift)

BIT = 128.0 / 13.56
FDT = (9.0 * 128 + 84) / 13.56
GAP = 1172.0 / 13.56


def exchange(command, answer):
    return (9 * (command + 2) + 3) * BIT + FDT + (9 * (answer + 2) + 2) * BIT + GAP


def write_ack(prog=SIM_PROG_US):
    return (9 * (6 + 2) + 3) * BIT + FDT + prog + 6 * BIT + GAP


ACTIVATION = (9 * BIT + FDT + (9 * 2 + 2) * BIT + GAP) + 2 * (
    (9 * 2 + 3) * BIT + FDT + (9 * 5 + 2) * BIT + GAP + (9 * 9 + 3) * BIT + FDT + (9 * 3 + 2) * BIT + GAP)
REACTIVATION = (9 * 4 + 3) * BIT + GAP + ACTIVATION       # HLTA (no answer) + WUPA/anticollision/SELECT


def minimal_sequence(message_length, lock=True):
    """The minimal command sequence type2-ntag.md §11 allows for this job on a factory NTAG215 with a
    short-form TLV: (exchanges, airtime µs, parts, TLV pages).

    Identify: GET_VERSION (§11: before choosing a page layout). Pre-write checks (§11: dynamic lock
    bytes, AUTH0, CFGLCK): one READ of the lock page 82h returns 82h–85h, i.e. lock page, CFG0 and
    CFG1. UID/BCC/INT cross-check, static locks, CC and the TLV head: one FAST_READ 00–04 (READ 00
    and READ 04 merged). Tear-safe write (§5.6): the TLV pages plus the final rewrite of the length
    page. Verify after re-activation (§11): HLTA + WUPA + 2 cascade levels, one FAST_READ of the
    written pages. Lock (§5.7): CC, static and dynamic lock WRITEs; then re-activation and read-back
    of pages 2, 3 (READ 02) and of the lock page (READ 82h): the lock page is 128 pages away from
    page 2, so no single READ (4-page roll-over window) or FAST_READ chunk (≤ 60 pages) holds both."""
    last = NTAG215_TLV_ADDRESS + 2 + message_length          # Terminator address
    pages = last // 4 - NTAG215_TLV_ADDRESS // 4 + 1          # TLV pages incl. Terminator
    writes = pages + 1                                        # + final rewrite of the length page (tear-safe)
    parts = [("GET_VERSION", 1, exchange(1, 8)), ("READ 82h (lock page, CFG0, CFG1)", 1, exchange(2, 16)),
             ("FAST_READ 00–04", 1, exchange(3, 20)),
             ("WRITE TLV", writes, writes * write_ack()),
             ("re-activation (HLTA + WUPA + 2 cascade levels)", 1, REACTIVATION),
             (f"FAST_READ 04–{3 + pages:02X}h", 1, exchange(3, 4 * pages))]
    if lock:
        parts += [("WRITE CC/static/dynamic lock", 3, 3 * write_ack()), ("re-activation", 1, REACTIVATION),
                  ("READ 02 + READ 82h", 2, 2 * exchange(2, 16))]
    return sum(p[1] for p in parts), sum(p[2] for p in parts), parts, pages


def listed_sequence(message_length):
    """The commands the issue text lists (identify, detect, TLV writes, one FAST_READ, lock WRITEs),
    without what §11 adds (configuration check, the two re-activations, the lock read-back)."""
    last = NTAG215_TLV_ADDRESS + 2 + message_length
    pages = last // 4 - NTAG215_TLV_ADDRESS // 4 + 1
    air = exchange(1, 8) + exchange(3, 20) + (pages + 1) * write_ack() + exchange(3, 4 * pages) + 3 * write_ack()
    return 1 + 1 + (pages + 1) + 1 + 3, air


# ---------------------------------------------------------------- B1

class CommitCeiling:
    """The bare durable-commit ceiling: single-row transactions with the ledger's pragmas, same disk.

    The file is prepared once: its WAL is grown (like the ledger's, which registering the job's rows has
    grown) and checkpointed, and the page cache's write-back of that set-up is waited out with an fsync,
    so timed commits overwrite a WAL of steady size and do not queue behind the set-up's writes. Each
    burst starts with a few untimed commits.

    With binding=True the table is the least an SQLite ledger that keeps UIDs unique must make durable
    before a tag's first WRITE: a row number bound to a UID, the UID unique (one table page and one random
    index page a commit). B1 reports it as the bound no such ledger design can pass on this disk.
    """

    BARE = ("CREATE TABLE t (id INTEGER PRIMARY KEY, uid TEXT NOT NULL, payload TEXT NOT NULL)",
            "INSERT INTO t (uid, payload) VALUES (?, ?)")
    BINDING = ("CREATE TABLE t (id INTEGER PRIMARY KEY, uid TEXT NOT NULL UNIQUE)",
               "INSERT INTO t (uid) VALUES (?)")

    def __init__(self, path, binding=False):
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(path + suffix):
                os.remove(path + suffix)
        self.binding = binding
        create, self.insert = self.BINDING if binding else self.BARE
        self.con = sqlite3.connect(path, isolation_level=None)
        assert self.con.execute("PRAGMA journal_mode = WAL").fetchone()[0].lower() == "wal"
        self.con.execute("PRAGMA synchronous = FULL")
        self.con.execute("PRAGMA foreign_keys = ON")
        self.con.execute(create)
        self.con.execute("BEGIN IMMEDIATE")
        self.con.executemany(self.insert, (self.values(f"P{i:013X}", "p" * 200) for i in range(25_000)))
        self.con.execute("COMMIT")
        self.con.execute("DELETE FROM t")
        self.con.execute("PRAGMA wal_checkpoint(PASSIVE)")
        for suffix in ("", "-wal"):
            fd = os.open(path + suffix, os.O_RDONLY)
            os.fsync(fd)
            os.close(fd)
        self.serial = 0
        self.random = random.Random(9)

    def values(self, uid, payload):
        return (uid,) if self.binding else (uid, payload)

    def commit(self):
        self.serial += 1
        # A binding's UID is a tag's: random, so its index entry lands on a random page as a line's does.
        uid = f"04{self.random.getrandbits(48):012X}" if self.binding else f"{self.serial:014X}"
        self.con.execute("BEGIN IMMEDIATE")
        self.con.execute(self.insert, self.values(uid, "x" * 60))
        self.con.execute("COMMIT")

    def burst(self, count, warm_up=20):
        """count timed commits after warm_up untimed ones; returns (commits/s, seconds, KiB written a commit)."""
        for _ in range(warm_up):
            self.commit()
        blocks = resource.getrusage(resource.RUSAGE_SELF).ru_oublock
        start = time.perf_counter()
        for _ in range(count):
            self.commit()
        wall = time.perf_counter() - start
        written = (resource.getrusage(resource.RUSAGE_SELF).ru_oublock - blocks) * 512 / 1024
        return count / wall, wall, written / count

    def close(self):
        self.con.close()


def ledger_alone(folder, tags):
    """The line's ledger calls for `tags` done tags with no tag (`ledger-bench`): returns its figures."""
    done, wall, cpu = run([LEDGER_BENCH, folder, str(tags)])
    if done.returncode != 0:
        raise RuntimeError(f"ledger-bench exit {done.returncode}: {done.stderr[-2000:]}")
    figures = json.loads(done.stdout)
    figures["cpu"] = cpu
    return figures


def iso_seconds(text):
    """Seconds of a ledger timestamp (ISO 8601 UTC with milliseconds)."""
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()


def bench_b1(n):
    """Line rounds interleaved with commit-ceiling bursts: C L A M C L A M … C, each ratio against its neighbours.

    The disk of a shared VM swings several-fold within seconds (1,068 vs 8,734 commits/s before and after
    one 13 s line run), so a ceiling measured once before and once after compares different disks. Here each
    round of n/rounds tags is compared with the bursts just before and after it; the line's rate is taken
    over its ledger window (first attempt start to last attempt end), which excludes process start-up,
    pre-flight and reports (reported separately as whole-process figures).

    Each round also runs, between the same bursts, the two bounds of the ratio: A, the line's own ledger
    calls with no tag (`ledger-bench`, as many tags as the round); M, a burst of minimal exactly-once
    bindings (a UID bound to a row number, the UID unique: the least an SQLite ledger that keeps UIDs unique
    must sync before a tag's first WRITE). A line can be no faster than A, and no such ledger faster than M.
    """
    rounds = 5 if n >= 5000 else 2
    per_round = n // rounds
    burst = n // (rounds + 1)
    os.makedirs(WORK, exist_ok=True)
    ceiling = CommitCeiling(os.path.join(WORK, "b1-ceiling.sqlite"))
    binding = CommitCeiling(os.path.join(WORK, "b1-binding.sqlite"), binding=True)
    bursts, lines, alone, bindings = [], [], [], []
    log(f"B1: {rounds} rounds of {per_round} tags between {rounds + 1} bursts of {burst} single-row transactions")
    bursts.append(ceiling.burst(burst))
    cmd = None
    for r in range(rounds):
        folder = os.path.join(WORK, f"b1-{r}")
        manifest = make_job(folder, "b1", per_round, lock=True)
        spec = f"sim:ntag215?timing=instant&count={per_round}"
        summary, wall, cpu, cmd = provision_run(manifest, [spec])
        written = LAST_RUN_WRITTEN_KIB
        done = ledger_rows(folder, "SELECT count(*) FROM records WHERE state='done'")[0][0]
        first, last = ledger_rows(folder, "SELECT min(started_at), max(finished_at) FROM attempts WHERE outcome='done'")[0]
        ledger_us = [r[0] for r in ledger_rows(folder, "SELECT ledger_us FROM attempts WHERE outcome='done' AND ledger_us IS NOT NULL")]
        length = ledger_rows(folder, "SELECT avg(message_length) FROM records")[0][0]
        window = iso_seconds(last) - iso_seconds(first)
        lines.append({"done": done, "wall": wall, "cpu": cpu, "window": window, "ledger_us": ledger_us, "length": length,
                      "written_kib": written})
        alone.append(ledger_alone(os.path.join(WORK, f"b1-alone-{r}"), per_round))
        bindings.append(binding.burst(burst))
        bursts.append(ceiling.burst(burst))
        log(f"B1: round {r + 1}: {done} tags, {rnd(done / window, 1)} tags/s; ledger alone "
            f"{rnd(alone[-1]['tags'] / alone[-1]['seconds'], 1)} tags/s; bindings {rnd(bindings[-1][0], 1)}/s; "
            f"ceiling {rnd(bursts[-2][0], 1)} / {rnd(bursts[-1][0], 1)} commits/s")
    ceiling.close()
    binding.close()
    ratios = []
    for r, line in enumerate(lines):
        around = (bursts[r][1] + bursts[r + 1][1])
        commits_per_s = 2 * burst / around
        alone_per_s = alone[r]["tags"] / alone[r]["seconds"]
        line_per_s = line["done"] / line["window"]
        ratios.append({"tags_per_s": rnd(line_per_s, 1), "commits_per_s": rnd(commits_per_s, 1),
                       "ratio": rnd(line_per_s / commits_per_s),
                       "ledger_alone_tags_per_s": rnd(alone_per_s, 1),
                       "ledger_alone_ratio": rnd(alone_per_s / commits_per_s),
                       "bindings_per_s": rnd(bindings[r][0], 1),
                       "binding_ratio": rnd(bindings[r][0] / commits_per_s),
                       # µs a tag may take beyond a minimal binding and still reach 0.8 of this round's ceiling
                       "budget_us": rnd(1e6 * (1 / (0.8 * commits_per_s) - 1 / bindings[r][0]), 1),
                       # the line's µs a tag spent outside its own ledger calls
                       "outside_ledger_us": rnd(1e6 * (1 / line_per_s - 1 / alone_per_s), 1)})
    tags = sum(l["done"] for l in lines)
    window = sum(l["window"] for l in lines)
    wall = sum(l["wall"] for l in lines)
    cpu = sum(l["cpu"] for l in lines)
    commit_time = sum(b[1] for b in bursts)
    commits_per_s = burst * len(bursts) / commit_time
    ledger_us = [u for l in lines for u in l["ledger_us"]]
    ledger_ms = statistics.mean(ledger_us) / 1000 if ledger_us else None
    per_tag_ms = 1000 * window / tags
    median = lambda key: rnd(statistics.median(r[key] for r in ratios))
    return {
        "tags": tags, "rounds": rounds, "tags_per_round": per_round, "burst_commits": burst,
        "message_bytes_avg": rnd(statistics.mean(l["length"] for l in lines), 1), "command": " ".join(cmd),
        "rounds_detail": ratios,
        "ratio_median_of_rounds": median("ratio"),
        "ratio_min_of_rounds": rnd(min(r["ratio"] for r in ratios)),
        "tags_per_s": rnd(tags / window, 1), "commits_per_s": rnd(commits_per_s, 1),
        "ratio_pooled": rnd(tags / window / commits_per_s),
        "tags_per_s_whole_process": rnd(tags / wall, 1),
        "ratio_whole_process": rnd(tags / wall / commits_per_s),
        "durable_transactions_per_tag": 1,
        "cpu_ms_per_tag": rnd(1000 * cpu / tags), "wall_ms_per_tag": rnd(per_tag_ms),
        "wall_ms_per_tag_whole_process": rnd(1000 * wall / tags),
        "ledger_ms_per_tag_mean": rnd(ledger_ms),
        "share_outside_ledger": rnd(1 - ledger_ms / per_tag_ms) if ledger_ms else None,
        "written_kib_per_tag_whole_process": rnd(sum(l["written_kib"] for l in lines) / tags, 1),
        "written_kib_per_bare_commit": rnd(statistics.mean(b[2] for b in bursts), 1),
        "ledger_alone_ratio_median": median("ledger_alone_ratio"),
        "ledger_alone_claim_us_mean": rnd(statistics.mean(a["claim_us_mean"] for a in alone), 1),
        "ledger_alone_done_us_mean": rnd(statistics.mean(a["done_us_mean"] for a in alone), 1),
        "ledger_alone_cpu_ms_per_tag": rnd(1000 * sum(a["cpu"] for a in alone) / sum(a["tags"] for a in alone)),
        "binding_ratio_median": median("binding_ratio"),
        "written_kib_per_binding": rnd(statistics.mean(b[2] for b in bindings), 1),
        "budget_us_median": median("budget_us"),
        "outside_ledger_us_median": median("outside_ledger_us"),
        "bare_commit_us_median": rnd(statistics.median(1e6 / r["commits_per_s"] for r in ratios), 1),
    }


# ---------------------------------------------------------------- B2

def bench_b2(n):
    folder = os.path.join(WORK, "b2")
    manifest = make_job(folder, "b2", n, lock=True)
    spec = f"sim:ntag215?timing=datasheet&count={n}"
    log(f"B2: {n} tags on {spec}")
    summary, wall, cpu, cmd = provision_run(manifest, [spec])
    rows = ledger_rows(folder, """
        SELECT a.identify_us, a.write_us, a.verify_us, a.lock_us, a.exchanges, a.airtime_us, r.message_length
        FROM attempts a JOIN records r ON r.job = a.job AND r.row = a.row WHERE a.outcome = 'done'""")
    measured_ratio, airtime_ratio, exchanges, minimum, software_ms, listed_ratio = [], [], [], [], [], []
    for ident, wr, ver, lk, exch, air, length in rows:
        measured = (ident or 0) + (wr or 0) + (ver or 0) + (lk or 0)
        mins, floor, _, _ = minimal_sequence(length, lock=True)
        measured_ratio.append(measured / floor)
        listed_ratio.append(measured / listed_sequence(length)[1])
        if air:
            airtime_ratio.append(air / floor)
            software_ms.append((measured - air) / 1000)
        exchanges.append(exch)
        minimum.append(mins)
    typical = int(round(statistics.mean(r[6] for r in rows)))
    mins, floor, parts, pages = minimal_sequence(typical, lock=True)
    listed_count, listed_air = listed_sequence(typical)
    return {
        "tags": len(rows), "command": " ".join(cmd), "wall_s": rnd(wall),
        "measured_over_floor_median": rnd(statistics.median(measured_ratio), 4),
        "measured_over_floor_p95": rnd(pct(measured_ratio, 0.95), 4),
        "line_airtime_over_floor_median": rnd(statistics.median(airtime_ratio), 4) if airtime_ratio else None,
        "software_ms_per_tag_median": rnd(statistics.median(software_ms)) if software_ms else None,
        "software_ms_per_tag_p95": rnd(pct(software_ms, 0.95)) if software_ms else None,
        "software_us_per_exchange_median": rnd(1000 * statistics.median(software_ms) / mins, 1) if software_ms else None,
        "floor_ms_typical": rnd(floor / 1000), "tlv_pages_typical": pages,
        "floor_sequence": [{"command": p[0], "count": p[1], "airtime_ms": rnd(p[2] / 1000)} for p in parts],
        "listed_sequence_exchanges": listed_count, "listed_sequence_ms": rnd(listed_air / 1000),
        "measured_over_listed_median": rnd(statistics.median(listed_ratio), 4),
        "message_bytes_typical": typical,
        "exchanges_per_tag_mean": rnd(statistics.mean(exchanges), 2),
        "exchanges_per_tag_max": max(exchanges), "minimum_exchanges": rnd(statistics.mean(minimum), 2),
        "summary_exchanges_per_tag": summary.get("exchanges_per_tag"),
        "summary_measured_ms_per_tag": summary.get("measured_ms_per_tag"),
        "summary_airtime_ms_per_tag": summary.get("airtime_ms_per_tag"),
    }


# ---------------------------------------------------------------- B3

class Emulator:
    """`provision emulate pn532` on a pty with a control socket."""

    def __init__(self, folder, count, line=True, extra=()):
        self.folder = fresh(folder)
        self.path_file = os.path.join(folder, "pty")
        self.socket = os.path.join(folder, "control.sock")
        spec = f"sim:ntag215?count={count}&store={os.path.join(folder, 'tags')}"
        self.cmd = [BIN, "emulate", "pn532", "--tags", spec] + (["--line"] if line else []) + [
            "--timing", "datasheet", "--baud", "115200", "--path-file", self.path_file, "--control", self.socket] + list(extra)
        self.process = subprocess.Popen(self.cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
        for _ in range(200):
            if os.path.exists(self.path_file) and os.path.exists(self.socket):
                with open(self.path_file) as f:
                    self.pty = f.read().strip()
                if self.pty:
                    return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("emulator did not start")

    def control(self, line):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(5)
        s.connect(self.socket)
        s.sendall((line + "\n").encode())
        data = b""
        while not data.endswith(b"\n"):
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
        s.close()
        return data.decode().strip()

    def stats(self):
        reply = self.control("stats")
        return dict(w.split("=", 1) for w in reply.split()[1:] if "=" in w)

    def frames(self):
        return int(self.stats()["frames"])

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()


def tag_image(emulator, message):
    """The first tag's factory image with the message's TLV and Terminator at byte 16."""
    path = os.path.join(emulator.folder, "factory.bin")
    reply = emulator.control(f"dump {path}")
    if not reply.startswith("ok"):
        raise RuntimeError(f"dump: {reply}")
    with open(path, "rb") as f:
        image = bytearray(f.read())
    tlv = bytes([0x03, len(message)]) + message + b"\xfe"
    image[NTAG215_TLV_ADDRESS:NTAG215_TLV_ADDRESS + len(tlv)] = tlv
    return bytes(image)


def uri_message(uri):
    """A short-record NDEF URI message (well-known 'U', prefix 04 = https://)."""
    assert uri.startswith("https://")
    payload = b"\x04" + uri[len("https://"):].encode()
    return bytes([0xD1, 0x01, len(payload)]) + b"U" + payload


NFCPY_WRITER = r"""
import sys, time, socket, json
import nfc, ndef
device, count, control = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if len(sys.argv) > 4 and sys.argv[4] == "115200":
    # Keep the PN532 at its reset speed: nfcpy raises it only when `stty -F PORT 921600` succeeds
    # (it skips the switch itself on a Raspberry Pi's ttyS0); make that probe fail.
    import os, types, nfc.clf.pn532 as pn532
    pn532.os = types.SimpleNamespace(**{k: getattr(os, k) for k in dir(os) if not k.startswith("__")})
    pn532.os.system = lambda command: 1
def insert():
    s = socket.socket(socket.AF_UNIX); s.connect(control); s.sendall(b"insert\n"); s.recv(4096); s.close()
clf = nfc.ContactlessFrontend(device)
baud = clf.device.chipset.transport.baudrate
locked = 0
for i in range(count):
    if i > 0:
        insert()
    tag = clf.connect(rdwr={"on-connect": lambda tag: False})
    uri = "https://example.com/p/SKU-%05d/B26-%06d?u=%s" % (10001 + i, i + 1, tag.identifier.hex().upper())
    tag.ndef.records = [ndef.UriRecord(uri)]
    if tag.protect():
        locked += 1
clf.close()
print(json.dumps({"locked": locked, "baud": baud}))
"""


def ensure_nfcpy():
    probe = subprocess.run([sys.executable, "-c", "import nfc, ndef"], capture_output=True)
    if probe.returncode == 0:
        return None
    log("B3: installing nfcpy from PyPI (pip --user)")
    for extra in ([], ["--break-system-packages"]):
        done = subprocess.run([sys.executable, "-m", "pip", "install", "--user", "-q", "nfcpy"] + extra,
                              capture_output=True, text=True)
        if done.returncode == 0:
            return None
    return f"pip install nfcpy failed: {done.stderr.strip()[-300:]}"


def link_time(before, after, tags, s_per_tag):
    """Per tag: the emulator's modelled radio and UART time, and the rest of the measured time."""
    radio = (int(after.get("airtime_us", 0)) - int(before.get("airtime_us", 0))) / 1000 / max(tags, 1)
    uart = (int(after.get("uart_us", 0)) - int(before.get("uart_us", 0))) / 1000 / max(tags, 1)
    return {"radio_ms_per_tag": rnd(radio, 2), "uart_ms_per_tag": rnd(uart, 2),
            "rest_ms_per_tag": rnd(1000 * s_per_tag - radio - uart, 2)}


def bench_ours(n, key, option=""):
    """provision run writing n tags through the emulator; option is a reader spec query (`?baud=…`)."""
    emu = Emulator(os.path.join(WORK, key), n + 10)   # spare tags: a failed attempt consumes one
    try:
        folder = os.path.join(WORK, key + "-job")
        manifest = make_job(folder, "b3", n, lock=True)
        reader = f"nfc:pn532_uart:{emu.pty}{option}"
        log(f"B3: provision run, {n} tags on {reader}")
        s0 = emu.stats()
        f0 = int(s0["frames"])
        summary, wall, _, cmd = provision_run(manifest, [reader])
        stats = emu.stats()
        frames = int(stats["frames"]) - f0
        done = ledger_rows(folder, "SELECT count(*) FROM records WHERE state='done'")[0][0]
        length = ledger_rows(folder, "SELECT avg(message_length) FROM records")[0][0]
        failed = ledger_rows(folder, "SELECT failure_class || ': ' || failure_detail, count(*) FROM attempts WHERE outcome != 'done' GROUP BY 1")
        return {"command": " ".join(cmd), "tags_done": done, "s_per_tag": rnd(wall / max(done, 1), 4),
                "failed_attempts": {k: c for k, c in failed}, "uart_baud": int(stats.get("baud", 0)) or None,
                "frames_per_tag": rnd(frames / n, 2), "tag_exchanges_per_tag": summary.get("exchanges_per_tag"),
                "message_bytes_avg": rnd(length, 1), "locks": True,
                **link_time(s0, stats, max(done, 1), wall / max(done, 1))}
    finally:
        emu.stop()


def bench_b3(n):
    out = {"tags": n}
    out["ours"] = bench_ours(n, "b3-ours")
    # baud=921600: SetSerialBaudRate before libnfc opens the port, as nfcpy raises the UART itself.
    out["ours_921600"] = bench_ours(n, "b3-ours-921600", "?baud=921600")
    # nfc-mfultralight
    # Not in line mode: nfc-mfultralight lists the targets first (select + InDeselect until none
    # answers), which in line mode would walk through the whole population. The next tag is put in
    # the field through the control socket between two runs instead.
    emu = Emulator(os.path.join(WORK, "b3-mfu"), n, line=False)
    try:
        message = uri_message("https://example.com/p/SKU-10001/B26-000001?u=04000000000000")
        image_path = os.path.join(emu.folder, "image.mfd")
        with open(image_path, "wb") as f:
            f.write(tag_image(emu, message))
        env = dict(ENV, LIBNFC_DEVICE=f"pn532_uart:{emu.pty}")
        cmd = ["nfc-mfultralight", "w", image_path]
        answers = "n\nn\nn\nn\nn\n"   # OTP, lock, dynamic lock, UID: no (it would lock page 2 before the data)
        log(f"B3: nfc-mfultralight w, {n} tags, one process per tag")
        s0 = emu.stats()
        f0 = int(s0["frames"])
        ok = 0
        last_error = ""
        start = time.perf_counter()
        for i in range(n):
            if i > 0:
                emu.control("insert")
            done = subprocess.run(cmd, input=answers, capture_output=True, text=True, env=env, timeout=120)
            if done.returncode == 0:
                ok += 1
            else:
                last_error = (done.stdout + done.stderr)[-400:]
        wall = time.perf_counter() - start
        s1 = emu.stats()
        frames = int(s1["frames"]) - f0
        out["nfc_mfultralight"] = {
            **link_time(s0, s1, max(ok, 1), wall / max(ok, 1)),
            "command": f"LIBNFC_DEVICE=pn532_uart:<pty> {' '.join(cmd)} (stdin: n to OTP/lock/dynlock/UID prompts)",
            "tags_done": ok, "s_per_tag": rnd(wall / max(ok, 1), 4), "frames_per_tag": rnd(frames / n, 2),
            "message_bytes": len(message), "locks": False, "last_error": last_error or None}
    finally:
        emu.stop()
    # nfcpy
    problem = ensure_nfcpy()
    if problem:
        out["nfcpy"] = {"error": problem}
        return out
    # --lenient-power: nfcpy's pn532.init sends GetFirmwareVersion, not SAMConfiguration, first.
    for key, speed in (("nfcpy", None), ("nfcpy_115200", "115200")):
        out[key] = bench_nfcpy(n, speed)
    return out


def bench_nfcpy(n, speed):
    """nfcpy writing the B3 message to n tags; speed '115200' keeps the UART at the reset speed."""
    # --lenient-power: nfcpy's pn532.init sends GetFirmwareVersion, not SAMConfiguration, first.
    emu = Emulator(os.path.join(WORK, "b3-nfcpy" + (speed or "")), n + 1, extra=["--lenient-power"])
    link = "/dev/ttyUSB97"
    try:
        try:
            if os.path.lexists(link):
                os.remove(link)
            os.symlink(emu.pty, link)
        except OSError as error:
            return {"error": f"cannot create {link} -> {emu.pty}: {error} (nfcpy opens only /dev/tty* names)"}
        script = os.path.join(emu.folder, "nfcpy_writer.py")
        with open(script, "w") as f:
            f.write(NFCPY_WRITER)
        cmd = [sys.executable, script, "tty:USB97:pn532", str(n), emu.socket] + ([speed] if speed else [])
        log(f"B3: nfcpy{' at ' + speed if speed else ''}, {n} tags on tty:USB97:pn532 -> {emu.pty}")
        s0 = emu.stats()
        f0 = int(s0["frames"])
        done, wall, _ = run(cmd, timeout=600)
        stats = emu.stats()
        frames = int(stats["frames"]) - f0
        if done.returncode != 0:
            return {"error": f"exit {done.returncode}: {(done.stdout + done.stderr).strip().splitlines()[-1]}; "
                             f"emulator stats after the attempt: frames={stats.get('frames')} refused={stats.get('refused')} "
                             f"replies={stats.get('replies')}"}
        info = json.loads(done.stdout.strip().splitlines()[-1])
        return {"command": " ".join(cmd[:1] + ["nfcpy_writer.py"] + cmd[2:4] + cmd[5:]),
                "tags_done": n, "s_per_tag": rnd(wall / n, 4), "frames_per_tag": rnd(frames / n, 2),
                "locks": info["locked"] == n, "locked": info["locked"], "uart_baud": info.get("baud"),
                **link_time(s0, stats, n, wall / n)}
    finally:
        if os.path.islink(link):
            os.remove(link)
        emu.stop()


# ---------------------------------------------------------------- B4

def bench_b4(sizes):
    results = []
    timer = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None
    for rows in sizes:
        folder = os.path.join(WORK, f"b4-{rows}")
        log(f"B4: generating {rows} rows")
        manifest = make_job(folder, f"b4x{rows}", rows, lock=True)
        cmd = [BIN, "validate", manifest, "--json"]
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
                        "rows_per_s": round(rows / wall), "rows_per_cpu_s": round(rows / cpu) if cpu else None, "peak_rss_mb": rnd(rss_kb / 1024, 1) if rss_kb else None,
                        "csv_mb": rnd(os.path.getsize(os.path.join(folder, "records.csv")) / 1e6, 1)})
    return results


# ---------------------------------------------------------------- B5

def bench_b5(rows):
    results = []
    for count in (1, 2, 4, 8):
        folder = os.path.join(WORK, f"b5-{count}")
        manifest = make_job(folder, f"b5x{count}", rows, lock=True)
        readers = [f"sim:ntag215?timing=datasheet&uid=04{r + 1:02X}0000000000" for r in range(count)]
        log(f"B5: {rows} rows, {count} reader(s)")
        summary, wall, _, cmd = provision_run(manifest, readers)
        done = ledger_rows(folder, "SELECT count(*) FROM records WHERE state='done'")[0][0]
        twice = ledger_rows(folder, "SELECT count(*) FROM (SELECT row FROM attempts WHERE outcome='done' GROUP BY row HAVING count(*) > 1)")[0][0]
        uids = ledger_rows(folder, "SELECT count(DISTINCT uid) FROM tags")[0][0]
        per_reader = ledger_rows(folder, "SELECT reader, count(*) FROM attempts WHERE outcome='done' GROUP BY reader")
        results.append({"readers": count, "rows_done": done, "wall_s": rnd(wall), "tags_per_s": rnd(done / wall, 2),
                        "rows_done_twice": twice, "distinct_uids": uids,
                        "done_per_reader": sorted(c for _, c in per_reader),
                        "summary_tags_per_hour": summary.get("tags_per_hour"),
                        "command": " ".join(cmd[:2]) + " job.json --quiet --json " + " ".join(f"--reader '{r}'" for r in readers)})
    return results


# ---------------------------------------------------------------- report

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


def write_reports(data, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    data = relative_paths(data)
    m = data["machine"]
    L = ["# provision benchmarks", "",
         f"Run {data['date']} · `{data['command']}` · {'QUICK (reduced sizes)' if data['quick'] else 'full sizes'} "
         f"· total {data['total_s']} s", "",
         f"Machine: {m['cores']} cores, {m['cpu_model']}, Linux {m['kernel']}, SQLite {m['sqlite']}; "
         f"load average at start {m['load_average_at_start']}, at end {data.get('load_average_at_end')} "
         "(the machine is shared: wall-clock figures include waiting for the CPU and the disk).",
         "Every figure below comes from the run named for its section at the end (raw figures in `bench.json`). "
         "Benchmarks, not tests.", ""]
    b = data.get("B1")
    if b:
        goal = b["ratio_median_of_rounds"]
        L += ["## B1 — software ceiling", "",
              f"{b['tags']} tags in {b['rounds']} rounds of {b['tags_per_round']} (`sim:ntag215?timing=instant`, "
              f"{b['message_bytes_avg']}-byte URL message, verify and lock on, real ledger: WAL, synchronous=FULL, "
              f"one synced commit a tag), each round between two bursts of {b['burst_commits']} single-row "
              "transactions with the same pragmas in the same folder (C L A M C L A M … C). A round's ratio is its "
              "tags/s over its ledger window (first attempt start to last attempt end) ÷ the commits/s of the "
              "bursts either side of it. Between the same bursts each round also measures the ratio's two bounds: "
              "A, the line's own ledger calls for as many tags with no tag at all (`ledger-bench`: synced claim, "
              "deferred done commit, late timings, final sync); M, a burst of minimal exactly-once bindings (one "
              "synced single-row insert binding a UID to a row number, the UID unique: the least an SQLite ledger "
              "that keeps UIDs unique must make durable before a tag's first WRITE). No line on this ledger is "
              "faster than A, and no such ledger design faster than M.", "",
              "| Round | tags/s | commits/s (bursts either side) | ratio | A: ledger alone, tags/s (ratio) "
              "| M: bindings/s (ratio) | µs a tag may spend beyond a binding for 0.8 | line's µs a tag outside its ledger calls |",
              "|---|---|---|---|---|---|---|---|"]
        L += [f"| {i + 1} | {r['tags_per_s']} | {r['commits_per_s']} | {r['ratio']} | "
              f"{r.get('ledger_alone_tags_per_s')} ({r.get('ledger_alone_ratio')}) | {r.get('bindings_per_s')} "
              f"({r.get('binding_ratio')}) | {r.get('budget_us')} | {r.get('outside_ledger_us')} |"
              for i, r in enumerate(b["rounds_detail"])]
        L += ["", "| Figure | Goal | Measured | Result |", "|---|---|---|---|",
              f"| ratio tags/s ÷ commits/s, median of the rounds | ≥ 0.8 | {goal} | {verdict(goal >= 0.8)} |",
              f"| lowest round | | {b['ratio_min_of_rounds']} | |",
              f"| pooled: {b['tags_per_s']} tags/s ÷ {b['commits_per_s']} commits/s | | {b['ratio_pooled']} | |",
              f"| whole process (start-up, pre-flight and reports included): {b['tags_per_s_whole_process']} tags/s ÷ commits/s | | {b['ratio_whole_process']} | |",
              f"| synced commits a tag (claim synced; done committed, synced by the next claim) | | {b['durable_transactions_per_tag']} | |",
              f"| CPU time per tag (getrusage of the children, whole process) | | {b['cpu_ms_per_tag']} ms | |",
              f"| wall time per tag (ledger window / whole process) | | {b['wall_ms_per_tag']} / {b['wall_ms_per_tag_whole_process']} ms | |",
              f"| ledger time per tag (claim + done commit), mean | | {b['ledger_ms_per_tag_mean']} ms | |",
              f"| share of the tag's wall time outside the ledger | | {b['share_outside_ledger']} | |"]
        if "written_kib_per_tag_whole_process" in b:
            L += [f"| disk writes a tag, whole process (getrusage ru_oublock: WAL, checkpoints, registration, reports) | | "
                  f"{b['written_kib_per_tag_whole_process']} KiB | |",
                  f"| disk writes a bare commit (same measure) | | {b['written_kib_per_bare_commit']} KiB | |"]
        if "ledger_alone_ratio_median" in b:
            L += [f"| bound A: the line's ledger calls alone, no tag (tags/s ÷ commits/s, median) | | {b['ledger_alone_ratio_median']} | |",
                  f"| A's synced claim / deferred done commit, mean | | {b['ledger_alone_claim_us_mean']} / {b['ledger_alone_done_us_mean']} µs | |",
                  f"| bound M: minimal exactly-once bindings ÷ commits/s, median (disk writes a binding: {b['written_kib_per_binding']} KiB) | | {b['binding_ratio_median']} | |",
                  f"| a bare commit, median of the rounds | | {b['bare_commit_us_median']} µs | |",
                  f"| time a tag may take beyond one bare commit and reach 0.8 (a quarter of a commit: a ledger that cost one bare commit a tag) | | {rnd(b['bare_commit_us_median'] / 4, 1)} µs | |",
                  f"| time a tag may take beyond a minimal binding and reach 0.8 (median of the rounds) | | {b['budget_us_median']} µs | |",
                  f"| the line's time a tag outside its ledger calls (line − A, median) | | {b['outside_ledger_us_median']} µs | |"]
        L += [""]
        L += data.get("B1_notes", [])
    b = data.get("B2")
    if b:
        L += ["## B2 — distance from the radio floor", "",
              f"{b['tags']} tags, `sim:ntag215?timing=datasheet`. Measured = identify + write + verify + lock "
              f"phase times of the attempt (µs from the ledger). Floor = airtime of the minimal sequence that "
              f"satisfies `type2-ntag.md` §11 (RFTiming formulas, t_prog 4.1 ms): " + ", ".join(f"{p['count']}× {p['command']}" for p in b["floor_sequence"])
              + f" = {b['floor_ms_typical']} ms for {b['tlv_pages_typical']} TLV pages.", "",
              "| Figure | Goal | Measured | Result |", "|---|---|---|---|",
              f"| measured ÷ floor, median | ≤ 1.02 | {b['measured_over_floor_median']} | {verdict(b['measured_over_floor_median'] <= 1.02)} |",
              f"| measured ÷ floor, p95 | | {b['measured_over_floor_p95']} | |",
              f"| line's modelled airtime ÷ floor, median | | {b['line_airtime_over_floor_median']} | |",
              f"| software time per tag (measured − modelled airtime), median / p95 | | {b['software_ms_per_tag_median']} / {b.get('software_ms_per_tag_p95')} ms | |",
              f"| software time per exchange, median | | {b.get('software_us_per_exchange_median')} µs | |",
              f"| exchanges per tag (mean / max) | = minimum | {b['exchanges_per_tag_mean']} / {b['exchanges_per_tag_max']} | "
              f"{verdict(b['exchanges_per_tag_max'] <= b['minimum_exchanges'])} |",
              f"| minimum exchanges (sequence above) | | {b['minimum_exchanges']} | |",
              f"| for reference: the issue's list without the §11 additions ({b['listed_sequence_exchanges']} exchanges, "
              f"{b['listed_sequence_ms']} ms), measured ÷ its airtime, median | | {b['measured_over_listed_median']} | |", ""]
        L += data.get("B2_notes", [])
    b = data.get("B3")
    if b:
        L += ["## B3 — against nfc-mfultralight and nfcpy (PN532 emulator, datasheet timing, 115200 baud)", "",
              f"{b['tags']} tags each; each tool on a fresh emulator (`{ 'provision emulate pn532 --tags sim:ntag215?count=N&store=DIR --line --timing datasheet --baud 115200' }`). "
              "Frames = PN532 command frames from the host (emulator `stats`).", "",
              "| Tool | Tags done | Locks | s/tag | frames/tag | ours ÷ theirs (s/tag) | Goal | Result |",
              "|---|---|---|---|---|---|---|---|"]
        ours = b.get("ours", {})
        fast = b.get("ours_921600")
        L.append(f"| provision run (UART 115200) | {ours.get('tags_done')} | yes | {ours.get('s_per_tag')} | {ours.get('frames_per_tag')} | | | |")
        if fast:
            L.append(f"| provision run, `?baud=921600` (UART raised to {fast.get('uart_baud')}) | {fast.get('tags_done')} | yes | "
                     f"{fast.get('s_per_tag')} | {fast.get('frames_per_tag')} | | | |")
        for key, label in (("nfc_mfultralight", "nfc-mfultralight w (UART 115200; ours at 115200)"),
                           ("nfcpy", f"nfcpy 1.0.4 (UART raised to {b.get('nfcpy', {}).get('uart_baud')} baud by nfcpy; "
                                     + ("ours with `baud=921600`)" if fast else "ours at 115200)")),
                           ("nfcpy_115200", "nfcpy 1.0.4, UART kept at 115200 (ours at 115200)")):
            if key not in b:
                continue
            peer = b.get(key, {})
            if "error" in peer:
                L.append(f"| {label} | — | — | — | — | — | ≤ 0.5 | not measured |")
                continue
            mine = fast if key == "nfcpy" and fast else ours
            ratio = mine["s_per_tag"] / peer["s_per_tag"] if peer.get("s_per_tag") else None
            peer["ratio_ours_over_theirs"] = rnd(ratio)
            # The setup is the 115200-baud UART model; nfcpy's own switch to 921600 leaves it,
            # so that row is shown for reference, with the bound the radio time alone sets.
            reference = key == "nfcpy" and peer.get("uart_baud") not in (None, 115200)
            goal, result = ("— (not the 115200 setup)", "reference") if reference else \
                ("≤ 0.5", verdict(ratio is not None and ratio <= 0.5))
            L.append(f"| {label} | {peer.get('tags_done')} | {'yes' if peer.get('locks') else 'no'} | {peer.get('s_per_tag')} | "
                     f"{peer.get('frames_per_tag')} | {rnd(ratio)} | {goal} | {result} |")
        rows = [(ours, "provision run (115200)"), (fast or {}, "provision run (921600)"),
                (b.get("nfc_mfultralight", {}), "nfc-mfultralight w (115200)"),
                (b.get("nfcpy", {}), f"nfcpy ({b.get('nfcpy', {}).get('uart_baud')})"),
                (b.get("nfcpy_115200", {}), "nfcpy (115200)")]
        if any("radio_ms_per_tag" in r for r, _ in rows):
            L += ["", "Where a tag's time goes (per tag; radio and UART are the emulator's modelled time, the rest is "
                  "host and reader overhead: the tool, libnfc or nfcpy, the pty, process start-up):", "",
                  "| Tool | s/tag | radio ms | UART ms | rest ms |", "|---|---|---|---|---|"]
            L += [f"| {label} | {r.get('s_per_tag')} | {r.get('radio_ms_per_tag')} | {r.get('uart_ms_per_tag')} | {r.get('rest_ms_per_tag')} |"
                  for r, label in rows if "radio_ms_per_tag" in r]
        if fast and b.get("nfcpy", {}).get("s_per_tag"):
            b["nfcpy"]["ratio_ours_115200_over_theirs"] = rnd(ours["s_per_tag"] / b["nfcpy"]["s_per_tag"])
            L += ["", f"For reference, ours at 115200 ÷ nfcpy at {b['nfcpy'].get('uart_baud')}: {b['nfcpy']['ratio_ours_115200_over_theirs']}."]
            if fast.get("radio_ms_per_tag"):
                bound = fast["radio_ms_per_tag"] / 1000 / b["nfcpy"]["s_per_tag"]
                b["nfcpy"]["radio_bound_ratio"] = rnd(bound)
                L += [f"At {b['nfcpy'].get('uart_baud')} baud our modelled radio time alone ({fast['radio_ms_per_tag']} ms a tag) ÷ "
                      f"nfcpy's s/tag is {rnd(bound)}: with the UART that fast, no software reaches 0.5 against it "
                      "(nfcpy saves UART time, not radio time). The goal is judged in the issue's 115200-baud setup."]
        L.append("")
        for run, name in ((ours, "`provision run`"), (fast or {}, "`provision run` with `baud=921600`")):
            if run.get("failed_attempts"):
                L.append(f"- Failed attempts of {name} (the row went back to pending and was written to the next tag; "
                         "s/tag = wall ÷ tags done): " + ", ".join(f"{c}× `{k}`" for k, c in run["failed_attempts"].items()) + ".")
        for key in ("nfc_mfultralight", "nfcpy", "nfcpy_115200"):
            if b.get(key, {}).get("error"):
                L.append(f"- {key}: could not be measured: `{b[key]['error']}`")
        L += data.get("B3_notes", []) + [""]
    b = data.get("B4")
    if b:
        small, large = b[0], b[-1]
        flat = (large["peak_rss_mb"] / small["peak_rss_mb"] - 1) if small.get("peak_rss_mb") and large.get("peak_rss_mb") else None
        L += ["## B4 — manifests at scale (`provision validate`)", "",
              "| Rows | CSV MB | wall s | rows/s (wall) | rows per CPU-second | peak RSS MB | Goal | Result |", "|---|---|---|---|---|---|---|---|"]
        for r in b:
            ok = r["rows_per_s"] >= 200_000 and (r["peak_rss_mb"] or 1e9) <= 100
            L.append(f"| {r['rows']:,} | {r['csv_mb']} | {r['wall_s']} | {r['rows_per_s']:,} | {r['rows_per_cpu_s']:,} | {r['peak_rss_mb']} | "
                     f"≥ 200,000 rows/s, ≤ 100 MB | {verdict(ok)} |")
        L += [f"| RSS growth {small['rows']:,} → {large['rows']:,} rows | | | | | {rnd(100 * flat, 1) if flat is not None else '—'} % | ≤ 10 % | "
              f"{verdict(flat is not None and flat <= 0.10)} |", ""]
        L += data.get("B4_notes", [])
    b = data.get("B5")
    if b:
        one = b[0]["tags_per_s"]
        L += ["## B5 — several readers on one job", "",
              f"One {b[0]['rows_done']}-row job and one ledger per reader count; `sim:ntag215?timing=datasheet` readers with distinct UIDs.", "",
              "| Readers | Rows done | wall s | tags/s | ×1 reader | rows done twice | distinct UIDs |", "|---|---|---|---|---|---|---|"]
        for r in b:
            L.append(f"| {r['readers']} | {r['rows_done']} | {r['wall_s']} | {r['tags_per_s']} | {rnd(r['tags_per_s'] / one, 2)} | "
                     f"{r['rows_done_twice']} | {r['distinct_uids']} |")
        ratio = b[-1]["tags_per_s"] / one
        twice = sum(r["rows_done_twice"] for r in b)
        hourly = [r.get("summary_tags_per_hour") for r in b]
        hourly_ratio = hourly[-1] / hourly[0] if all(hourly) else None
        L += ["", "| Figure | Goal | Measured | Result |", "|---|---|---|---|",
              f"| throughput 8 ÷ 1 (rows ÷ wall time of `provision run`, start-up and reports included) | ≥ 7.0 | {rnd(ratio, 2)} | {verdict(ratio >= 7.0)} |",
              f"| throughput 8 ÷ 1 from summary.json `tags_per_hour` (ledger timestamps; {rnd(hourly[0], 0)} vs {rnd(hourly[-1], 0)} tags/h) | ≥ 7.0 | "
              f"{rnd(hourly_ratio, 2)} | {verdict(hourly_ratio is not None and hourly_ratio >= 7.0)} |",
              f"| rows claimed (done) twice | 0 | {twice} | {verdict(twice == 0)} |", ""]
        L += data.get("B5_notes", [])
    if any(data.get(k + "_run", {}).get("date") != data["date"] for k in ("B1", "B2", "B3", "B4", "B5") if k in data):
        L += ["Sections from different runs (this one and earlier ones, `--only`):", ""] + [
            f"- {k}: {data[k + '_run']['date']} · `{data[k + '_run']['command']}`"
            for k in ("B1", "B2", "B3", "B4", "B5") if k + "_run" in data and k in data] + [""]
    errors = [(k[:-6], v) for k, v in data.items() if k.endswith("_error")]
    if errors:
        L += ["## Benchmarks that failed in this run", ""] + [f"- {k}: `{v}`" for k, v in errors] + [""]
    L += ["Seconds per benchmark: " + ", ".join(f"{k} {data[k + '_s']} s" for k in ("B1", "B2", "B3", "B4", "B5") if k + "_s" in data), ""]
    with open(os.path.join(out_dir, "bench.md"), "w") as f:
        f.write("\n".join(L) + "\n")
    with open(os.path.join(out_dir, "bench.json"), "w") as f:
        json.dump(data, f, indent=2)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", default="B1,B2,B3,B4,B5")
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
    if args.only != "B1,B2,B3,B4,B5":
        command = "python3 scripts/bench.py " + " ".join(sys.argv[1:])
    data = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "command": command, "quick": args.quick, "sizes": {k: v for k, v in sizes.items()}, "machine": machine()}
    notes_path = os.path.join(ROOT, "scripts", "bench_notes.json")
    notes = json.load(open(notes_path)) if os.path.exists(notes_path) else {}
    steps = {"B1": bench_b1, "B2": bench_b2, "B3": bench_b3, "B4": bench_b4, "B5": bench_b5}
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
