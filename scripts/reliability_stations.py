"""The stations section of scripts/reliability.py: a line of stations on a PostgreSQL ledger, under faults.

Four `provision run --station stN --lease 2` processes share one job on a throwaway server (scripts/pgserver.py),
each on its own simulated UIDs (04B<N>…), all in one image store. A seeded plan keyed to the job's progress (done
rows) SIGKILLs random stations (each restarted after a short pause; a restart refused while the killed process's
lease runs, exit 69, is retried), stops the server immediately three times (started again ~1 s later; stations
that exit are restarted), and freezes one station (SIGSTOP) past its lease: woken (SIGCONT), it must exit 75
without claiming another row. The line then finishes (stations that exit before the job is done are restarted)
and the invariants are checked: no row done twice, no UID bound twice, no row lost, every done row's tag image
holding its message, locked; every claim a fault left open finished by the UID that claimed it; no locked tag
that no row holds. With violations, the run's folder is kept with the ledger's records and attempts in it.
"""
import os, random, re, shutil, signal, subprocess, tempfile, time
from collections import Counter

from pgserver import PGServer

STATIONS = 4
LEASE = 2  # seconds: short, so a killed station's name is free again soon
FREEZE = 2 * LEASE + 1  # seconds the frozen station stays stopped
SERVER_STOPS = 3
OUTAGE = 1.0  # seconds the server stays down
DATABASE = "stations"


def psql_query(pg):
    """A `query` for ledger_violations over psql: SQL → rows of text values ('' for NULL)."""
    return lambda sql: [tuple(line.split("|")) for line in pg.psql(sql, DATABASE).splitlines()]


def plan(rng, kills, rows):
    """The faults, each at a number of done rows: kills spread over the job (the k-th in the k-th of `kills`
    slices of its first 85 %), the server stops and the freeze at random points of its middle."""
    events = [(int(rows * 0.85 * (k + rng.random()) / kills), "kill") for k in range(kills)]
    events += [(int(rows * rng.uniform(0.1, 0.8)), "stop") for _ in range(SERVER_STOPS)]
    events.append((int(rows * rng.uniform(0.25, 0.6)), "freeze"))
    return sorted(events)


class Station:
    """One station of the line: its name, reader and current process (or when to start the next)."""

    def __init__(self, index, folder):
        self.name = f"st{index}"
        self.spec = f"sim:ntag215?uid=04B{index}0000000001&store={folder}/tags&timing=datasheet"
        self.folder = folder
        self.process, self.log, self.started = None, None, 0.0
        self.restart_at, self.finished, self.starts = 0.0, False, 0

    def start(self, provision, uri):
        """Starts `provision run` for this station, its stderr in logs/NAME-N.err."""
        self.starts += 1
        self.log = os.path.join(self.folder, "logs", f"{self.name}-{self.starts}.err")
        with open(self.log, "w") as err:
            self.process = subprocess.Popen(
                [provision, "run", "job.json", "--ledger", uri, "--station", self.name, "--lease", str(LEASE),
                 "--quiet", "--reader", self.spec], cwd=self.folder, stdout=subprocess.DEVNULL, stderr=err)
        self.started = time.time()

    def running(self):
        """Whether the current process is alive (a stopped one counts)."""
        return self.process is not None and self.process.poll() is None

    def error(self):
        """The last `error:` line of the current process's stderr as a kind of message: without the station's
        name, instance, times and counts."""
        lines = [line for line in open(self.log).read().splitlines() if line.startswith("error:")]
        text = re.sub(r"\(instance [^)]*\)", "(instance …)", lines[-1]) if lines else ""
        text = re.sub(r"\bst\d\b", "stN", text)
        return re.sub(r"\b\d+(\.\d+)? s\b", "N s", text)[:200]


