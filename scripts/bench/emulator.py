"""The tag side of the benchmarks: the PN532 emulator, NTAG215 images and messages, the RFTiming airtime model."""
import os
import socket
import subprocess
import time

from . import common
from .common import ENV, fresh

NTAG215_TLV_ADDRESS = 16          # NDEF TLV at byte 16 (page 4) on a factory NTAG215
NTAG215_PAGES = 135
SIM_PROG_US = 4100.0              # SimulationOptions default prog=4.1 ms per page


# ---------------------------------------------------------------- airtime model (RFTiming.swift)

BIT = 128.0 / 13.56
FDT = (9.0 * 128 + 84) / 13.56
GAP = 1172.0 / 13.56


def exchange(command, answer):
    return (9 * (command + 2) + 3) * BIT + FDT + (9 * (answer + 2) + 2) * BIT + GAP


def write_ack(prog=SIM_PROG_US):
    return (9 * (6 + 2) + 3) * BIT + FDT + prog + 6 * BIT + GAP


ACTIVATION = (9 * BIT + FDT + (9 * 2 + 2) * BIT + GAP) + 2 * (
    (9 * 2 + 3) * BIT + FDT + (9 * 5 + 2) * BIT + GAP + (9 * 9 + 3) * BIT + FDT + (9 * 3 + 2) * BIT + GAP)
REACTIVATION = (9 * 4 + 3) * BIT + GAP + ACTIVATION       # HLTA (no answer) + WUPA/anticollision/SELECT


def minimal_sequence(message_length, lock=True):
    """The minimal command sequence docs/reference/type2.md §11 allows for this job on a factory NTAG215 with a
    short-form TLV: (exchanges, airtime µs, parts, TLV pages).

    Identify: GET_VERSION (§11: before choosing a page layout). Pre-write checks (§11: dynamic lock
    bytes, AUTH0, CFGLCK): one READ of the lock page 82h returns 82h–85h, i.e. lock page, CFG0 and
    CFG1. UID/BCC/INT cross-check, static locks, CC and the TLV head: one FAST_READ 00–04 (READ 00
    and READ 04 merged). Tear-safe write (§5.6): the TLV pages plus the final rewrite of the length
    page. Verify after re-activation (§11): HLTA + WUPA + 2 cascade levels, one FAST_READ of the
    written pages. Lock (§5.7): CC, static and dynamic lock WRITEs; then re-activation and read-back
    of pages 2, 3 (READ 02) and of the lock page (READ 82h): the lock page is 128 pages away from
    page 2, so no single READ (4-page roll-over window) or FAST_READ chunk (≤ 60 pages) holds both."""
    last = NTAG215_TLV_ADDRESS + 2 + message_length          # Terminator address
    pages = last // 4 - NTAG215_TLV_ADDRESS // 4 + 1          # TLV pages incl. Terminator
    writes = pages + 1                                        # + final rewrite of the length page (tear-safe)
    parts = [("GET_VERSION", 1, exchange(1, 8)), ("READ 82h (lock page, CFG0, CFG1)", 1, exchange(2, 16)),
             ("FAST_READ 00–04", 1, exchange(3, 20)),
             ("WRITE TLV", writes, writes * write_ack()),
             ("re-activation (HLTA + WUPA + 2 cascade levels)", 1, REACTIVATION),
             (f"FAST_READ 04–{3 + pages:02X}h", 1, exchange(3, 4 * pages))]
    if lock:
        parts += [("WRITE CC/static/dynamic lock", 3, 3 * write_ack()), ("re-activation", 1, REACTIVATION),
                  ("READ 02 + READ 82h", 2, 2 * exchange(2, 16))]
    return sum(p[1] for p in parts), sum(p[2] for p in parts), parts, pages


def listed_sequence(message_length):
    """The commands the issue text lists (identify, detect, TLV writes, one FAST_READ, lock WRITEs),
    without what §11 adds (configuration check, the two re-activations, the lock read-back)."""
    last = NTAG215_TLV_ADDRESS + 2 + message_length
    pages = last // 4 - NTAG215_TLV_ADDRESS // 4 + 1
    air = exchange(1, 8) + exchange(3, 20) + (pages + 1) * write_ack() + exchange(3, 4 * pages) + 3 * write_ack()
    return 1 + 1 + (pages + 1) + 1 + 3, air


# ---------------------------------------------------------------- PN532 emulator

class Emulator:
    """`provision emulate pn532` on a pty with a control socket."""

    def __init__(self, folder, count, line=True, extra=(), chip="ntag215"):
        self.folder = fresh(folder)
        self.path_file = os.path.join(folder, "pty")
        self.socket = os.path.join(folder, "control.sock")
        spec = f"sim:{chip}?count={count}&store={os.path.join(folder, 'tags')}"
        self.cmd = [common.BIN, "emulate", "pn532", "--tags", spec] + (["--line"] if line else []) + [
            "--timing", "datasheet", "--baud", "115200", "--path-file", self.path_file,
            "--control", self.socket] + list(extra)
        self.process = subprocess.Popen(self.cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
        for _ in range(200):
            if os.path.exists(self.path_file) and os.path.exists(self.socket):
                with open(self.path_file) as f:
                    self.pty = f.read().strip()
                if self.pty:
                    return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("emulator did not start")

    def control(self, line):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(5)
        s.connect(self.socket)
        s.sendall((line + "\n").encode())
        data = b""
        while not data.endswith(b"\n"):
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
        s.close()
        return data.decode().strip()

    def stats(self):
        reply = self.control("stats")
        return dict(w.split("=", 1) for w in reply.split()[1:] if "=" in w)

    def frames(self):
        return int(self.stats()["frames"])

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()


def tag_image(emulator, message):
    """The first tag's factory image with the message's TLV and Terminator at byte 16."""
    path = os.path.join(emulator.folder, "factory.bin")
    reply = emulator.control(f"dump {path}")
    if not reply.startswith("ok"):
        raise RuntimeError(f"dump: {reply}")
    with open(path, "rb") as f:
        image = bytearray(f.read())
    tlv = bytes([0x03, len(message)]) + message + b"\xfe"
    image[NTAG215_TLV_ADDRESS:NTAG215_TLV_ADDRESS + len(tlv)] = tlv
    return bytes(image)


def uri_message(uri):
    """A short-record NDEF URI message (well-known 'U', prefix 04 = https://)."""
    assert uri.startswith("https://")
    payload = b"\x04" + uri[len("https://"):].encode()
    return bytes([0xD1, 0x01, len(payload)]) + b"U" + payload
