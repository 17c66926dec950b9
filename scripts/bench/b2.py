"""B2, the distance from the radio floor: datasheet-timed tags against the minimal sequence's airtime."""
import os
import statistics

from .common import WORK, ledger_rows, log, make_job, pct, provision_run, rnd
from .emulator import listed_sequence, minimal_sequence


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
        "software_us_per_exchange_median":
            rnd(1000 * statistics.median(software_ms) / mins, 1) if software_ms else None,
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