class Line:
    """The stations, the server and the bookkeeping of the faults of one run."""

    def __init__(self, pg, provision, uri, folder, rows, rng, ledger_violations, image_state):
        self.pg, self.provision, self.uri, self.folder, self.rows, self.rng = pg, provision, uri, folder, rows, rng
        self.ledger_violations, self.image_state = ledger_violations, image_state
        self.query, self.store = psql_query(pg), os.path.join(folder, "tags")
        self.stations = [Station(index, folder) for index in range(1, STATIONS + 1)]
        self.kills, self.kills_with_claim, self.stops, self.exits, self.messages = 0, 0, 0, Counter(), Counter()
        self.violations, self.claims_left, self.stray = [], {}, {}
        self.frozen = None  # {"station", "until", "woken", "rows"} from SIGSTOP until the station exits
        self.freeze = {}

    def count(self, condition):
        """The number of the job's rows that meet `condition`."""
        return int(self.query(f"SELECT count(*) FROM records WHERE job='t' AND {condition}")[0][0])

    def run(self, events, timeout):
        """Starts every station, plays `events` as the job progresses, and lets the line finish."""
        started, due, progress = time.time(), None, 0
        for station in self.stations:
            station.start(self.provision, self.uri)
        while not all(station.finished for station in self.stations):
            if time.time() - started > timeout:
                self.violations.append(f"the line did not finish in {timeout} s ({progress}/{self.rows} done)")
                break
            self.reap()
            self.restart()
            self.wake()
            progress = self.count("state='done'")
            if events and events[0][0] <= progress and due is None:
                due = time.time() + self.rng.uniform(0, 0.3)  # a random moment, not just after a commit
            if due is not None and time.time() >= due and self.fire(events[0][1]):
                events.pop(0)
                due = None
            time.sleep(0.1)
        if events:
            unplayed = dict(Counter(kind for _, kind in events))
            self.violations.append(f"faults of the plan not played: {unplayed}")
        return {"seconds": round(time.time() - started, 1)}

    def stop_all(self):
        """Kills the stations still running (a timeout or an error of the harness)."""
        for station in self.stations:
            if station.running():
                station.process.kill()
                station.process.wait()

    def live(self):
        """The running stations the faults may hit (not the frozen one)."""
        frozen = self.frozen["station"] if self.frozen else None
        return [station for station in self.stations if station.running() and station is not frozen]

    def reap(self):
        """Records the exit of every station that ended; those that ended before the job was done restart soon."""
        for station in self.stations:
            if station.process is None or station.running():
                continue
            code = station.process.returncode
            self.exits[signal.Signals(-code).name if code < 0 else str(code)] += 1
            if code not in (0, -signal.SIGKILL):
                message = station.error().replace(self.uri, "$URI").replace(self.pg.folder, "$PG")
                self.messages[f"{code}: {message}"] += 1
            if self.frozen and station is self.frozen["station"]:
                self.frozen_exit(station, code)
            station.process = None
            station.finished = code == 0
            station.restart_at = time.time() + self.rng.uniform(0.2, 0.6)

    def restart(self):
        """Starts again the stations whose pause is over."""
        for station in self.stations:
            if not station.finished and station.process is None and time.time() >= station.restart_at:
                station.start(self.provision, self.uri)

    def fire(self, kind):
        """Plays one fault; False when it must wait (no station to kill or freeze, or a freeze under way)."""
        if kind == "kill":
            live = self.live()
            if not live:
                return False
            station = self.rng.choice(live)
            station.process.send_signal(signal.SIGKILL)
            station.process.wait()
            self.kills += 1
            self.kills_with_claim += self.count(f"state='claimed' AND claimed_by LIKE '{station.name}/%'") > 0
            self.after_fault(f"after kill {self.kills} ({station.name})")
            return True
        if self.frozen:
            return False  # no server stop during the freeze: its station must stop for its lease alone
        if kind == "stop":
            self.pg.stop_immediately()
            time.sleep(OUTAGE)
            self.pg.start()
            self.stops += 1
            self.after_fault(f"after server stop {self.stops}")
            return True
        return self.freeze_one()

    def freeze_one(self):
        """Stops (SIGSTOP) a station that holds its lease, past start-up, while rows are pending (so it is still
        in its line: a station that has left it, the job complete, ends with 0 whatever its lease)."""
        ready = [station for station in self.live() if time.time() - station.started > LEASE + 1 and
                 self.query(f"SELECT count(*) FROM stations WHERE name='{station.name}' AND lease_expires >= now()")
                 == [("1",)]]
        pending = self.count("state='pending'")
        if not ready or not pending:
            return False
        station = self.rng.choice(ready)
        station.process.send_signal(signal.SIGSTOP)
        self.frozen = {"station": station, "until": time.time() + FREEZE, "woken": None}
        self.freeze = {"station": station.name, "frozenSeconds": FREEZE, "pendingRowsWhenFrozen": pending}
        return True

    def station_rows(self, station):
        """The rows whose claim is (or was last) the station's."""
        return {int(row) for (row,) in self.query(f"SELECT row FROM records WHERE claimed_by LIKE '{station.name}/%'")}

    def wake(self):
        """Wakes the frozen station when its time is up; one still running 15 s later is a violation."""
        if not self.frozen:
            return
        station, now = self.frozen["station"], time.time()
        if self.frozen["woken"] is None and now >= self.frozen["until"]:
            self.frozen["rows"] = self.station_rows(station)
            station.process.send_signal(signal.SIGCONT)
            self.frozen["woken"] = now
        elif self.frozen["woken"] is not None and now - self.frozen["woken"] > 15:
            self.violations.append(f"frozen station {station.name} still running 15 s after SIGCONT")
            station.process.kill()  # reaped as the frozen station's exit

    def frozen_exit(self, station, code):
        """The frozen station ended: it must have exited 75 and claimed no row after waking."""
        claimed = sorted(self.station_rows(station) - self.frozen["rows"])
        self.freeze.update(exit=code, rowsClaimedAfterWaking=claimed)
        if code != 75:
            self.violations.append(f"frozen station {station.name} exited {code} after SIGCONT, not 75")
        if claimed:
            self.violations.append(f"frozen station {station.name} claimed rows {claimed} after SIGCONT")
        self.frozen = None

    def after_fault(self, when):
        """The invariants that hold at any moment, and the claims left open (each must finish by its UID)."""
        problems = self.ledger_violations(self.query, self.store, self.rows, final=False)
        self.violations += [f"{when}: {problem}" for problem in problems]
        for row, uid in self.query("SELECT row, uid FROM records WHERE job='t' AND state='claimed'"):
            self.claims_left[int(row)] = uid

    def final_checks(self):
        """The end: the crash-test invariants, then what several stations add (attempts, UIDs, stray images)."""
        problems = self.ledger_violations(self.query, self.store, self.rows, final=True)
        self.violations += [f"final: {problem}" for problem in problems]
        for row, count in self.query("SELECT row, count(*) FROM attempts WHERE job='t' AND outcome='done' "
                                     "GROUP BY row HAVING count(*) > 1"):
            self.violations.append(f"final: row {row} has {count} done attempts")
        for uid, count in self.query("SELECT uid, count(*) FROM records WHERE uid IS NOT NULL AND state IN "
                                     "('claimed', 'done') GROUP BY uid HAVING count(*) > 1"):
            self.violations.append(f"final: UID {uid} bound to {count} rows")
        final_uids = dict(self.query("SELECT row, uid FROM records WHERE job='t'"))
        for row, uid in sorted(self.claims_left.items()):
            if final_uids.get(str(row)) != uid:
                self.violations.append(f"final: claim of row {row} by {uid} finished by {final_uids.get(str(row))}")
        held = set(final_uids.values())
        self.stray = {"written": 0, "locked": 0}
        for name in sorted(os.listdir(self.store)):
            uid = name[:-4].upper()
            if not name.endswith(".bin") or uid in held:
                continue
            message, _, partly_locked = self.image_state(self.store, uid)
            self.stray["written"] += bool(message)  # a blank tag's empty NDEF TLV is no message
            self.stray["locked"] += partly_locked
            if partly_locked:
                self.violations.append(f"final: tag {uid} is locked but no row holds it")

    def keep_evidence(self):
        """Copies the ledger's records and attempts into the folder (kept when there are violations)."""
        for table in ("records", "attempts", "stations"):
            with open(os.path.join(self.folder, f"{table}.txt"), "w") as handle:
                handle.write(self.pg.psql(f"SELECT * FROM {table} ORDER BY 1, 2", DATABASE) + "\n")

    def figures(self):
        """The section's figures besides the violations."""
        attempts = dict(self.query("SELECT outcome, count(*) FROM attempts WHERE job='t' GROUP BY outcome"))
        return {"kills": self.kills, "killsLeavingTheirClaim": self.kills_with_claim, "serverStops": self.stops,
                "frozenStation": self.freeze, "exitsByCode": dict(self.exits),
                "exitMessages": dict(self.messages.most_common(12)), "claimsLeftByFaults": len(self.claims_left),
                "attempts": {outcome: int(n) for outcome, n in attempts.items()}, "strayTagImages": self.stray,
                "starts": sum(station.starts for station in self.stations)}


