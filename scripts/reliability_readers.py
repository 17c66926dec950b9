"""Misbehaving readers and tags through the backends' emulators (scripts/reliability.py, section `readers`).

Two paths, each a real `provision run` child against a real host stack, each with Type 2 tags (NTAG213) and,
as `pn532-type4` / `vpcd-type4`, Type 4 tags (a generic T4T, 11 APDUs per tag):
  pn532   `provision emulate pn532 --line` on a pty, driven by stock libnfc (`nfc:pn532_uart:/dev/pts/N`)
  vpcd    `provision emulate vpcd` card for a private pcscd with the vsmartcard vpcd driver (`pcsc:#0`)

Per misbehaviour kind one run: the population alternates a misbehaving tag (the kind at exchange k) and a
clean tag, for every k in the chosen positions. Tag-level kinds go into the tags' spec (`plan=`), the
reader's own kinds into `--misbehave`. Per case: the failure class the ledger recorded for the tag (or
"absorbed" when it was done anyway), whether the next tag was done, no crash of either process, and the
ledger/image invariants of the crash test. Then the reader vanishes mid-job (pty closed by
`--misbehave vanish@N`; pcscd killed): exit code, row states, and a resumed run that completes.
"""
import json, os, signal, socket, sqlite3, subprocess, tempfile, time, shutil

TAG_KINDS = ["garbage:1", "garbage:4", "garbage:16", "short:1", "short:8", "long:1", "long:4",
             "nak:0", "nak:1", "nak:4", "nak:5", "silence"]
# A Type 4 tag has no NAK (`nak:` makes it silent without carrying the APDU out); `sw:` answers only that status
# word after carrying the APDU out.
TYPE4_TAG_KINDS = ["garbage:1", "garbage:16", "short:1", "short:2", "long:1", "long:4", "nak:0", "silence",
                   "sw:6A82", "sw:6982", "sw:6F00", "sw:9000"]
PN532_KINDS = ["dcs", "lcs", "truncate", "wrongcode", "nackstorm", "noack"]
VPCD_KINDS = ["sw:6A82", "sw:6F00", "sw:6300", "short", "malformed", "empty", "drop"]
CLASSES = {"tagLost", "timeout", "nak", "notNDEF", "readOnly", "capacity", "wrongChip", "verifyMismatch",
           "lockFailed", "duplicateUID", "transport", "signatureInvalid", "protectFailed", "identityMismatch",
           "lockUnsupported"}
# Per family: the simulated chip of the population, and the job's family (scripts/reliability.py FAMILIES).
SIM_CHIPS = {"type2": "ntag213", "type4": "type4?size=512"}
ENV = dict(os.environ, LIBNFC_LOG_LEVEL="0")


def uid_at(base, index):
    value = int(base[2:], 16) + index
    return base[:2] + f"{value:012X}"


def read_path_file(path, seconds=10):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if os.path.exists(path):
            text = open(path).read().strip()
            if text:
                return text
        time.sleep(0.02)
    return None


def stop_emulator(process):
    """SIGTERM (when still running), then (was it alive, exit status, stderr)."""
    alive = process.poll() is None
    if alive:
        process.send_signal(signal.SIGTERM)
    try:
        code = process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        code = process.wait()
    return alive, code, process.stderr.read().decode(errors="replace").strip()


# --- pn532 through libnfc

class PN532:
    def __init__(self, provision, folder, spec, misbehave=None):
        self.path_file = os.path.join(folder, f"pty-{time.time_ns()}")
        command = [provision, "emulate", "pn532", "--tags", spec, "--line", "--path-file", self.path_file]
        if misbehave:
            command += ["--misbehave", misbehave]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
        self.pty = read_path_file(self.path_file)
        self.spec = f"nfc:pn532_uart:{self.pty}"

    def stop(self):
        return stop_emulator(self.process)


# --- pcscd with vpcd (the socket-activation trick of Sources/TestSupport/PCSCDaemon.swift)

