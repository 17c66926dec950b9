"""B7, several stations on one PostgreSQL job: named stations (separate `provision run` processes, one simulated
reader each, distinct UIDs) on one job in a throwaway PostgreSQL server, in interleaved rounds.

B7b: one PostgreSQL station ÷ one SQLite station at zero latency, same job, same run (goal ≥ 0.5), with the ledger's
share of a tag's time (the summary's ledger phase p50 ÷ the wall time a tag). B7c: 16 stations ÷ 1 station at
datasheet timing (goal ≥ 15: the radio dominates, the ledger must not serialise the stations). Each PostgreSQL run
also measures the server's CPU time a tag (user + system of the postmaster and its children, from /proc).
"""
import os
import statistics
import subprocess
import sys
import time

from . import common
from .common import ENV, WORK, iso_seconds, log, make_job, rnd

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pgserver import PGServer  # noqa: E402

COUNTS = (1, 16)


def run_stations(folder, ledger, stations, tags_per_station, timing):
    """`stations` processes on one job; returns (tags done, seconds from the first start to the last finish,
    ledger ms a tag p50 averaged over the stations, wall ms a tag)."""
    rows = stations * tags_per_station
    manifest = make_job(folder, "b7", rows, lock=True)
    processes = []
    for index in range(stations):
        spec = f"sim:ntag215?timing={timing}&count={tags_per_station}&uid=04{0xB0 + index:02X}0000000001"
        command = [common.BIN, "run", manifest, "--quiet", "--json", "--idle", "3", "--reader", spec]
        if ledger:
            command += ["--ledger", ledger]
        if stations > 1 or ledger:
            command += ["--station", f"station-{index + 1}"]
        processes.append(subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                          env=ENV))
    summaries = []
    for process in processes:
        out, err = process.communicate(timeout=1200)
        if process.returncode not in (0, 1) or not out.strip():
            raise RuntimeError(f"station exit {process.returncode}: {err[-1500:]}")
        summaries.append(__import__("json").loads(out))
    done = max(s["rows"]["done"] for s in summaries)
    if done != rows:
        raise RuntimeError(f"{done} of {rows} rows done")
    # summary.json's times are RFC 3339 with their zone (docs/json.md, version 2).
    window = max(iso_seconds(s["finished"]) for s in summaries) - min(iso_seconds(s["started"]) for s in summaries)
    ledger_ms = statistics.mean(s["phases"]["ledger"]["p50_ms"] for s in summaries)
    return done, window, ledger_ms, 1000 * window / done * stations


def server_cpu_seconds(server):
    """CPU seconds the server has used so far: the postmaster's user and system time, its reaped children's
    (a backend that exited), and its live children's (backends, WAL writer, checkpointer), from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    postmaster = int(open(os.path.join(server.data, "postmaster.pid")).readline())

    def fields(pid):
        text = open(f"/proc/{pid}/stat").read()
        return text[text.rindex(")") + 2:].split()  # from field 3 (state) on

    own = fields(postmaster)
    total = sum(int(x) for x in own[11:15])  # utime, stime, cutime, cstime
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == postmaster:
            continue
        try:
            child = fields(entry)
        except OSError:
            continue  # exited meanwhile: its time is in the postmaster's cutime/cstime once reaped
        if int(child[1]) == postmaster:
            total += int(child[11]) + int(child[12])
    return total / ticks


def measured_run(server, folder, uri, count, tags, timing):
    """One PostgreSQL run with the server's CPU time over it (after every backend of the run has exited)."""
    before = server_cpu_seconds(server)
    done, seconds, ledger_ms, wall_ms = run_stations(folder, uri, count, tags, timing)
    time.sleep(0.5)  # the stations' backends exit and are reaped
    cpu = server_cpu_seconds(server) - before
    return {"tags": done, "seconds": seconds, "tags_per_s": done / seconds, "ledger_ms_p50": ledger_ms,
            "wall_ms_per_tag": wall_ms, "server_cpu_us_per_tag": 1e6 * cpu / done}


