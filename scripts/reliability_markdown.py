"""Renders reports/reliability.json as Markdown (scripts/reliability.py)."""


def render(report):
    lines = ["# provision reliability report", "",
             f"Run {report['startedAt']} – {report['finishedAt']}. Reproduce with `{report['command']}`"
             " (what `make reliability` runs; the seed fixes the kill moments, not the machine's timing).", ""]
    crash = report.get("crash")
    if crash:
        lines += ["## 1. Crash test (SIGKILL)", "",
                  f"- {crash['rows']}-row job, `{crash['command']}`",
                  f"- kills: **{crash['kills']}**; claims left behind by kills: {crash['claimsLeftByKills']}; "
                  f"final run exit {crash['finalExit']}; {crash['seconds']} s",
                  "- phases hit (from the claimed row's tag image at kill time vs. its final message):"]
        lines += [f"  - {phase}: {count}" for phase, count in sorted(crash["phasesHit"].items())]
        lines += [f"- invariant violations: **{len(crash['violations'])}**"]
        lines += [f"  - {v}" for v in crash["violations"][:30]]
        lines.append("")
    swift = report.get("swift")
    if swift:
        tears = {k: v for k, v in swift.items() if k.startswith("tear-")}
        if tears:
            total = sum(v["tearPoints"] for v in tears.values())
            lines += ["## 2. Tear test (whole cycle: claim, identify, write, verify, lock, commit)", "",
                      f"{len(tears)} configurations, **{total}** tear points (tag removed after exchange k, k = 0…n);"
                      " each torn tag re-presented once.", "",
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
    corpus = report.get("corpus")
    if corpus:
        lines += ["## 3. Bad input corpus", "",
                  f"**{corpus['cases']}** cases under `Tests/Fixtures/bad/` (" +
                  ", ".join(f"{k}: {n}" for k, n in sorted(corpus["byKind"].items())) +
                  "), each through `provision validate` and `provision run` with a `sim:…?store=DIR` reader"
                  " (`ndef` cases through `provision ndef decode`).",
                  f"Misbehaving: **{len(corpus['misbehaving'])}**"]
        lines += [f"- {m}" for m in corpus["misbehaving"][:40]]
        lines.append("")
    env = report.get("environment")
    if env:
        lines += ["## 5. Environment faults", ""]
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