class PCSCD:
    def __init__(self):
        self.directory = tempfile.mkdtemp(prefix="reliability-pcscd-")
        conf = os.path.join(self.directory, "conf")
        os.makedirs(os.path.join(conf, "drivers"))
        driver = os.path.realpath("/usr/lib/pcsc/drivers/serial/libifdvpcd.so")
        copy = os.path.join(conf, "drivers", "libifdvpcd-0.so")
        shutil.copy(driver, copy)
        self.port = free_port_pair()
        with open(os.path.join(conf, "vpcd"), "w") as handle:
            handle.write(f'FRIENDLYNAME "Virtual PCD 0"\nDEVICENAME /dev/null:{self.port}\nLIBPATH {copy}\n'
                         f"CHANNELID {self.port}\n")
        self.conf = conf
        self.socket_path = os.path.join(self.directory, "pcscd.comm")
        self.start()

    def start(self):
        """Starts pcscd on this object's config and socket (again after `stop`: a service restart)."""
        conf = self.conf
        if os.path.exists(self.socket_path):
            os.unlink(self.socket_path)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(self.socket_path)
        listener.listen(16)
        fd = listener.fileno()
        log = open(os.path.join(self.directory, "pcscd.log"), "w")
        self.process = subprocess.Popen(
            ["/bin/sh", "-c", 'LISTEN_PID=$$ LISTEN_FDS=1 exec pcscd --foreground --config "$0"', conf],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, pass_fds=(3,),
            preexec_fn=lambda: os.dup2(fd, 3) if fd != 3 else os.set_inheritable(3, True), env={k: v for k, v in ENV.items() if k != "LISTEN_FDNAMES"})
        listener.close()
        log.close()
        self.env = dict(ENV, PCSCLITE_CSOCK_NAME=self.socket_path)
        time.sleep(0.5)

    def stop(self, sig=signal.SIGTERM):
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def remove(self):
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)


def free_port_pair():
    import random
    for _ in range(200):
        port = random.randrange(20000, 31998, 2)
        try:
            for p in (port, port + 1):
                probe = socket.socket()
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                probe.bind(("0.0.0.0", p))
                probe.close()
            return port
        except OSError:
            continue
    raise RuntimeError("no free port pair")


class VPCDCard:
    def __init__(self, provision, daemon, spec, misbehave=None):
        command = [provision, "emulate", "vpcd", "--port", str(daemon.port), "--tags", spec]
        if misbehave:
            command += ["--misbehave", misbehave]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
        self.spec = "pcsc:#0"
        time.sleep(1.0)  # vpcd accepts only at its 400 ms presence check

    def stop(self):
        return stop_emulator(self.process)


# --- one kind through one path

def sim_spec(family, rows, base, folder):
    """The `sim:` population of `rows` tags of `family` from UID `base`, images in `folder`/tags."""
    chip = SIM_CHIPS[family]
    return f"sim:{chip}{'&' if '?' in chip else '?'}count={rows}&uid={base}&store={folder}/tags"


def split_path(path):
    """`pn532` → (`pn532`, `type2`); `vpcd-type4` → (`vpcd`, `type4`)."""
    reader, _, family = path.partition("-")
    return reader, family or "type2"


def job_folder(make_job, rows, family="type2"):
    folder = tempfile.mkdtemp(prefix="reliability-readers-")
    make_job(folder, rows, family=family)
    manifest = json.load(open(os.path.join(folder, "job.json")))
    manifest.update({"tag": "ntag213"} if family == "type2" else {})
    manifest.update({"retries": 0})
    json.dump(manifest, open(os.path.join(folder, "job.json"), "w"))
    os.mkdir(os.path.join(folder, "tags"))
    return folder


def run_provision(provision, folder, reader, env, idle, extra=()):
    command = [provision, "run", "job.json", "--reader", reader, "--quiet", "--idle", str(idle), *extra]
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, env=env, timeout=900)