def stations_test(provision, make_job, ledger_violations, image_state, kills, rows, seed, timeout=900):
    """Runs the line under the plan; returns the section's figures (violations must be empty)."""
    rng = random.Random(seed)
    folder = tempfile.mkdtemp(prefix="reliability-stations-")
    os.makedirs(os.path.join(folder, "logs"))
    make_job(folder, rows)
    with PGServer() as pg:
        uri = pg.create_database(DATABASE)
        migrated = subprocess.run([provision, "ledger", "migrate", "--ledger", uri], capture_output=True, text=True)
        if migrated.returncode != 0:
            raise RuntimeError(f"ledger migrate exited {migrated.returncode}: {migrated.stderr.strip()}")
        line = Line(pg, provision, uri, folder, rows, rng, ledger_violations, image_state)
        try:
            result = line.run(plan(rng, kills, rows), timeout)
        finally:
            line.stop_all()
        line.final_checks()
        if line.violations:
            line.keep_evidence()
        result.update(line.figures(), killsPlanned=kills, rows=rows, stations=STATIONS, leaseSeconds=LEASE, seed=seed,
                      violations=line.violations,
                      command=" ".join([provision, "run", "job.json", "--ledger", f"postgresql://…/{DATABASE}",
                                        "--station", "stN", "--lease", str(LEASE), "--quiet", "--reader",
                                        line.stations[0].spec.replace("04B1", "04BN")]).replace(folder, "$DIR"))
    if result["violations"]:
        result["keptFolder"] = folder  # logs/, tags/, records.txt, attempts.txt, stations.txt
    else:
        shutil.rmtree(folder)
    return result
