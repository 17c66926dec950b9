"""B3, the peers: provision run, nfc-mfultralight and nfcpy writing tags through the PN532 emulator."""
import json
import os
import subprocess
import sys
import time

from .common import ENV, WORK, ledger_rows, log, make_job, provision_run, rnd, run
from .emulator import Emulator, tag_image, uri_message

NFCPY_WRITER = r"""
import sys, time, socket, json
import nfc, ndef
device, count, control = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if len(sys.argv) > 4 and sys.argv[4] == "115200":
    # Keep the PN532 at its reset speed: nfcpy raises it only when `stty -F PORT 921600` succeeds
    # (it skips the switch itself on a Raspberry Pi's ttyS0); make that probe fail.
    import os, types, nfc.clf.pn532 as pn532
    pn532.os = types.SimpleNamespace(**{k: getattr(os, k) for k in dir(os) if not k.startswith("__")})
    pn532.os.system = lambda command: 1
def insert():
    s = socket.socket(socket.AF_UNIX); s.connect(control); s.sendall(b"insert\n"); s.recv(4096); s.close()
clf = nfc.ContactlessFrontend(device)
baud = clf.device.chipset.transport.baudrate
locked = 0
for i in range(count):
    if i > 0:
        insert()
    tag = clf.connect(rdwr={"on-connect": lambda tag: False})
    uri = "https://example.com/p/SKU-%05d/B26-%06d?u=%s" % (10001 + i, i + 1, tag.identifier.hex().upper())
    tag.ndef.records = [ndef.UriRecord(uri)]
    if tag.protect():
        locked += 1
clf.close()
print(json.dumps({"locked": locked, "baud": baud}))
"""


def ensure_nfcpy():
    probe = subprocess.run([sys.executable, "-c", "import nfc, ndef"], capture_output=True)
    if probe.returncode == 0:
        return None
    log("B3: installing nfcpy from PyPI (pip --user)")
    for extra in ([], ["--break-system-packages"]):
        done = subprocess.run([sys.executable, "-m", "pip", "install", "--user", "-q", "nfcpy"] + extra,
                              capture_output=True, text=True)
        if done.returncode == 0:
            return None
    return f"pip install nfcpy failed: {done.stderr.strip()[-300:]}"


def link_time(before, after, tags, s_per_tag):
    """Per tag: the emulator's modelled radio and UART time, and the rest of the measured time."""
    radio = (int(after.get("airtime_us", 0)) - int(before.get("airtime_us", 0))) / 1000 / max(tags, 1)
    uart = (int(after.get("uart_us", 0)) - int(before.get("uart_us", 0))) / 1000 / max(tags, 1)
    return {"radio_ms_per_tag": rnd(radio, 2), "uart_ms_per_tag": rnd(uart, 2),
            "rest_ms_per_tag": rnd(1000 * s_per_tag - radio - uart, 2)}


def bench_ours(n, key, option="", chip="ntag215"):
    """provision run writing n tags through the emulator; option is a reader spec query (`?baud=…`)."""
    emu = Emulator(os.path.join(WORK, key), n + 10, chip=chip)   # spare tags: a failed attempt consumes one
    try:
        folder = os.path.join(WORK, key + "-job")
        manifest = make_job(folder, "b3", n, lock=True, tag=chip)
        reader = f"nfc:pn532_uart:{emu.pty}{option}"
        log(f"{key}: provision run, {n} tags on {reader}")
        s0 = emu.stats()
        f0 = int(s0["frames"])
        summary, wall, _, cmd = provision_run(manifest, [reader])
        stats = emu.stats()
        frames = int(stats["frames"]) - f0
        done = ledger_rows(folder, "SELECT count(*) FROM records WHERE state='done'")[0][0]
        length = ledger_rows(folder, "SELECT avg(message_length) FROM records")[0][0]
        failed = ledger_rows(folder, "SELECT failure_class || ': ' || failure_detail, count(*) FROM attempts "
                                     "WHERE outcome != 'done' GROUP BY 1")
        return {"command": " ".join(cmd), "tags_done": done, "s_per_tag": rnd(wall / max(done, 1), 4),
                "failed_attempts": {k: c for k, c in failed}, "uart_baud": int(stats.get("baud", 0)) or None,
                "frames_per_tag": rnd(frames / n, 2), "tag_exchanges_per_tag": summary.get("exchanges_per_tag"),
                "message_bytes_avg": rnd(length, 1), "locks": True,
                **link_time(s0, stats, max(done, 1), wall / max(done, 1))}
    finally:
        emu.stop()


