"""Renders reports/reliability.json as Markdown (scripts/reliability.py)."""


def provenance(report, name):
    run = report.get("sectionRuns", {}).get(name)
    if not run:
        return []
    return [f"_From the run {run.get('startedAt')} – {run.get('finishedAt')}: `{run.get('command')}`._", ""]


def render_readers(readers):
    lines = ["## 4b. Misbehaving readers and tags through the backends' emulators", "",
             "Each case: a tag (or the reader in front of it) misbehaves once at tag exchange k (each path "
             "names its positions), and a clean tag follows; a real "
             "`provision run` child (manifest retries 0: one try a presentation, onFailure reuse) drives it through stock libnfc "
             "(`nfc:pn532_uart:` on the `provision emulate pn532 --line` pty) or stock pcscd with the vpcd "
             "driver (`provision emulate vpcd`, ACR122U style). Tag-level kinds are the tags' `plan=`, reader "
             "kinds the emulator's `--misbehave` (docs/pn532.md, docs/pcsc.md). Outcome = the failure class(es) "
             "the ledger recorded for the misbehaving tag, or *absorbed* (done anyway: the fault hit an exchange "
             "whose answer the cycle does not depend on, or a retry inside the reader path recovered it). "
             "A violation is an untyped class, a next tag not done, a crash of either process, or a broken "
             "ledger/image invariant.", ""]
    titles = (("pn532", "PN532 on a pty, stock libnfc, Type 2 (NTAG213)"),
              ("vpcd", "vpcd card, stock pcscd, Type 2 (NTAG213)"),
              ("pn532-type4", "PN532 on a pty, stock libnfc, Type 4 (generic T4T, APDUs 1…11)"),
              ("vpcd-type4", "vpcd card, stock pcscd, Type 4 (generic T4T, APDUs 1…11)"))
    for path, title in titles:
        data = readers.get(path)
        if not data:
            continue
        positions = data.get("positions", readers["positions"])
        lines += [f"### {title}: **{data['cases']}** cases ({data['kinds']} kinds × {len(positions)} "
                  f"positions), violations **{data['violations']}**", ""]
        if data.get("run"):
            lines += [f"_From the run {data['run'].get('startedAt')} – {data['run'].get('finishedAt')}: "
                      f"`{data['run'].get('command')}`._", ""]
        lines += ["| kind | level | cases | outcomes | run exit | violations |", "|---|---|---|---|---|---|"]
        for run in data["runs"]:
            outcomes = ", ".join(f"{k}: {n}" for k, n in sorted(run["outcomes"].items()))
            lines.append(f"| `{run['kind']}` | {run['level']} | {run['cases']} | {outcomes} | {run['runExit']} "
                         f"| {len(run['violations'])} |")
        lines.append("")
        details = {}
        for run in data["runs"]:
            for klass, detail in run["details"].items():
                details.setdefault(klass, set()).add(detail)
        lines += ["Failure details seen (one per class and kind):"]
        for klass, texts in sorted(details.items()):
            lines.append(f"- {klass}: " + "; ".join(f"`{t}`" for t in sorted(texts)[:6]))
        lines += ["", "Reader vanishing mid-job, then resumed on a reader that is back (same tag store):", "",
                  "| how | first run exit | row states after | claims left | resumed run exit | violations |",
                  "|---|---|---|---|---|---|"]
        for case in data["vanish"]:
            states = ", ".join(f"{k}: {n}" for k, n in sorted(case["statesAfterVanish"].items()))
            lines.append(f"| {case['how']} | {case['firstExit']} | {states} | {case['claimsLeft']} | "
                         f"{case['resumedExit']} | {len(case['violations'])} |")
        messages = sorted({c["message"] for c in data["vanish"] if c["message"]})
        lines += [""] + [f"- `{m}`" for m in messages]
        problems = [v for r in data["runs"] + data["vanish"] for v in r["violations"]]
        lines += [f"- violation: {v}" for v in problems[:30]]
        lines.append("")
    return lines


