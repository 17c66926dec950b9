"""B5, several readers on one job: throughput of 1, 2, 4 and 8 simulated readers, and no row done twice."""
import os

from .common import WORK, ledger_rows, log, make_job, provision_run, rnd


def bench_b5(rows):
    results = []
    for count in (1, 2, 4, 8):
        folder = os.path.join(WORK, f"b5-{count}")
        manifest = make_job(folder, f"b5x{count}", rows, lock=True)
        readers = [f"sim:ntag215?timing=datasheet&uid=04{r + 1:02X}0000000000" for r in range(count)]
        log(f"B5: {rows} rows, {count} reader(s)")
        summary, wall, _, cmd = provision_run(manifest, readers)
        done = ledger_rows(folder, "SELECT count(*) FROM records WHERE state='done'")[0][0]
        twice = ledger_rows(folder, "SELECT count(*) FROM (SELECT row FROM attempts WHERE outcome='done' "
                                    "GROUP BY row HAVING count(*) > 1)")[0][0]
        uids = ledger_rows(folder, "SELECT count(DISTINCT uid) FROM tags")[0][0]
        per_reader = ledger_rows(folder, "SELECT reader, count(*) FROM attempts WHERE outcome='done' GROUP BY reader")
        results.append({"readers": count, "rows_done": done, "wall_s": rnd(wall), "tags_per_s": rnd(done / wall, 2),
                        "rows_done_twice": twice, "distinct_uids": uids,
                        "done_per_reader": sorted(c for _, c in per_reader),
                        "summary_tags_per_hour": summary.get("tags_per_hour"),
                        "command": " ".join(cmd[:2]) + " job.json --quiet --json "
                                   + " ".join(f"--reader '{r}'" for r in readers)})
    return results