def evaluate(folder, base, positions, kind, result, check_invariants, rows):
    db = sqlite3.connect(os.path.join(folder, "reports", "t", "ledger.sqlite"))
    try:
        attempts = db.execute("SELECT uid, outcome, failure_class, failure_detail FROM attempts").fetchall()
    finally:
        db.close()
    by_uid = {}
    for uid, outcome, failure_class, detail in attempts:
        by_uid.setdefault(uid.upper(), []).append((outcome, failure_class, detail))
    outcomes, details, violations = {}, {}, []
    for case, exchange in enumerate(positions):
        bad, nxt = uid_at(base, 2 * case), uid_at(base, 2 * case + 1)
        seen = by_uid.get(bad, [])
        failed = [c or "untyped" for o, c, _ in seen if o == "failed"]
        for name in failed:
            if name not in CLASSES:
                violations.append(f"{kind}@{exchange}: untyped failure {name}")
        label = "+".join(sorted(set(failed))) or ("absorbed" if any(o == "done" for o, _, _ in seen) else "not seen")
        outcomes[label] = outcomes.get(label, 0) + 1
        for o, c, d in seen:
            if o == "failed" and c not in details:
                details[c] = d
        if not any(o == "done" for o, _, _ in by_uid.get(nxt, [])):
            violations.append(f"{kind}@{exchange}: the next tag {nxt} was not done")
    violations += [f"{kind}: {p}" for p in check_invariants(folder, rows, final=False)]
    if result.returncode not in (0, 1):
        violations.append(f"{kind}: provision run exited {result.returncode}: {result.stderr[-300:]}")
    return outcomes, details, violations


def kind_run(path, provision, make_job, check_invariants, kind, positions, index, daemon=None):
    """One run of `kind` at every exchange in `positions`, each misbehaving tag followed by a clean one."""
    path, family = split_path(path)
    reader_kinds = PN532_KINDS if path == "pn532" else VPCD_KINDS
    base = f"04{0xD0 + (path == 'vpcd') + 2 * (family == 'type4'):02X}{index:02X}00000000"
    rows = 2 * len(positions)
    folder = job_folder(make_job, rows, family)
    entries = ",".join(f"{kind}@{k},-" for k in positions)
    plan = "" if kind in reader_kinds else f"&plan={entries}"
    spec = sim_spec(family, rows, base, folder) + plan + ("&line" if path == "vpcd" else "")
    misbehave = entries if kind in reader_kinds else None
    started = time.time()
    if path == "pn532":
        emulator = PN532(provision, folder, spec, misbehave)
        result = run_provision(provision, folder, emulator.spec, ENV, idle=3)
    else:
        emulator = VPCDCard(provision, daemon, spec, misbehave)
        result = run_provision(provision, folder, emulator.spec, daemon.env, idle=4)
    alive, code, stderr = emulator.stop()
    outcomes, details, violations = evaluate(folder, base, positions, kind, result, check_invariants, rows)
    if not alive or code != 0:
        violations.append(f"{kind}: the emulator died (alive={alive}, exit {code}): {stderr[-200:]}")
    shutil.rmtree(folder, ignore_errors=True)
    return {"kind": kind, "level": "reader" if kind in reader_kinds else "tag", "cases": len(positions),
            "outcomes": outcomes, "details": details, "violations": violations, "runExit": result.returncode,
            "seconds": round(time.time() - started, 1)}


# --- the reader vanishes mid-job, then the job resumes on a reader that is back

def ledger_states(folder):
    db = sqlite3.connect(os.path.join(folder, "reports", "t", "ledger.sqlite"))
    try:
        states = dict(db.execute("SELECT state, count(*) FROM records GROUP BY state").fetchall())
        claims = db.execute("SELECT row, uid FROM records WHERE state='claimed'").fetchall()
        return states, claims
    finally:
        db.close()


def done_count(folder):
    path = os.path.join(folder, "reports", "t", "ledger.sqlite")
    if not os.path.exists(path):
        return 0
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return db.execute("SELECT count(*) FROM records WHERE state='done'").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error:
        return 0


