"""Writes the benchmark figures as reports/bench.md (tables, goals, verdicts) and reports/bench.json (raw)."""
import json
import os
import re

from .b10 import b10_section
from .b12 import b12_section
from .common import relative_paths, rnd, verdict


def floor_table(b, goal, ledger=None):
    """The figures table of a benchmark against a radio floor (B6a, B6b): `goal` bounds measured ÷ floor."""
    airtime = b["line_airtime_over_floor_median"]
    rows = ["", "| Figure | Goal | Measured | Result |", "|---|---|---|---|",
            f"| measured ÷ floor, median | ≤ {goal} | {b['measured_over_floor_median']} | "
            f"{verdict(b['measured_over_floor_median'] <= goal)} |",
            f"| measured ÷ floor, p95 | | {b['measured_over_floor_p95']} | |",
            f"| line's modelled airtime ÷ floor, median | = 1 | {airtime} | "
            f"{verdict(airtime is not None and abs(airtime - 1) < 0.001)} |",
            f"| software time per tag (measured − modelled airtime), median / p95 | | "
            f"{b['software_ms_per_tag_median']} / {b['software_ms_per_tag_p95']} ms | |"]
    if ledger:
        rows.append(f"| ledger time per tag ({ledger}), median / p95 | | "
                    f"{b.get('ledger_ms_per_tag_median')} / {b.get('ledger_ms_per_tag_p95')} ms | |")
    rows.append(f"| APDUs per tag (mean / max) | = {b['minimum_apdus']} | {b['apdus_per_tag_mean']} / "
                f"{b['apdus_per_tag_max']} | {verdict(b['apdus_per_tag_max'] <= b['minimum_apdus'])} |")
    return rows + [""]


def floor_section(data, key, title, intro, goal, ledger=None):
    """A benchmark against a radio floor: title, what was measured, the floor's parts, figures and notes."""
    b = data[key]
    lines = [title, "", intro, ""] + [f"- {p['count']}× {p['command']}: {p['airtime_ms']} ms" for p in b["floor_sequence"]]
    return lines + floor_table(b, goal, ledger) + data.get(key + "_notes", [])