def render_stations(report):
    """Section 1f: a line of stations on a PostgreSQL ledger under kills, server stops and a freeze."""
    data = report["stations"]
    freeze = data["frozenStation"]
    exits = ", ".join(f"{code}: {n}" for code, n in sorted(data["exitsByCode"].items()))
    attempts = ", ".join(f"{outcome} {n}" for outcome, n in sorted(data["attempts"].items()))
    claimed = ", ".join(map(str, freeze.get("rowsClaimedAfterWaking", []))) or "none"
    lines = ["## 1f. A line of stations on a PostgreSQL ledger (SIGKILL, server stops, a frozen station)", ""]
    lines += provenance(report, "stations") + [
        f"- {data['rows']}-row job, {data['stations']} stations started together on one throwaway server, each "
        f"`{data['command']}` (its own UIDs, one image store), lease {data['leaseSeconds']} s; the faults keyed "
        "to the done rows by the seed",
        f"- kills: **{data['kills']}**, {data['killsLeavingTheirClaim']} of them leaving the station's claimed row "
        "open (random station, random moment; restarted after 0.2–0.6 s, a restart "
        "refused while the killed process's lease runs is retried); immediate server stops: "
        f"**{data['serverStops']}** (down ~1 s; stations that exit are restarted); claims open at a fault: "
        f"{data['claimsLeftByFaults']}; {data['starts']} station starts in all; {data['seconds']} s",
        f"- frozen station: {freeze.get('station')} stopped (SIGSTOP) {freeze.get('frozenSeconds')} s with "
        f"{freeze.get('pendingRowsWhenFrozen')} rows pending, then woken: exit **{freeze.get('exit')}** (75 "
        f"expected), rows claimed after waking: {claimed}",
        f"- exits by code: {exits}; why (the last error line, by kind):"]
    lines += [f"  - `{message}`: {n}" for message, n in data["exitMessages"].items()]
    lines += [f"- attempts: {attempts} (skipped: a done tag presented again after a restart)",
              f"- tag images no row holds: {data['strayTagImages']['written']} with a message, "
              f"{data['strayTagImages']['locked']} locked",
              f"- invariant violations: **{len(data['violations'])}** (a row done twice, a UID bound to two rows, a "
              "row lost, a done row's tag image not holding its message or not locked, a claim finished by another "
              "UID, a locked tag no row holds)"]
    lines += [f"  - {v}" for v in data["violations"][:30]]
    return lines + [""]