def vanish_case(path, provision, make_job, check_invariants, exchange, rows=6):
    """PN532: `--misbehave vanish@exchange` on the third tag (the pty closes). vpcd: pcscd SIGKILLed once
    two rows are done. Then a fresh reader with the same tag store, and a second run that must complete."""
    path, family = split_path(path)
    base = f"04{0xE0 + (path == 'vpcd') + 2 * (family == 'type4'):02X}{exchange:02X}00000000"
    folder = job_folder(make_job, rows, family)
    spec = sim_spec(family, rows, base, folder)
    started, violations = time.time(), []
    daemon = None
    if path == "pn532":
        emulator = PN532(provision, folder, spec, f"-,-,vanish@{exchange}")
        first = run_provision(provision, folder, emulator.spec, ENV, idle=3, extra=("--reader-timeout", "2"))
        alive, _, _ = emulator.stop()
        if alive:
            violations.append("the emulator did not vanish")
        how = f"--misbehave vanish@{exchange} on the 3rd tag (pty closed mid-tag)"
    else:
        daemon = PCSCD()
        emulator = VPCDCard(provision, daemon, spec + "&line")
        command = [provision, "run", "job.json", "--reader", emulator.spec, "--quiet", "--idle", "4",
                   "--reader-timeout", "2"]
        child = subprocess.Popen(command, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 env=daemon.env)
        deadline = time.time() + 120
        while done_count(folder) < 2 and child.poll() is None and time.time() < deadline:
            time.sleep(0.01)
        time.sleep(0.05 * exchange)  # into the next tag's cycle
        daemon.stop(signal.SIGKILL)
        out, err = child.communicate(timeout=120)
        first = subprocess.CompletedProcess(command, child.returncode, out, err)
        emulator.stop()
        daemon.remove()
        how = f"pcscd SIGKILLed {0.05 * exchange:.2f} s after the 2nd row was done"
    states, claims = ledger_states(folder)
    violations += [f"after the vanish: {p}" for p in check_invariants(folder, rows, final=False)]
    if first.returncode != 69:
        violations.append(f"first run exited {first.returncode}, expected 69: {first.stderr[-300:]}")
    message = next((line for line in first.stderr.splitlines() if line.startswith("error:")), "")
    # The reader is back: same tag store, same population; the job must complete.
    if path == "pn532":
        emulator = PN532(provision, folder, spec)
        second = run_provision(provision, folder, emulator.spec, ENV, idle=3)
        emulator.stop()
    else:
        daemon = PCSCD()
        emulator = VPCDCard(provision, daemon, spec + "&line")
        second = run_provision(provision, folder, emulator.spec, daemon.env, idle=4)
        emulator.stop()
        daemon.remove()
    if second.returncode != 0:
        violations.append(f"resumed run exited {second.returncode}: {second.stderr[-300:]}")
    violations += [f"after resuming: {p}" for p in check_invariants(folder, rows, final=True)]
    db = sqlite3.connect(os.path.join(folder, "reports", "t", "ledger.sqlite"))
    for row, uid in claims:
        finished = db.execute("SELECT uid FROM records WHERE row=?", (row,)).fetchone()[0]
        if uid is not None and finished != uid:
            violations.append(f"row {row} claimed by {uid} was finished by {finished}")
    db.close()
    shutil.rmtree(folder, ignore_errors=True)
    return {"how": how, "firstExit": first.returncode, "message": message, "statesAfterVanish": states,
            "claimsLeft": len(claims), "resumedExit": second.returncode, "violations": violations,
            "seconds": round(time.time() - started, 1)}