def bench_b3(n):
    out = {"tags": n}
    out["ours"] = bench_ours(n, "b3-ours")
    # baud=921600: SetSerialBaudRate before libnfc opens the port, as nfcpy raises the UART itself.
    out["ours_921600"] = bench_ours(n, "b3-ours-921600", "?baud=921600")
    # nfc-mfultralight
    # Not in line mode: nfc-mfultralight lists the targets first (select + InDeselect until none
    # answers), which in line mode would walk through the whole population. The next tag is put in
    # the field through the control socket between two runs instead.
    emu = Emulator(os.path.join(WORK, "b3-mfu"), n, line=False)
    try:
        message = uri_message("https://example.com/p/SKU-10001/B26-000001?u=04000000000000")
        image_path = os.path.join(emu.folder, "image.mfd")
        with open(image_path, "wb") as f:
            f.write(tag_image(emu, message))
        env = dict(ENV, LIBNFC_DEVICE=f"pn532_uart:{emu.pty}")
        cmd = ["nfc-mfultralight", "w", image_path]
        answers = "n\nn\nn\nn\nn\n"   # OTP, lock, dynamic lock, UID: no (it would lock page 2 before the data)
        log(f"B3: nfc-mfultralight w, {n} tags, one process per tag")
        s0 = emu.stats()
        f0 = int(s0["frames"])
        ok = 0
        last_error = ""
        start = time.perf_counter()
        for i in range(n):
            if i > 0:
                emu.control("insert")
            done = subprocess.run(cmd, input=answers, capture_output=True, text=True, env=env, timeout=120)
            if done.returncode == 0:
                ok += 1
            else:
                last_error = (done.stdout + done.stderr)[-400:]
        wall = time.perf_counter() - start
        s1 = emu.stats()
        frames = int(s1["frames"]) - f0
        out["nfc_mfultralight"] = {
            **link_time(s0, s1, max(ok, 1), wall / max(ok, 1)),
            "command": f"LIBNFC_DEVICE=pn532_uart:<pty> {' '.join(cmd)} (stdin: n to OTP/lock/dynlock/UID prompts)",
            "tags_done": ok, "s_per_tag": rnd(wall / max(ok, 1), 4), "frames_per_tag": rnd(frames / n, 2),
            "message_bytes": len(message), "locks": False, "last_error": last_error or None}
    finally:
        emu.stop()
    # nfcpy
    problem = ensure_nfcpy()
    if problem:
        out["nfcpy"] = {"error": problem}
        return out
    # --lenient-power: nfcpy's pn532.init sends GetFirmwareVersion, not SAMConfiguration, first.
    for key, speed in (("nfcpy", None), ("nfcpy_115200", "115200")):
        out[key] = bench_nfcpy(n, speed)
    return out


def bench_nfcpy(n, speed, chip="ntag215"):
    """nfcpy writing the B3 message to n tags; speed '115200' keeps the UART at the reset speed."""
    # --lenient-power: nfcpy's pn532.init sends GetFirmwareVersion, not SAMConfiguration, first.
    emu = Emulator(os.path.join(WORK, f"{chip}-nfcpy" + (speed or "")), n + 1, extra=["--lenient-power"], chip=chip)
    link = "/dev/ttyUSB97"
    try:
        try:
            if os.path.lexists(link):
                os.remove(link)
            os.symlink(emu.pty, link)
        except OSError as error:
            return {"error": f"cannot create {link} -> {emu.pty}: {error} (nfcpy opens only /dev/tty* names)"}
        script = os.path.join(emu.folder, "nfcpy_writer.py")
        with open(script, "w") as f:
            f.write(NFCPY_WRITER)
        cmd = [sys.executable, script, "tty:USB97:pn532", str(n), emu.socket] + ([speed] if speed else [])
        log(f"B3: nfcpy{' at ' + speed if speed else ''}, {n} tags on tty:USB97:pn532 -> {emu.pty}")
        s0 = emu.stats()
        f0 = int(s0["frames"])
        done, wall, _ = run(cmd, timeout=600)
        stats = emu.stats()
        frames = int(stats["frames"]) - f0
        if done.returncode != 0:
            return {"error": f"exit {done.returncode}: {(done.stdout + done.stderr).strip().splitlines()[-1]}; "
                             f"emulator stats after the attempt: frames={stats.get('frames')} "
                             f"refused={stats.get('refused')} replies={stats.get('replies')}"}
        info = json.loads(done.stdout.strip().splitlines()[-1])
        return {"command": " ".join(cmd[:1] + ["nfcpy_writer.py"] + cmd[2:4] + cmd[5:]),
                "tags_done": n, "s_per_tag": rnd(wall / n, 4), "frames_per_tag": rnd(frames / n, 2),
                "locks": info["locked"] == n, "locked": info["locked"], "uart_baud": info.get("baud"),
                **link_time(s0, stats, n, wall / n)}
    finally:
        if os.path.islink(link):
            os.remove(link)
        emu.stop()