def render(report):
    lines = ["# provision reliability report", "",
             f"Last run {report['startedAt']} – {report['finishedAt']}: `{report['command']}`"
             " (`make reliability` runs every section; the seed fixes the kill moments, not the machine's"
             " timing). Sections not in that run keep the figures of the run named under their heading.", ""]
    for key, title in (("crash", "## 1. Crash test (SIGKILL)"), ("crash4", "## 1b. Crash test on Type 4 tags (SIGKILL)"),
                       ("crash424", "## 1c. Crash test on keyed NTAG 424 DNA personalisation (SIGKILL)"),
                       ("crash5", "## 1d. Crash test on Type 5 tags (SIGKILL)"),
                       ("crash3", "## 1e. Crash test on Type 3 tags (SIGKILL)")):
        crash = report.get(key)
        if not crash:
            continue
        lines += [title, ""] + provenance(report, key) + [
                  f"- {crash['rows']}-row job, `{crash['command']}`",
                  f"- kills: **{crash['kills']}**; claims left behind by kills: {crash['claimsLeftByKills']}; "
                  f"final run exit {crash['finalExit']}; {crash['seconds']} s",
                  "- phases hit (from the claimed row's tag image at kill time vs. its final message):"]
        lines += [f"  - {phase}: {count}" for phase, count in sorted(crash["phasesHit"].items())]
        lines += [f"- invariant violations: **{len(crash['violations'])}**"]
        lines += [f"  - {v}" for v in crash["violations"][:30]]
        lines.append("")
    if report.get("stations"):
        lines += render_stations(report)
    swift = report.get("swift")
    if swift:
        tears = {k: v for k, v in swift.items() if k.startswith("tear-")}
        if tears:
            total = sum(v["tearPoints"] for v in tears.values())
            lines += ["## 2. Tear test (whole cycle: claim, identify, write, verify, lock, commit)", ""] + provenance(report, "swift") + [
                      f"{len(tears)} configurations, **{total}** tear points (tag removed after exchange k, k = 0…n);"
                      " each torn tag re-presented once. Type 4 rows (`type4 …`, the pipeline on the emulator) tear"
                      " inside APDU k after 0, 1 or 2 of its I-blocks, so a chained UPDATE can end half-written.", "",
                      "| configuration | message bytes | tear points | outcomes (tag content / ledger state) | violations |",
                      "|---|---|---|---|---|"]
            for name, v in sorted(tears.items()):
                outcomes = ", ".join(f"{k}: {n}" for k, n in sorted(v["outcomes"].items()))
                lines.append(f"| {v['case']} | {v['messageBytes']} | {v['tearPoints']} | {outcomes} | {len(v['violations'])} |")
            lines.append("")
        mis = swift.get("misbehaving-simulator")
        if mis:
            lines += ["## 4. Misbehaving readers and tags (simulator path)", "",
                      f"**{mis['cases']}** cases: {mis['kinds']} corruption kinds × each of the {mis['exchangesPerCycle']}"
                      " exchanges of a locking NTAG213 cycle; a clean tag follows each. Violations: "
                      f"**{len(mis['violations'])}**.", "", "| corruption | failure classes recorded |", "|---|---|"]
            for kind, classes in mis["failureClasses"].items():
                lines.append(f"| {kind} | " + ", ".join(f"{c}: {n}" for c, n in sorted(classes.items())) + " |")
            lines.append("")
        if swift.get("exit") != 0:
            lines += [f"Swift suites exit {swift['exit']}:"] + [f"    {f}" for f in swift.get("failures", [])] + [""]
    if report.get("readers"):
        section = render_readers(report["readers"])
        # Each path names its own run; the section's run is the latest of them.
        lines += section
    corpus = report.get("corpus")
    if corpus:
        lines += ["## 3. Bad input corpus", ""] + provenance(report, "corpus") + [
                  f"**{corpus['cases']}** cases under `Tests/Fixtures/bad/` (" +
                  ", ".join(f"{k}: {n}" for k, n in sorted(corpus["byKind"].items())) +
                  "), each through `provision validate` and `provision run` with a `sim:…?store=DIR` reader"
                  " (`ndef` cases through `provision ndef decode`).",
                  f"Misbehaving: **{len(corpus['misbehaving'])}**"]
        lines += [f"- {m}" for m in corpus["misbehaving"][:40]]
        lines.append("")
    env = report.get("environment")
    if env:
        lines += ["## 5. Environment faults", ""] + provenance(report, "environment")
        if "skipped" in env:
            lines.append(f"Skipped: {env['skipped']}")
        else:
            lines += ["| fault | how | exit (expected) | ledger | resumed | ok |", "|---|---|---|---|---|---|"]
            for c in env["cases"]:
                lines.append(f"| {c['fault']} | {c.get('method', '')} | {c.get('exit')} ({'/'.join(map(str, c.get('expected', [])))}) "
                             f"| {c.get('ledgerIntegrity')} | exit {c.get('resumeExit')} | {'yes' if c.get('ok') else '**no**'} |")
            lines.append("")
            lines += ["Messages:"] + [f"- {c['fault']}: `{' / '.join(c.get('stderr', []))}`" for c in env["cases"]]
        lines.append("")
    return "\n".join(lines) + "\n"
