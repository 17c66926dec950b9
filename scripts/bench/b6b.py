"""B6b, keyed NTAG 424 DNA personalisation against its radio floor: datasheet-timed tags, a SUN URL template,
lock `permanent`, five journaled ChangeKeys, then the unauthenticated read-back whose SUN must verify."""
import json
import os

from .b6a import COMMAND_US, FSC, WRITE_FRAME_US, blocks, exchange, floor_figures, minimal_sequence
from .common import WORK, ledger_rows, log, make_job, provision_run

TEMPLATE = {"records": [{"type": "uri", "uri":
                         "https://brand.example.com/a/{{sku}}?e={{sun.picc}}&c={{sun.mac}}"}]}
# A sample master key for this benchmark only (never a real key in a repository).
MASTER = "B6B0B6B0B6B0B6B0B6B0B6B0B6B0B6B0"


def native_write(data_bytes):
    """Processing of a native write command: one command plus the write frames its data blocks program."""
    return COMMAND_US + len(blocks(6 + data_bytes, FSC)) * WRITE_FRAME_US


def minimal_personalisation(length):
    """The fewest APDUs a fresh NTAG 424 DNA's keyed personalisation needs (AN12196 §6 order; the emulator's
    timing model: 1 ms a command, 4 ms a programmed frame, one frame per key, settings or counter update):
    (count, airtime µs, parts)."""
    _, _, detection = minimal_sequence(length)
    identify = [p for p in detection if not p[0].startswith(("UPDATE", "READ BINARY NLEN +"))]
    parts = identify + [
        ("AuthenticateEV2First 90 71 (K0) and its 90 AF part", 2,
         exchange(8, 18, COMMAND_US) + exchange(38, 34, COMMAND_US)),
        (f"WriteData 90 8D body ({length} bytes, plain in the session)", 1,
         exchange(13 + length, 2, native_write(7 + length))),
        ("WriteData 90 8D NLEN (last: the tear-safe commit)", 1, exchange(15, 2, native_write(9))),
        ("ChangeFileSettings 90 5F 02 (SDM, rights; full mode)", 1,
         exchange(31, 10, COMMAND_US + WRITE_FRAME_US)),
        ("WriteData 90 8D 01 CC write byte FF (permanent)", 1, exchange(14, 2, native_write(8))),
        ("ChangeKey 90 C4 K1–K4 (full mode, MAC answer)", 4, 4 * exchange(47, 10, COMMAND_US + WRITE_FRAME_US)),
        ("ChangeKey 90 C4 K0 (ends the session, no MAC)", 1, exchange(47, 2, COMMAND_US + WRITE_FRAME_US)),
        ("SELECT NDEF file E104 (unauthenticated, as a phone)", 1, exchange(7, 2, COMMAND_US)),
        (f"READ BINARY NLEN + message ({length + 2} bytes; SDMReadCtr programmed)", 1,
         exchange(5, length + 4, COMMAND_US + WRITE_FRAME_US)),
    ]
    return sum(p[1] for p in parts), sum(p[2] for p in parts), parts


def keyed_job(folder, name, n, key):
    """Writes the B6b job (`n` tags, SUN template, lock) into folder with master entry `key` (a manifest `keys`
    entry: env, file or pkcs11); returns (manifest path, reader spec). B11 runs the same job with other keys."""
    spec = f"sim:ntag424?timing=datasheet&count={n}"
    manifest = make_job(folder, name, n, lock=True, readers=[spec], tag="ntag424", template=TEMPLATE)
    with open(manifest) as f:
        job = json.load(f)
    job.update({"keys": {"brand": key}, "ntag424": {"master": "brand"}})
    with open(manifest, "w") as f:
        json.dump(job, f, indent=1)
    return manifest, spec


def bench_b6b(n):
    folder = os.path.join(WORK, "b6b")
    manifest, spec = keyed_job(folder, "b6b", n, {"env": "B6B_MASTER_KEY"})
    log(f"B6b: {n} tags on {spec}")
    summary, wall, _, cmd = provision_run(manifest, [spec], env={"B6B_MASTER_KEY": MASTER})
    rows = ledger_rows(folder, """
        SELECT a.identify_us, a.write_us, a.verify_us, a.lock_us, a.ledger_us, a.exchanges, a.airtime_us,
               r.message_length
        FROM attempts a JOIN records r ON r.job = a.job AND r.row = a.row WHERE a.outcome = 'done'""")
    samples = [((i or 0) + (w or 0) + (v or 0) + (k or 0), exch, air, length, ledger)
               for i, w, v, k, ledger, exch, air, length in rows]
    return floor_figures(samples, minimal_personalisation, cmd, wall)