def bench_b7(sizes):
    """sizes = (tags a station at datasheet timing, tags a station at zero latency, rounds).

    B7b: one PostgreSQL station ÷ one SQLite station at zero latency, same job, interleaved in the same run.
    B7c: 16 stations ÷ 1 station at datasheet timing. Both with the server's CPU time a tag."""
    datasheet_tags, instant_tags, rounds = sizes
    results = {"datasheet": {k: [] for k in COUNTS}, "instant": [], "sqlite_instant": []}
    with PGServer() as server:
        for r in range(rounds):
            order = COUNTS if r % 2 == 0 else tuple(reversed(COUNTS))
            for count in order:
                uri = server.create_database(f"b7_datasheet_{count}_{r}")
                subprocess.run([common.BIN, "ledger", "migrate", "--ledger", uri], check=True, env=ENV,
                               capture_output=True)
                result = measured_run(server, os.path.join(WORK, f"b7-datasheet-{count}"), uri, count,
                                      datasheet_tags, "datasheet")
                results["datasheet"][count].append(result)
                log(f"B7c: round {r + 1}, {count} station(s), datasheet: {result['tags']} tags, "
                    f"{rnd(result['tags_per_s'], 1)} tags/s, server {rnd(result['server_cpu_us_per_tag'], 0)} µs/tag")
            for store in (("postgresql", "sqlite") if r % 2 == 0 else ("sqlite", "postgresql")):
                if store == "sqlite":
                    done, seconds, ledger_ms, wall_ms = run_stations(os.path.join(WORK, "b7-sqlite"), None, 1,
                                                                     instant_tags, "instant")
                    result = {"tags": done, "seconds": seconds, "tags_per_s": done / seconds,
                              "ledger_ms_p50": ledger_ms, "wall_ms_per_tag": wall_ms}
                    results["sqlite_instant"].append(result)
                else:
                    uri = server.create_database(f"b7_instant_{r}")
                    subprocess.run([common.BIN, "ledger", "migrate", "--ledger", uri], check=True, env=ENV,
                                   capture_output=True)
                    result = measured_run(server, os.path.join(WORK, "b7-instant"), uri, 1, instant_tags, "instant")
                    results["instant"].append(result)
                log(f"B7b: round {r + 1}, {store}, zero latency: {result['tags']} tags, "
                    f"{rnd(result['tags_per_s'], 1)} tags/s")
    median = statistics.median
    summary = {"rounds": rounds, "datasheet_tags_per_station": datasheet_tags,
               "instant_tags_per_station": instant_tags}
    one = median(x["tags_per_s"] for x in results["datasheet"][1])
    summary["datasheet"] = {}
    for k in COUNTS:
        runs = results["datasheet"][k]
        rate = median(x["tags_per_s"] for x in runs)
        summary["datasheet"][str(k)] = {"tags_per_s_median": rnd(rate, 2), "over_one_station": rnd(rate / one, 3),
                                        "tags_per_s_rounds": [rnd(x["tags_per_s"], 2) for x in runs],
                                        "server_cpu_us_per_tag": rnd(median(x["server_cpu_us_per_tag"] for x in runs),
                                                                     0)}
    postgres = median(x["tags_per_s"] for x in results["instant"])
    sqlite = median(x["tags_per_s"] for x in results["sqlite_instant"])
    summary["instant"] = {"postgresql_tags_per_s_median": rnd(postgres, 2), "sqlite_tags_per_s_median": rnd(sqlite, 2),
                          "postgresql_tags_per_s_rounds": [rnd(x["tags_per_s"], 2) for x in results["instant"]],
                          "sqlite_tags_per_s_rounds": [rnd(x["tags_per_s"], 2) for x in results["sqlite_instant"]],
                          "postgresql_ledger_share": rnd(median(x["ledger_ms_p50"] / x["wall_ms_per_tag"]
                                                                for x in results["instant"]), 3),
                          "sqlite_ledger_share": rnd(median(x["ledger_ms_p50"] / x["wall_ms_per_tag"]
                                                            for x in results["sqlite_instant"]), 3),
                          "server_cpu_us_per_tag": rnd(median(x["server_cpu_us_per_tag"] for x in results["instant"]),
                                                       0)}
    summary["b7b_postgresql_over_sqlite"] = rnd(postgres / sqlite, 3)
    summary["b7c_sixteen_over_one_datasheet"] = summary["datasheet"]["16"]["over_one_station"]
    summary["machine_load_at_end"] = [round(x, 2) for x in os.getloadavg()]
    summary["when"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    return summary
