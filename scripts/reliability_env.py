"""Environment faults for scripts/reliability.py: read-only ledger folder, full disk, locked ledger,
unwritable reports folder. Needs root (bind mounts, tmpfs); every mount is undone before returning."""
import json, os, shutil, sqlite3, subprocess, tempfile, time

EXPECTED = {"read-only ledger folder (fresh job)": [73], "read-only ledger folder (existing ledger)": [73, 74],
            "disk full (tmpfs)": [74], "ledger locked by another process": [69],
            "reports folder not writable": [73]}


def sh(*args):
    return subprocess.run(list(args), capture_output=True, text=True)


def integrity(ledger):
    if not os.path.exists(ledger):
        return "absent"
    db = sqlite3.connect(f"file:{ledger}?mode=ro", uri=True)
    try:
        return db.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        db.close()


def run_env_faults(provision, make_job, check_invariants):
    if os.geteuid() != 0:
        return {"skipped": "needs root (bind mounts and tmpfs)"}
    results = []

    def run(folder, extra=(), spec_options="", rows=None):
        spec = f"sim:ntag215?uid=04000000000001&store={folder}/tags{spec_options}"
        return subprocess.run([provision, "run", "job.json", "--reader", spec, "--quiet", *extra], cwd=folder,
                              capture_output=True, text=True, timeout=600)

    def finish(name, folder, fault, rows, ledger=None, cleanup=None):
        ledger = ledger or os.path.join(folder, "reports", "t", "ledger.sqlite")
        entry = {"fault": name, "exit": fault.returncode, "expected": EXPECTED[name],
                 "stderr": fault.stderr.strip().splitlines()[-3:], "ledgerIntegrity": integrity(ledger)}
        if cleanup:
            cleanup()
        resumed = run(folder)
        entry["resumeExit"] = resumed.returncode
        entry["resumeViolations"] = check_invariants(folder, rows, final=True, ledger=ledger) if resumed.returncode == 0 else [resumed.stderr.strip()[-300:]]
        entry["ok"] = (fault.returncode in EXPECTED[name] and entry["ledgerIntegrity"] in ("ok", "absent")
                       and resumed.returncode == 0 and not entry["resumeViolations"])
        results.append(entry)
        shutil.rmtree(folder, ignore_errors=True)

    # 1. Read-only ledger folder, fresh job: reports/t exists but is a read-only bind mount.
    folder = tempfile.mkdtemp(prefix="reliability-env-")
    make_job(folder, 20)
    target = os.path.join(folder, "reports", "t")
    os.makedirs(target)
    sh("mount", "--bind", target, target)
    sh("mount", "-o", "remount,ro,bind", target)
    fault = run(folder)
    listing = os.listdir(target)
    finish("read-only ledger folder (fresh job)", folder, fault, 20, cleanup=lambda: sh("umount", target))
    results[-1]["method"] = "read-only bind mount of reports/t"
    results[-1]["filesLeft"] = listing

    # 2. Read-only ledger folder with an existing, half-done ledger.
    folder = tempfile.mkdtemp(prefix="reliability-env-")
    make_job(folder, 20)
    first = subprocess.Popen([provision, "run", "job.json", "--reader",
                              f"sim:ntag215?uid=04000000000001&store={folder}/tags&timing=datasheet", "--quiet"],
                             cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.5)
    first.kill()
    first.wait()
    target = os.path.join(folder, "reports", "t")
    sh("mount", "--bind", target, target)
    sh("mount", "-o", "remount,ro,bind", target)
    fault = run(folder)
    finish("read-only ledger folder (existing ledger)", folder, fault, 20, cleanup=lambda: sh("umount", target))
    results[-1]["method"] = "read-only bind mount of reports/t after a SIGKILLed run"

    # 3. Disk full: the reports folder is a small tmpfs; a large job fills it.
    folder = tempfile.mkdtemp(prefix="reliability-env-")
    rows = 1000
    make_job(folder, rows)
    target = os.path.join(folder, "reports")
    os.makedirs(target)
    mounted = sh("mount", "-t", "tmpfs", "-o", "size=160k", "tmpfs", target)
    if mounted.returncode == 0:
        fault = run(folder)

        def grow():
            sh("mount", "-o", "remount,size=64m", target)

        finish("disk full (tmpfs)", folder + "", fault, rows, cleanup=grow)
        results[-1]["method"] = "160 KiB tmpfs on reports/ (1000-row job), then remounted at 64 MiB to resume"
        sh("umount", target)
    else:
        results.append({"fault": "disk full (tmpfs)", "skipped": mounted.stderr.strip(), "ok": False})

    # 4. Ledger locked by another process: sqlite3 holds BEGIN EXCLUSIVE.
    folder = tempfile.mkdtemp(prefix="reliability-env-")
    make_job(folder, 20)
    first = run(folder, spec_options="&count=5")
    ledger = os.path.join(folder, "reports", "t", "ledger.sqlite")
    holder = subprocess.Popen(["sqlite3", ledger], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    holder.stdin.write("PRAGMA busy_timeout=0; BEGIN EXCLUSIVE; SELECT 'held';\n")
    holder.stdin.flush()
    holder.stdout.readline()
    started = time.time()
    fault = run(folder)
    waited = round(time.time() - started, 1)

    def release():
        holder.stdin.write("COMMIT;\n.quit\n")
        holder.stdin.close()
        holder.wait()

    finish("ledger locked by another process", folder, fault, 20, cleanup=release)
    results[-1]["method"] = f"sqlite3 holding BEGIN EXCLUSIVE (first run exit {first.returncode}); failed after {waited} s"

    # 5. Reports folder not writable (ledger elsewhere).
    folder = tempfile.mkdtemp(prefix="reliability-env-")
    make_job(folder, 20)
    manifest = json.load(open(os.path.join(folder, "job.json")))
    manifest["ledger"] = "ledger/ledger.sqlite"
    manifest["reports"] = "out"
    json.dump(manifest, open(os.path.join(folder, "job.json"), "w"))
    os.makedirs(os.path.join(folder, "ledger"))
    target = os.path.join(folder, "out")
    os.makedirs(target)
    sh("mount", "--bind", target, target)
    sh("mount", "-o", "remount,ro,bind", target)
    fault = run(folder)
    finish("reports folder not writable", folder, fault, 20, ledger=os.path.join(folder, "ledger", "ledger.sqlite"),
           cleanup=lambda: sh("umount", target))
    results[-1]["method"] = "read-only bind mount of the manifest's reports folder; ledger writable"
    return {"cases": results, "ok": sum(1 for r in results if r.get("ok")), "total": len(results)}
