"""B11, a master key in a PKCS #11 token: the B6b job (keyed NTAG 424 DNA personalisation) with its master in a
SoftHSM2 token ÷ the same job with the same master in a key file, in alternating rounds of one run; and what one
in-token AN10922 derivation costs (a tag needs five: K0–K4)."""
import os
import statistics

from .b6b import MASTER, keyed_job
from .common import WORK, iso_seconds, ledger_rows, log, provision_run, rnd
from .softhsm import Token, derivation_us

PHASES = "identify_us, write_us, verify_us, lock_us, ledger_us"


def one_run(folder, n, key, env):
    """One B6b job of `n` tags with master entry `key`: per-tag figures from its ledger, and the process's wall."""
    manifest, spec = keyed_job(folder, "b11", n, key)
    _, wall, cpu, cmd = provision_run(manifest, [spec], env=env)
    rows = ledger_rows(folder, f"SELECT started_at, finished_at, {PHASES} FROM attempts WHERE outcome = 'done'")
    failed = ledger_rows(folder, "SELECT count(*) FROM attempts WHERE outcome <> 'done'")[0][0]
    if len(rows) != n:
        raise RuntimeError(f"{len(rows)} of {n} tags done ({failed} failed attempts) in {folder}")
    starts, ends = [iso_seconds(r[0]) for r in rows], [iso_seconds(r[1]) for r in rows]
    attempt_us = [1e6 * (e - s) for s, e in zip(starts, ends)]
    # The attempt's time outside its timed phases and ledger calls: the software around the tag, where the line
    # derives the tag's K0–K4 (the plan is made between selection and the first APDU of the personalisation).
    outside_us = [a - sum(x or 0 for x in r[2:]) for a, r in zip(attempt_us, rows)]
    window = max(ends) - min(starts)
    return {"wall_s": wall, "cpu_s": cpu, "command": cmd, "failed_attempts": failed,
            "ms_per_tag": 1000 * window / n, "attempt_ms_median": statistics.median(attempt_us) / 1000,
            "outside_us_median": statistics.median(outside_us), "startup_s": wall - window,
            "fingerprints": sorted({r[0] for r in ledger_rows(folder, "SELECT DISTINCT key_fingerprint FROM tags")})}


def bench_b11(size):
    n, rounds = size
    folder = os.path.join(WORK, "b11")
    token = Token(os.path.join(folder, "hsm"), "b11", MASTER)
    arms = {"token": ({"pkcs11": token.uri}, token.env), "file": ({"file": token.key_file}, None)}
    log(f"B11: {rounds} rounds of {n} tags, master in SoftHSM2 and in a file, alternating")
    runs = {arm: [] for arm in arms}
    for r in range(rounds):
        order = list(arms) if r % 2 == 0 else list(reversed(arms))
        for arm in order:
            key, env = arms[arm]
            runs[arm].append(one_run(os.path.join(folder, arm), n, key, env))
    token_us, ctypes_us = derivation_us(token)
    pairs = list(zip(runs["token"], runs["file"]))
    ratio = [t["ms_per_tag"] / f["ms_per_tag"] for t, f in pairs]
    extra_us = [t["outside_us_median"] - f["outside_us_median"] for t, f in pairs]

    def median(arm, figure, digits=3):
        return rnd(statistics.median(x[figure] for x in runs[arm]), digits)

    five = statistics.median(extra_us)
    return {
        "tags_per_run": n, "rounds": rounds, "command": " ".join(runs["token"][0]["command"]),
        "token_over_file_median": rnd(statistics.median(ratio), 4),
        "token_over_file_rounds": [rnd(x, 4) for x in ratio], "token_over_file_max": rnd(max(ratio), 4),
        "attempt_ratio_median": rnd(statistics.median(
            t["attempt_ms_median"] / f["attempt_ms_median"] for t, f in pairs), 4),
        "wall_ratio_median": rnd(statistics.median(t["wall_s"] / f["wall_s"] for t, f in pairs), 4),
        "token_ms_per_tag": median("token", "ms_per_tag"), "file_ms_per_tag": median("file", "ms_per_tag"),
        "token_attempt_ms_median": median("token", "attempt_ms_median"),
        "file_attempt_ms_median": median("file", "attempt_ms_median"),
        "token_outside_us_median": median("token", "outside_us_median", 1),
        "file_outside_us_median": median("file", "outside_us_median", 1),
        "token_startup_ms": rnd(1000 * statistics.median(x["startup_s"] for x in runs["token"]), 1),
        "file_startup_ms": rnd(1000 * statistics.median(x["startup_s"] for x in runs["file"]), 1),
        "five_derivations_us_median": rnd(five, 1), "derivation_us_median": rnd(five / 5, 1),
        "five_derivations_us_rounds": [rnd(x, 1) for x in extra_us],
        "token_call_derivation_us": rnd(token_us, 2), "token_call_five_us": rnd(5 * token_us, 1),
        "ctypes_overhead_us": rnd(ctypes_us, 2),
        "failed_attempts": sum(x["failed_attempts"] for arm in runs.values() for x in arm),
        "same_fingerprint": all(x["fingerprints"] == runs["file"][0]["fingerprints"]
                                for arm in runs.values() for x in arm) and len(runs["file"][0]["fingerprints"]) == 1,
    }
