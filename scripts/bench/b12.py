"""B12, publishing tag events to MQTT (issue 45): what `run --publish` adds to a tag at zero latency (B1's line) and
at datasheet timing (B2's), in alternating rounds of one run, and how fast `provision publish` drains a backlog to
a local mosquitto, counted by an independent `mosquitto_sub`."""
import os
import socket
import sqlite3
import statistics
import subprocess
import time
import uuid

from . import common
from .common import WORK, fresh, iso_seconds, ledger_rows, log, make_job, rnd, run, verdict


class Broker:
    """A throwaway mosquitto on a free loopback port (persistence off), and a QoS 1 consumer counting messages."""

    def __init__(self, folder):
        self.folder = fresh(folder)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        conf = os.path.join(folder, "mosquitto.conf")
        with open(conf, "w") as f:
            f.write(f"listener {self.port} 127.0.0.1\npersistence false\nallow_anonymous true\n"
                    "max_queued_messages 0\n" + ("user root\n" if os.getuid() == 0 else ""))
        self.process = subprocess.Popen(["/usr/sbin/mosquitto", "-c", conf], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise RuntimeError("mosquitto did not start")

    def url(self, prefix):
        return f"mqtt://127.0.0.1:{self.port}/{prefix}"

    def consume(self, topic, path):
        """Starts mosquitto_sub -q 1 on topic, one line a message into path; returns the process."""
        out = open(path, "w")
        sub = subprocess.Popen(["/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", str(self.port), "-q", "1",
                                "-t", topic, "-F", "%t"], stdout=out, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # probe until the subscription answers
            subprocess.run(["/usr/bin/mosquitto_pub", "-h", "127.0.0.1", "-p", str(self.port), "-q", "1",
                            "-t", topic.replace("#", "probe"), "-n"], check=True)
            time.sleep(0.1)
            if os.path.getsize(path) > 0:
                return sub
        raise RuntimeError("mosquitto_sub did not subscribe")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def one_line(folder, name, n, spec, publish=None):
    """One job of n tags on spec, with `--publish URL` or without: ms a tag over the ledger window, and the wall."""
    manifest = make_job(folder, name, n, lock=True)
    cmd = [common.BIN, "run", manifest, "--quiet", "--json", "--idle", "20", "--reader", spec]
    if publish:
        cmd += ["--publish", publish]
    done, wall, cpu = run(cmd)
    if done.returncode != 0:
        raise RuntimeError(f"run exit {done.returncode}: {done.stderr[-2000:]}")
    rows = ledger_rows(folder, "SELECT started_at, finished_at FROM attempts WHERE outcome = 'done'")
    if len(rows) != n:
        raise RuntimeError(f"{len(rows)} of {n} tags done in {folder}")
    backlog = ledger_rows(folder, "SELECT count(*) FROM outbox WHERE published_at IS NULL")[0][0]
    window = max(iso_seconds(r[1]) for r in rows) - min(iso_seconds(r[0]) for r in rows)
    return {"ms_per_tag": 1000 * window / n, "wall_s": wall, "cpu_s": cpu, "unpublished": backlog,
            "command": " ".join(cmd)}


def rounds_of(broker, name, n, spec, rounds):
    """Alternating rounds with and without publishing; the ratios of ms a tag, round by round."""
    runs = {"publish": [], "plain": []}
    for r in range(rounds):
        for arm in (("plain", "publish") if r % 2 == 0 else ("publish", "plain")):
            folder = os.path.join(WORK, "b12", f"{name}-{arm}")
            url = broker.url(f"bench/{name}-{r}") if arm == "publish" else None
            runs[arm].append(one_line(folder, name, n, spec, url))
    ratios = [p["ms_per_tag"] / q["ms_per_tag"] for p, q in zip(runs["publish"], runs["plain"])]
    plain = [x["ms_per_tag"] for x in runs["plain"]]
    return {"tags": n, "rounds": rounds, "ratio_median": rnd(statistics.median(ratios), 4),
            "ratio_rounds": [rnd(x, 4) for x in ratios],
            "plain_spread": rnd(max(plain) / min(plain), 4),
            "publish_ms_per_tag": rnd(statistics.median(x["ms_per_tag"] for x in runs["publish"])),
            "plain_ms_per_tag": rnd(statistics.median(plain)),
            "wall_ratio_median": rnd(statistics.median(
                p["wall_s"] / q["wall_s"] for p, q in zip(runs["publish"], runs["plain"])), 4),
            "unpublished_after_runs": sum(x["unpublished"] for x in runs["publish"]),
            "command": runs["publish"][0]["command"]}


def drain(broker, events):
    """Seeds a ledger's outbox with `events` unpublished events (copies of a real run's, new ids) and times
    `provision publish` draining them; an empty drain of the same ledger gives the process's start-up."""
    folder = os.path.join(WORK, "b12", "drain")
    one_line(folder, "b12d", 20, "sim:ntag215?timing=instant&count=20")
    con = sqlite3.connect(os.path.join(folder, "ledger.sqlite"))
    sample = con.execute("SELECT job, row, station, outcome, payload, created_at FROM outbox LIMIT 1").fetchone()
    con.execute("DELETE FROM outbox")
    con.executemany("INSERT INTO outbox (id, job, row, station, outcome, payload, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)", ((str(uuid.uuid4()),) + sample for _ in range(events)))
    con.commit()
    con.close()
    received = os.path.join(folder, "received.txt")
    consumer = broker.consume("drain/#", received)
    cmd = [common.BIN, "publish", os.path.join(folder, "job.json"), "--to", broker.url("drain")]
    done, wall, cpu = run(cmd)
    if done.returncode != 0:
        raise RuntimeError(f"publish exit {done.returncode}: {done.stderr[-2000:]}")
    empty, empty_wall, _ = run(cmd)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and sum(1 for x in open(received) if x.endswith("/tag\n")) < events:
        time.sleep(0.1)
    consumer.terminate()
    got = sum(1 for line in open(received) if line.endswith("/tag\n"))
    left = ledger_rows(folder, "SELECT count(*) FROM outbox WHERE published_at IS NULL")[0][0]
    return {"events": events, "wall_s": rnd(wall), "startup_s": rnd(empty_wall), "cpu_s": rnd(cpu),
            "events_per_s": rnd(events / max(wall - empty_wall, 1e-3), 0), "received": got, "left": left,
            "command": " ".join(cmd)}


def bench_b12(size):
    zero_n, datasheet_n, rounds, events = size
    broker = Broker(os.path.join(WORK, "b12", "broker"))
    try:
        log(f"B12: {rounds} rounds of {zero_n} zero-latency tags with and without --publish")
        zero = rounds_of(broker, "b12z", zero_n, f"sim:ntag215?timing=instant&count={zero_n}", rounds)
        log(f"B12: {rounds} rounds of {datasheet_n} datasheet-timed tags with and without --publish")
        datasheet = rounds_of(broker, "b12s", datasheet_n, f"sim:ntag215?timing=datasheet&count={datasheet_n}",
                              rounds)
        log(f"B12: provision publish drains {events} events")
        return {"zero": zero, "datasheet": datasheet, "drain": drain(broker, events)}
    finally:
        broker.stop()


def b12_section(b, notes):
    """The report's B12 section."""
    z, d, dr = b["zero"], b["datasheet"], b["drain"]
    return ["## B12 — publishing tag events to MQTT", "",
            f"Each round runs one job without and one with `--publish` to a local mosquitto (QoS 1, persistence "
            f"off), the order alternating; a tag's time is the job's ledger window ÷ tags (the end-of-run drain is "
            f"after it, and in the wall ratio). Drain: {dr['events']} unpublished events seeded into a SQLite "
            "ledger's outbox (copies of a real event, new ids), sent by `provision publish` and counted by "
            "`mosquitto_sub -q 1`; events/s = events ÷ (wall − an empty drain's wall, the start-up).", "",
            "| Figure | Goal | Measured | Result |", "|---|---|---|---|",
            f"| zero latency ({z['tags']} tags): ms a tag, publish ÷ plain, median of {z['rounds']} rounds | ≤ 1.02 "
            f"| {z['ratio_median']} (rounds {', '.join(map(str, z['ratio_rounds']))}) "
            f"| {verdict(z['ratio_median'] <= 1.02)} |",
            f"| zero latency: ms a tag publish / plain; wall ratio | | {z['publish_ms_per_tag']} / "
            f"{z['plain_ms_per_tag']}; {z['wall_ratio_median']} | |",
            f"| datasheet ({d['tags']} tags): publish ÷ plain, median | within the plain runs' spread "
            f"({d['plain_spread']}) | {d['ratio_median']} (rounds {', '.join(map(str, d['ratio_rounds']))}) "
            f"| {verdict(abs(d['ratio_median'] - 1) <= max(d['plain_spread'] - 1, 0.01))} |",
            f"| events left unpublished after the runs' drains | 0 | "
            f"{z['unpublished_after_runs'] + d['unpublished_after_runs']} | "
            f"{verdict(z['unpublished_after_runs'] + d['unpublished_after_runs'] == 0)} |",
            f"| drain to a local broker, events/s | ≥ 5,000 | {dr['events_per_s']:.0f} "
            f"| {verdict(dr['events_per_s'] >= 5000)} |",
            f"| drain: received by the consumer / left in the outbox | {dr['events']} / 0 | {dr['received']} / "
            f"{dr['left']} | {verdict(dr['received'] >= dr['events'] and dr['left'] == 0)} |",
            f"| drain wall / start-up / CPU | | {dr['wall_s']} / {dr['startup_s']} / {dr['cpu_s']} s | |", ""] + notes
