"""B1, the software ceiling: line rounds between bare-commit bursts, with the ledger-alone and binding bounds."""
import json
import os
import random
import resource
import sqlite3
import statistics
import time

from . import common
from .common import LEDGER_BENCH, WORK, iso_seconds, ledger_rows, log, make_job, provision_run, rnd, run


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
        written = common.LAST_RUN_WRITTEN_KIB
        done = ledger_rows(folder, "SELECT count(*) FROM records WHERE state='done'")[0][0]
        first, last = ledger_rows(
            folder, "SELECT min(started_at), max(finished_at) FROM attempts WHERE outcome='done'")[0]
        ledger_us = [r[0] for r in ledger_rows(
            folder, "SELECT ledger_us FROM attempts WHERE outcome='done' AND ledger_us IS NOT NULL")]
        length = ledger_rows(folder, "SELECT avg(message_length) FROM records")[0][0]
        window = iso_seconds(last) - iso_seconds(first)
        lines.append({"done": done, "wall": wall, "cpu": cpu, "window": window, "ledger_us": ledger_us,
                      "length": length, "written_kib": written})
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
                       "outside_ledger_us": rnd(1e6 * (1 / line_per_s - 1 / alone_per_s), 1),
                       # the same, as the worker measures it: a tag's share of the window less its awaited ledger calls
                       "outside_ledger_calls_us": rnd(1e6 / line_per_s - statistics.mean(line["ledger_us"]), 1)})
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
        "outside_ledger_calls_us_median": median("outside_ledger_calls_us"),
        "bare_commit_us_median": rnd(statistics.median(1e6 / r["commits_per_s"] for r in ratios), 1),
    }