def return_case(path, provision, make_job, check_invariants, exchange, rows=6):
    """The reader goes away mid-write and comes back while the run waits for it (issue 46). PN532: the emulator
    vanishes at `exchange` of the third tag and another starts behind the same symlink. vpcd: the third tag holds
    its answer to `exchange` (`hold`), and pcscd is restarted on the same config. One run must finish every row
    once, the held row by its own UID."""
    path, family = split_path(path)
    base = f"04{0xE8 + (path == 'vpcd') + 2 * (family == 'type4'):02X}{exchange:02X}00000000"
    folder = job_folder(make_job, rows, family)
    spec = sim_spec(family, rows, base, folder)
    started, violations = time.time(), []
    link = os.path.join(folder, "reader-port")
    daemon = None
    if path == "pn532":
        emulator = PN532(provision, folder, spec, f"-,-,vanish@{exchange}")
        os.symlink(emulator.pty, link)
        reader, env = f"nfc:pn532_uart:{link}", ENV
    else:
        daemon = PCSCD()
        emulator = VPCDCard(provision, daemon, spec + "&line", f"-,-,hold@{exchange}")
        reader, env = emulator.spec, daemon.env
    command = [provision, "run", "job.json", "--reader", reader, "--quiet"]
    child = subprocess.Popen(command, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.time() + 120
    if path == "pn532":
        emulator.process.wait(timeout=120)  # it vanished: the moment is the emulator's own plan
        claims = ledger_states(folder)[1]
        emulator = PN532(provision, folder, spec)
        os.symlink(emulator.pty, link + ".new")
        os.rename(link + ".new", link)
        how = f"--misbehave vanish@{exchange} on the 3rd tag, another emulator behind the same path"
    else:
        while child.poll() is None and time.time() < deadline:
            states, claims = ledger_states(folder) if done_count(folder) >= 2 else ({}, [])
            if states.get("claimed"):
                break  # the third tag is claimed and its `hold` answer never comes: restart pcscd under it
            time.sleep(0.05)
        daemon.stop()
        daemon.start()
        how = f"--misbehave hold@{exchange} on the 3rd tag, pcscd restarted on the same config"
    try:
        out, err = child.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        child.kill()
        out, err = child.communicate()
    emulator.stop()
    if daemon:
        daemon.remove()
    if child.returncode != 0:
        violations.append(f"run exited {child.returncode}, expected 0: {err[-300:]}")
    if "gone; waiting for it" not in err:
        violations.append("no 'gone; waiting for it' warning")
    violations += [f"after the return: {p}" for p in check_invariants(folder, rows, final=True)]
    db = sqlite3.connect(os.path.join(folder, "reports", "t", "ledger.sqlite"))
    for row, uid in claims:
        finished = db.execute("SELECT uid FROM records WHERE row=?", (row,)).fetchone()[0]
        if uid is not None and finished != uid:
            violations.append(f"row {row} claimed by {uid} was finished by {finished}")
    failed = db.execute("SELECT count(*) FROM attempts WHERE outcome='failed'").fetchone()[0]
    db.close()
    if failed:
        violations.append(f"{failed} failed attempts recorded for a reader that went away")
    shutil.rmtree(folder, ignore_errors=True)
    return {"how": how, "exit": child.returncode, "claimsWhileGone": len(claims), "violations": violations,
            "seconds": round(time.time() - started, 1)}


def readers_test(provision, make_job, check_invariants, positions, paths=("pn532", "vpcd"), vanishes=(2, 5, 9)):
    """Every kind at every position through each path, then the vanishing reader; figures per path. A Type 4
    path uses the positions up to 11 (one tag's APDUs)."""
    report = {"positions": positions}
    for path in paths:
        reader, family = split_path(path)
        kinds = ((TAG_KINDS if family == "type2" else TYPE4_TAG_KINDS)
                 + (PN532_KINDS if reader == "pn532" else VPCD_KINDS))
        used = positions if family == "type2" else [p for p in positions if p <= 11]
        daemon = PCSCD() if reader == "vpcd" else None
        runs = []
        try:
            for index, kind in enumerate(kinds):
                runs.append(kind_run(path, provision, make_job, check_invariants, kind, used, index, daemon))
        finally:
            if daemon:
                daemon.remove()
        gone = [vanish_case(path, provision, make_job, check_invariants, k) for k in vanishes]
        back = [return_case(path, provision, make_job, check_invariants, k) for k in (9,) if family == "type2"]
        report[path] = {"positions": used, "kinds": len(kinds), "cases": sum(r["cases"] for r in runs), "runs": runs, "vanish": gone,
                        "returns": back, "violations": sum(len(r["violations"]) for r in runs + gone + back)}
    return report
