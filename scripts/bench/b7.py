"""B7, several stations on one PostgreSQL job: 1, 2 and 4 named stations (separate `provision run` processes, one
simulated reader each, distinct UIDs) on one job in a throwaway PostgreSQL server, in interleaved rounds.

Datasheet timing: the 4-station rate must be ≥ 3.8× the 1-station rate (the radio dominates; the ledger must not
serialise the stations). Zero latency: the same station counts against SQLite's single station, with the ledger's
share of a tag's time (the summary's ledger phase p50 ÷ the wall time a tag).
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

COUNTS = (1, 2, 4)


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


def bench_b7(sizes):
    """sizes = (tags a station at datasheet timing, tags a station at zero latency, rounds)."""
    datasheet_tags, instant_tags, rounds = sizes
    results = {"datasheet": {k: [] for k in COUNTS}, "instant": {k: [] for k in COUNTS}, "sqlite_instant": []}
    with PGServer() as server:
        for r in range(rounds):
            order = COUNTS if r % 2 == 0 else tuple(reversed(COUNTS))
            for count in order:
                for timing, tags in (("datasheet", datasheet_tags), ("instant", instant_tags)):
                    uri = server.create_database(f"b7_{timing}_{count}_{r}")
                    subprocess.run([common.BIN, "ledger", "migrate", "--ledger", uri], check=True, env=ENV,
                                   capture_output=True)
                    folder = os.path.join(WORK, f"b7-{timing}-{count}")
                    done, seconds, ledger_ms, wall_ms = run_stations(folder, uri, count, tags, timing)
                    results[timing][count].append({"tags": done, "seconds": seconds, "tags_per_s": done / seconds,
                                                   "ledger_ms_p50": ledger_ms, "wall_ms_per_tag": wall_ms})
                    log(f"B7: round {r + 1}, {count} station(s), {timing}: {done} tags, "
                        f"{rnd(done / seconds, 1)} tags/s")
            folder = os.path.join(WORK, "b7-sqlite")
            done, seconds, ledger_ms, wall_ms = run_stations(folder, None, 1, instant_tags, "instant")
            results["sqlite_instant"].append({"tags": done, "seconds": seconds, "tags_per_s": done / seconds,
                                              "ledger_ms_p50": ledger_ms, "wall_ms_per_tag": wall_ms})
    summary = {"rounds": rounds, "datasheet_tags_per_station": datasheet_tags,
               "instant_tags_per_station": instant_tags}
    for timing in ("datasheet", "instant"):
        rates = {k: statistics.median(x["tags_per_s"] for x in results[timing][k]) for k in COUNTS}
        summary[timing] = {str(k): {"tags_per_s_median": rnd(rates[k], 2),
                                    "over_one_station": rnd(rates[k] / rates[1], 3),
                                    "tags_per_s_rounds": [rnd(x["tags_per_s"], 2) for x in results[timing][k]],
                                    "ledger_share": rnd(statistics.median(
                                        x["ledger_ms_p50"] / x["wall_ms_per_tag"] for x in results[timing][k]), 3)}
                           for k in COUNTS}
    sqlite = statistics.median(x["tags_per_s"] for x in results["sqlite_instant"])
    summary["sqlite_instant_tags_per_s_median"] = rnd(sqlite, 2)
    summary["sqlite_instant_ledger_share"] = rnd(statistics.median(
        x["ledger_ms_p50"] / x["wall_ms_per_tag"] for x in results["sqlite_instant"]), 3)
    for k in COUNTS:
        summary["instant"][str(k)]["over_sqlite_one_station"] = rnd(
            summary["instant"][str(k)]["tags_per_s_median"] / sqlite, 3)
    summary["four_over_one_datasheet"] = summary["datasheet"]["4"]["over_one_station"]
    summary["machine_load_at_end"] = [round(x, 2) for x in os.getloadavg()]
    summary["when"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    return summary