def token_section(b, notes):
    """B11: the B6b job with its master in a PKCS #11 token ÷ with it in a key file, and a derivation's cost."""
    rows = ", ".join(str(x) for x in b["token_over_file_rounds"])
    fives = ", ".join(str(x) for x in b["five_derivations_us_rounds"])
    return ["## B11 — NTAG 424 DNA master in a PKCS #11 token (SoftHSM2) ÷ in a key file", "",
            f"{b['rounds']} rounds, each one B6b job of {b['tags_per_run']} tags (`sim:ntag424?timing=datasheet`, "
            "SUN template, lock, K0–K4) with the master in a SoftHSM2 token (`{\"pkcs11\": …}`: every AN10922 "
            "derivation runs in the token, put there by `provision keys import`) and one with the same master in an "
            "owner-only key file, the order alternating round by round so both meet the same load; every run "
            f"recorded the same `v1:` key fingerprint: {'yes' if b['same_fingerprint'] else 'NO'}. A job's time a "
            "tag is its ledger window (first attempt's start to last attempt's end) ÷ tags; process start-up "
            "(module load, login, custody check, fingerprint) is the rest of its wall time, reported apart.", "",
            "| Figure | Goal | Measured | Result |", "|---|---|---|---|",
            f"| job time a tag, token ÷ file, median of the rounds | ≤ 1.05 | {b['token_over_file_median']} | "
            f"{verdict(b['token_over_file_median'] <= 1.05)} |",
            f"| the same, each round | | {rows} | |",
            f"| job time a tag, token / file (median of the runs) | | {b['token_ms_per_tag']} / "
            f"{b['file_ms_per_tag']} ms | |",
            f"| a tag's attempt (selection to done), median, token ÷ file | | {b['attempt_ratio_median']} | |",
            f"| whole process (start-up included), token ÷ file | | {b['wall_ratio_median']} | |",
            f"| start-up before the first tag, token / file | | {b['token_startup_ms']} / {b['file_startup_ms']} ms "
            "| |",
            "| a tag's five derivations in the token, from the jobs (token − file software time outside the "
            f"phases and ledger calls, median of the rounds) | | {b['five_derivations_us_median']} µs | |",
            f"| the same, each round | | {fives} µs | |",
            f"| one in-token derivation, from the jobs (the above ÷ 5) | | {b['derivation_us_median']} µs | |",
            "| one / five in-token derivations, the token's own calls (SoftHSM2 floor, see below) | | "
            f"{b['token_call_derivation_us']} / {b['token_call_five_us']} µs | |",
            f"| failed attempts (all runs) | 0 | {b['failed_attempts']} | {verdict(b['failed_attempts'] == 0)} |",
            "",
            "How the derivation cost is measured. The line derives a tag's K0–K4 when it makes the tag's plan, "
            "between selection and the personalisation's first APDU: outside the phases B6b measures, inside the "
            "attempt. For each tag the ledger gives the attempt's window (millisecond timestamps) and its phase and "
            "ledger times (µs); window − phases − ledger is the software time around the tag. Its median per run, "
            "token run − file run of the same round, is what the token adds for a tag's five derivations (the file "
            "arm's in-process AES, a few µs, is in its baseline); the median of the rounds is reported, ÷ 5 for one. "
            f"The rounds range from {min(b['five_derivations_us_rounds'])} to "
            f"{max(b['five_derivations_us_rounds'])} µs (a shared machine, millisecond timestamps): a coarse "
            "figure, whose rounds a loaded machine can shift by a millisecond. The floor is SoftHSM2's own time "
            "for the calls the product makes per derivation, "
            "measured in the same token: for this job `01 ‖ M` is 12 bytes (UID, key number, a 3-byte system "
            "identifier), so the product prepares the 32 AN10922 bytes with its cached CMAC subkeys and makes one "
            "C_EncryptInit(CKM_AES_CBC, IV 0) + C_Encrypt; the benchmark makes the same two calls through ctypes, "
            "in batches of 2000, minus the ctypes cost of two trivial calls "
            f"({b['ctypes_overhead_us']} µs), median of 7 batches. `provision keys diversify` per derivation was "
            "not used: its time is process start-up and login.", ""] + notes


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
              "| M: bindings/s (ratio) | µs a tag may spend beyond a binding for 0.8 "
              "| line's µs a tag outside its ledger calls |",
              "|---|---|---|---|---|---|---|---|"]
        L += [f"| {i + 1} | {r['tags_per_s']} | {r['commits_per_s']} | {r['ratio']} | "
              f"{r.get('ledger_alone_tags_per_s')} ({r.get('ledger_alone_ratio')}) | {r.get('bindings_per_s')} "
              f"({r.get('binding_ratio')}) | {r.get('budget_us')} | {r.get('outside_ledger_us')} |"
              for i, r in enumerate(b["rounds_detail"])]
        L += ["", "| Figure | Goal | Measured | Result |", "|---|---|---|---|",
              f"| ratio tags/s ÷ commits/s, median of the rounds | ≥ 0.8 | {goal} | {verdict(goal >= 0.8)} |",
              f"| lowest round | | {b['ratio_min_of_rounds']} | |",
              f"| pooled: {b['tags_per_s']} tags/s ÷ {b['commits_per_s']} commits/s | | {b['ratio_pooled']} | |",
              f"| whole process (start-up, pre-flight and reports included): {b['tags_per_s_whole_process']} "
              f"tags/s ÷ commits/s | | {b['ratio_whole_process']} | |",
              f"| synced commits a tag (claim synced; done committed, synced by the next claim) | | "
              f"{b['durable_transactions_per_tag']} | |",
              f"| CPU time per tag (getrusage of the children, whole process) | | {b['cpu_ms_per_tag']} ms | |",
              f"| wall time per tag (ledger window / whole process) | | {b['wall_ms_per_tag']} / "
              f"{b['wall_ms_per_tag_whole_process']} ms | |",
              f"| ledger time per tag (claim + done commit), mean | | {b['ledger_ms_per_tag_mean']} ms | |",
              f"| share of the tag's wall time outside the ledger | | {b['share_outside_ledger']} | |"]
        if "written_kib_per_tag_whole_process" in b:
            L += ["| disk writes a tag, whole process (getrusage ru_oublock: WAL, checkpoints, registration, "
                  f"reports) | | {b['written_kib_per_tag_whole_process']} KiB | |",
                  f"| disk writes a bare commit (same measure) | | {b['written_kib_per_bare_commit']} KiB | |"]
        if "ledger_alone_ratio_median" in b:
            L += ["| bound A: the line's ledger calls alone, no tag (tags/s ÷ commits/s, median) | | "
                  f"{b['ledger_alone_ratio_median']} | |",
                  f"| A's synced claim / deferred done commit, mean | | {b['ledger_alone_claim_us_mean']} / "
                  f"{b['ledger_alone_done_us_mean']} µs | |",
                  "| bound M: minimal exactly-once bindings ÷ commits/s, median (disk writes a binding: "
                  f"{b['written_kib_per_binding']} KiB) | | {b['binding_ratio_median']} | |",
                  f"| a bare commit, median of the rounds | | {b['bare_commit_us_median']} µs | |",
                  "| time a tag may take beyond one bare commit and reach 0.8 (a quarter of a commit: a ledger that "
                  f"cost one bare commit a tag) | | {rnd(b['bare_commit_us_median'] / 4, 1)} µs | |",
                  "| time a tag may take beyond a minimal binding and reach 0.8 (median of the rounds) | | "
                  f"{b['budget_us_median']} µs | |",
                  "| the line's time a tag outside its ledger calls (line − A, median) | | "
                  f"{b['outside_ledger_us_median']} µs | |"]
        if "outside_ledger_calls_us_median" in b:
            L += ["| the same as the worker measures it (window a tag − its awaited ledger calls, median; issue 23's "
                  f"software cost, ≤ 100 µs) | ≤ 100 µs | {b['outside_ledger_calls_us_median']} µs | "
                  f"{verdict(b['outside_ledger_calls_us_median'] <= 100)} |"]
        L += [""]
        L += data.get("B1_notes", [])
    b = data.get("B2")
    if b:
        L += ["## B2 — distance from the radio floor", "",
              f"{b['tags']} tags, `sim:ntag215?timing=datasheet`. Measured = identify + write + verify + lock "
              f"phase times of the attempt (µs from the ledger). Floor = airtime of the minimal sequence that "
              f"satisfies `docs/reference/type2.md` §11 (RFTiming formulas, t_prog 4.1 ms): "
              + ", ".join(f"{p['count']}× {p['command']}" for p in b["floor_sequence"])
              + f" = {b['floor_ms_typical']} ms for {b['tlv_pages_typical']} TLV pages.", "",
              "| Figure | Goal | Measured | Result |", "|---|---|---|---|",
              f"| measured ÷ floor, median | ≤ 1.02 | {b['measured_over_floor_median']} | "
              f"{verdict(b['measured_over_floor_median'] <= 1.02)} |",
              f"| measured ÷ floor, p95 | | {b['measured_over_floor_p95']} | |",
              f"| line's modelled airtime ÷ floor, median | | {b['line_airtime_over_floor_median']} | |",
              f"| software time per tag (measured − modelled airtime), median / p95 | | "
              f"{b['software_ms_per_tag_median']} / {b.get('software_ms_per_tag_p95')} ms | |",
              f"| software time per exchange, median | | {b.get('software_us_per_exchange_median')} µs | |",
              f"| exchanges per tag (mean / max) | = minimum | {b['exchanges_per_tag_mean']} / "
              f"{b['exchanges_per_tag_max']} | {verdict(b['exchanges_per_tag_max'] <= b['minimum_exchanges'])} |",
              f"| minimum exchanges (sequence above) | | {b['minimum_exchanges']} | |",
              "| for reference: the issue's list without the §11 additions "
              f"({b['listed_sequence_exchanges']} exchanges, {b['listed_sequence_ms']} ms), "
              f"measured ÷ its airtime, median | | {b['measured_over_listed_median']} | |",
              ""]
        L += data.get("B2_notes", [])
    b = data.get("B3")
    if b:
        L += ["## B3 — against nfc-mfultralight and nfcpy (PN532 emulator, datasheet timing, 115200 baud)", "",
              f"{b['tags']} tags each; each tool on a fresh emulator "
              "(`provision emulate pn532 --tags sim:ntag215?count=N&store=DIR --line --timing datasheet "
              "--baud 115200`). "
              "Frames = PN532 command frames from the host (emulator `stats`).", "",
              "| Tool | Tags done | Locks | s/tag | frames/tag | ours ÷ theirs (s/tag) | Goal | Result |",
              "|---|---|---|---|---|---|---|---|"]
        ours = b.get("ours", {})
        fast = b.get("ours_921600")
        L.append(f"| provision run (UART 115200) | {ours.get('tags_done')} | yes | {ours.get('s_per_tag')} | "
                 f"{ours.get('frames_per_tag')} | | | |")
        if fast:
            L.append(f"| provision run, `?baud=921600` (UART raised to {fast.get('uart_baud')}) | "
                     f"{fast.get('tags_done')} | yes | {fast.get('s_per_tag')} | {fast.get('frames_per_tag')} | | | |")
        for key, label in (("nfc_mfultralight", "nfc-mfultralight w (UART 115200; ours at 115200)"),
                           ("nfcpy", f"nfcpy 1.0.4 (UART raised to {b.get('nfcpy', {}).get('uart_baud')} "
                                     "baud by nfcpy; " + ("ours with `baud=921600`)" if fast else "ours at 115200)")),
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
            L.append(f"| {label} | {peer.get('tags_done')} | {'yes' if peer.get('locks') else 'no'} | "
                     f"{peer.get('s_per_tag')} | {peer.get('frames_per_tag')} | {rnd(ratio)} | {goal} | {result} |")
        rows = [(ours, "provision run (115200)"), (fast or {}, "provision run (921600)"),
                (b.get("nfc_mfultralight", {}), "nfc-mfultralight w (115200)"),
                (b.get("nfcpy", {}), f"nfcpy ({b.get('nfcpy', {}).get('uart_baud')})"),
                (b.get("nfcpy_115200", {}), "nfcpy (115200)")]
        if any("radio_ms_per_tag" in r for r, _ in rows):
            L += ["", "Where a tag's time goes (per tag; radio and UART are the emulator's modelled time, the rest is "
                  "host and reader overhead: the tool, libnfc or nfcpy, the pty, process start-up):", "",
                  "| Tool | s/tag | radio ms | UART ms | rest ms |", "|---|---|---|---|---|"]
            L += [f"| {label} | {r.get('s_per_tag')} | {r.get('radio_ms_per_tag')} | {r.get('uart_ms_per_tag')} | "
                  f"{r.get('rest_ms_per_tag')} |"
                  for r, label in rows if "radio_ms_per_tag" in r]
        if fast and b.get("nfcpy", {}).get("s_per_tag"):
            b["nfcpy"]["ratio_ours_115200_over_theirs"] = rnd(ours["s_per_tag"] / b["nfcpy"]["s_per_tag"])
            L += ["", f"For reference, ours at 115200 ÷ nfcpy at {b['nfcpy'].get('uart_baud')}: "
                      f"{b['nfcpy']['ratio_ours_115200_over_theirs']}."]
            if fast.get("radio_ms_per_tag"):
                bound = fast["radio_ms_per_tag"] / 1000 / b["nfcpy"]["s_per_tag"]
                b["nfcpy"]["radio_bound_ratio"] = rnd(bound)
                L += [f"At {b['nfcpy'].get('uart_baud')} baud our modelled radio time alone "
                      f"({fast['radio_ms_per_tag']} ms a tag) ÷ "
                      f"nfcpy's s/tag is {rnd(bound)}: with the UART that fast, no software reaches 0.5 against it "
                      "(nfcpy saves UART time, not radio time). The goal is judged in the issue's 115200-baud setup."]
        L.append("")
        for run, name in ((ours, "`provision run`"), (fast or {}, "`provision run` with `baud=921600`")):
            if run.get("failed_attempts"):
                L.append(f"- Failed attempts of {name} (the row went back to pending and was written to the next tag; "
                         "s/tag = wall ÷ tags done): "
                         + ", ".join(f"{c}× `{k}`" for k, c in run["failed_attempts"].items()) + ".")
        for key in ("nfc_mfultralight", "nfcpy", "nfcpy_115200"):
            if b.get(key, {}).get("error"):
                L.append(f"- {key}: could not be measured: `{b[key]['error']}`")
        L += data.get("B3_notes", []) + [""]
    b = data.get("B4")
    if b:
        small, large = b[0], b[-1]
        flat = (large["peak_rss_mb"] / small["peak_rss_mb"] - 1) \
            if small.get("peak_rss_mb") and large.get("peak_rss_mb") else None
        L += ["## B4 — manifests at scale (`provision validate`)", "",
              "| Rows | CSV MB | wall s | rows/s (wall) | rows per CPU-second | peak RSS MB | Goal | Result |",
              "|---|---|---|---|---|---|---|---|"]
        for r in b:
            ok = r["rows_per_s"] >= 200_000 and (r["peak_rss_mb"] or 1e9) <= 100
            L.append(f"| {r['rows']:,} | {r['csv_mb']} | {r['wall_s']} | {r['rows_per_s']:,} | "
                     f"{r['rows_per_cpu_s']:,} | {r['peak_rss_mb']} | "
                     f"≥ 200,000 rows/s, ≤ 100 MB | {verdict(ok)} |")
        L += [f"| RSS growth {small['rows']:,} → {large['rows']:,} rows | | | | | "
              f"{rnd(100 * flat, 1) if flat is not None else '—'} % | ≤ 10 % | "
              f"{verdict(flat is not None and flat <= 0.10)} |", ""]
        L += data.get("B4_notes", [])
    b = data.get("B5")
    if b:
        one = b[0]["tags_per_s"]
        L += ["## B5 — several readers on one job", "",
              f"One {b[0]['rows_done']}-row job and one ledger per reader count; `sim:ntag215?timing=datasheet` "
              "readers with distinct UIDs.", "",
              "| Readers | Rows done | wall s | tags/s | ×1 reader | rows done twice | distinct UIDs |",
              "|---|---|---|---|---|---|---|"]
        for r in b:
            L.append(f"| {r['readers']} | {r['rows_done']} | {r['wall_s']} | {r['tags_per_s']} | "
                     f"{rnd(r['tags_per_s'] / one, 2)} | {r['rows_done_twice']} | {r['distinct_uids']} |")
        ratio = b[-1]["tags_per_s"] / one
        twice = sum(r["rows_done_twice"] for r in b)
        hourly = [r.get("summary_tags_per_hour") for r in b]
        hourly_ratio = hourly[-1] / hourly[0] if all(hourly) else None
        L += ["", "| Figure | Goal | Measured | Result |", "|---|---|---|---|",
              "| throughput 8 ÷ 1 (rows ÷ wall time of `provision run`, start-up and reports included) | ≥ 7.0 | "
              f"{rnd(ratio, 2)} | {verdict(ratio >= 7.0)} |",
              f"| throughput 8 ÷ 1 from summary.json `tags_per_hour` (ledger timestamps; {rnd(hourly[0], 0)} vs "
              f"{rnd(hourly[-1], 0)} tags/h) | ≥ 7.0 | "
              f"{rnd(hourly_ratio, 2)} | {verdict(hourly_ratio is not None and hourly_ratio >= 7.0)} |",
              f"| rows claimed (done) twice | 0 | {twice} | {verdict(twice == 0)} |", ""]
        L += data.get("B5_notes", [])
    b = data.get("B6a")
    if b:
        L += floor_section(
            data, "B6a", "## B6a — Type 4 distance from the radio floor (NTAG 424 DNA)",
            f"{b['tags']} tags, `sim:ntag424?timing=datasheet`, ≈{b['message_bytes_typical']}-byte URL message, write "
            "+ verify, no lock. Measured = identify + write + verify phase times of the attempt. Floor = airtime "
            "of the minimal APDU sequence with the emulator's own ISO-DEP parameters (ISODEPTiming: 106 kbit/s "
            "frames, FSC 128, FSD 256; processing 1 ms per command and 4 ms per write frame, ASSUMPTIONS: the "
            f"NT4H2421 data sheet publishes none) = {b['floor_ms_typical']} ms:", 1.03)
    b = data.get("B6b")
    if b:
        L += floor_section(
            data, "B6b", "## B6b — keyed NTAG 424 DNA personalisation against its radio floor",
            f"{b['tags']} tags, `sim:ntag424?timing=datasheet`, ≈{b['message_bytes_typical']}-byte SUN URL message "
            "({{sun.picc}}, {{sun.mac}}), lock `permanent`: K0 session, template, SDM file settings, CC byte, "
            "K1–K4 and K0 each journaled, then the unauthenticated read-back whose SUN must verify. Measured = "
            "identify + write + verify + lock phases; the key journal's synced commits are ledger time, reported "
            "apart. Floor = airtime of the minimal APDU sequence with the emulator's ISO-DEP parameters (the "
            f"B6a assumptions) = {b['floor_ms_typical']} ms:", 1.05,
            ledger="claim, 10 synced journal commits, done commit")
    b = data.get("B8")
    if b:
        L += floor_section(
            data, "B8", "## B8 — Type 5 distance from the radio floor (ICODE SLIX2)",
            f"{b['tags']} tags, `sim:icode-slix2?timing=datasheet`, ≈{b['message_bytes_typical']}-byte URL message, "
            "write + verify + lock `permanent`. Measured = identify + write + verify + lock phase times of the "
            "attempt. Floor = airtime of the minimal ISO 15693 request sequence with the emulator's own timing "
            "(Type5Timing: 26.48 kbit/s frames, t1, t2; tWrite 5 ms per write-alike, an ASSUMPTION: the reference "
            f"gives 4–6 ms, unverified) = {b['floor_ms_typical']} ms:", 1.03)
    b = data.get("B9")
    if b:
        L += floor_section(
            data, "B9", "## B9 — Type 3 distance from the radio floor (FeliCa Lite-S)",
            f"{b['tags']} tags, `sim:felica-lite-s?timing=datasheet`, ≈{b['message_bytes_typical']}-byte URL message, "
            "write + verify + lock `permanent`. Measured = identify + write + verify + lock phase times of the "
            "attempt. Floor = airtime of the minimal FeliCa command sequence with the emulator's own timing "
            "(FeliCaTiming: 212 kbit/s frames, Polling slot 0 at 2.417 ms; 0.45 ms a read and 3 ms a block written, "
            f"ASSUMPTIONS capped by the PMm bounds) = {b['floor_ms_typical']} ms:", 1.03)
        peers = b.get("peers", {})
        ours, theirs = peers.get("ours", {}), peers.get("nfcpy", {})
        if "s_per_tag" in ours and "s_per_tag" in theirs:
            ratio = peers["ours_over_nfcpy"]
            L += ["Against nfcpy 1.0.4 (its own PN532 driver and Type 3 code, `tag.ndef.records` then "
                  "`tag.protect()`), both writing a URI message to Lite-S tags through the same datasheet-timed PN532 "
                  "emulator at 115200 baud:", "",
                  "| Tool | Tags | s/tag | frames/tag | radio ms/tag | UART ms/tag | rest ms/tag |",
                  "|---|---|---|---|---|---|---|"]
            for name, r in (("provision run (libnfc)", ours), ("nfcpy", theirs)):
                L.append(f"| {name} | {r['tags_done']} | {r['s_per_tag']} | {r['frames_per_tag']} | "
                         f"{r['radio_ms_per_tag']} | {r['uart_ms_per_tag']} | {r['rest_ms_per_tag']} |")
            L += ["", "| Figure | Goal | Measured | Result |", "|---|---|---|---|",
                  f"| ours ÷ nfcpy (s/tag) | ≤ 0.5 | {ratio} | {verdict(ratio <= 0.5)} |", ""]
        elif peers:
            L += [f"Against nfcpy: not measured ({theirs.get('error') or ours.get('error')}).", ""]
    b = data.get("B7")
    if b and "b7b_postgresql_over_sqlite" in b:
        ds, inst = b["datasheet"], b["instant"]
        b7b, b7c = b["b7b_postgresql_over_sqlite"], b["b7c_sixteen_over_one_datasheet"]
        L += ["## B7 — several stations on one PostgreSQL job", "",
              f"Named stations (separate `provision run --ledger postgresql://… --station NAME` processes, one "
              f"`sim:ntag215` reader each, distinct UIDs, lock on) on one job in a throwaway PostgreSQL server "
              f"(fsync on, a Unix socket), {b['rounds']} interleaved rounds; rates are tags done ÷ (last station's "
              f"finish − first station's start), medians of the rounds. A claim and a done commit are one round trip "
              f"each (the station functions). Server CPU a tag: user + system time of the postmaster and its "
              f"children (/proc) over the run ÷ tags.", "",
              "| Run | tags/s (median) | rounds | server CPU µs a tag |", "|---|---|---|---|",
              f"| 1 PostgreSQL station, zero latency | {inst['postgresql_tags_per_s_median']} | "
              f"{inst['postgresql_tags_per_s_rounds']} | {inst['server_cpu_us_per_tag']:.0f} |",
              f"| 1 SQLite station, zero latency | {inst['sqlite_tags_per_s_median']} | "
              f"{inst['sqlite_tags_per_s_rounds']} | – |"]
        for k in ("1", "16"):
            L.append(f"| {k} station(s), datasheet timing | {ds[k]['tags_per_s_median']} | "
                     f"{ds[k]['tags_per_s_rounds']} | {ds[k]['server_cpu_us_per_tag']:.0f} |")
        L += ["", f"Ledger share of a tag's time at zero latency: PostgreSQL {inst['postgresql_ledger_share']}, "
              f"SQLite {inst['sqlite_ledger_share']}.", "",
              "| Figure | Goal | Measured | Result |", "|---|---|---|---|",
              f"| B7b: 1 PostgreSQL station ÷ 1 SQLite station, zero latency | ≥ 0.5 | {b7b} "
              f"| {verdict(b7b >= 0.5)} |",
              f"| B7c: 16 stations ÷ 1 station, datasheet timing | ≥ 15 | {b7c} | {verdict(b7c >= 15)} |", ""]
        L += data.get("B7_notes", [])
    if data.get("B10"):
        L += b10_section(data["B10"], data.get("B10_notes", []))
    if data.get("B11"):
        L += token_section(data["B11"], data.get("B11_notes", []))
    if data.get("B12"):
        L += b12_section(data["B12"], data.get("B12_notes", []))
    sections = sorted((k for k in data if k.startswith("B") and "_" not in k),
                      key=lambda k: (int(re.match(r"B(\d+)", k).group(1)), k))
    if any(data.get(k + "_run", {}).get("date") != data["date"] for k in sections):
        L += ["Sections from different runs (this one and earlier ones, `--only`):", ""] + [
            f"- {k}: {data[k + '_run']['date']} · `{data[k + '_run']['command']}`"
            for k in sections if k + "_run" in data] + [""]
    errors = [(k[:-6], v) for k, v in data.items() if k.endswith("_error")]
    if errors:
        L += ["## Benchmarks that failed in this run", ""] + [f"- {k}: `{v}`" for k, v in errors] + [""]
    L += ["Seconds per benchmark: "
          + ", ".join(f"{k} {data[k + '_s']} s" for k in sections if k + "_s" in data), ""]
    with open(os.path.join(out_dir, "bench.md"), "w") as f:
        f.write("\n".join(L) + "\n")
    with open(os.path.join(out_dir, "bench.json"), "w") as f:
        json.dump(data, f, indent=2)
