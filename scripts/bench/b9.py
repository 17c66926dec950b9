"""B9, Type 3 distance from the radio floor: datasheet-timed FeliCa Lite-S tags (≈100-byte URL, write + verify +
lock) against the airtime of the minimal FeliCa command sequence, with the emulator's own timing model."""
from .b6a import floor_bench

# FeliCaTiming (NFCTags) at 212 kbit/s (docs/reference/type3.md §1.1): a frame is preamble 6, sync 2, LEN…, CRC 2 bytes
# of 37.76 µs; a Polling answer's slot 0 starts 2.417 ms after the request. The card's processing times are the
# emulator's documented ASSUMPTIONS, capped by the PMm bounds: 0.45 ms a read, 3 ms a block written.
BYTE = 37.76
SLOT_ZERO = 2417.0
READ_US, WRITE_US = 450.0, 3000.0
NBR = 4  # Lite-S attribute block: up to 4 blocks a Read


def frame(length):
    return (6 + 2 + length + 2) * BYTE


def read(blocks):
    """Read Without Encryption 06 of `blocks` blocks (2-byte block list elements) and its answer."""
    return frame(14 + 2 * blocks) + frame(13 + 16 * blocks) + READ_US


def write():
    """Write Without Encryption 08 of one block and its answer."""
    return frame(14 + 2 + 16) + frame(12) + WRITE_US


def minimal_sequence(length):
    """The fewest commands that, after the detection Polling `12FC` (RC 01: the NDEF system's IDm, recorded as the
    UID; outside the measured phases, as for every family), read a Lite-S's attribute block and MC, write
    `length` bytes tear-safe (WriteF 0F first, Ln and WriteF 00 last), read every written data block back and
    lock it (RWFlag 00 in the attribute block written whole, then the MC, confirmed by one read that also compares
    the attribute block, so the read-back before the lock skips it) (docs/reference/type3.md §1.4–1.5):
    (count, airtime µs, parts)."""
    n = -(-length // 16)
    verify = [min(NBR, n - i) for i in range(0, n, NBR)]
    parts = [
        ("Read 06 of blocks 0 and 88h (attribute block and MC: status, capacity, lock state)", 1, read(2)),
        ("Write 08 of block 0, WriteF 0F (the write begins)", 1, write()),
        (f"Write 08 of blocks 1–{n} (the message, one block a command: Nbw 1)", n, n * write()),
        ("Write 08 of block 0, Ln and WriteF 00 (the write ends)", 1, write()),
        (f"Read 06 of blocks 1–{n} (compared byte for byte, Nbr {NBR} a command)", len(verify),
         sum(read(k) for k in verify)),
        ("Write 08 of block 0, RWFlag 00 (the attribute block whole)", 1, write()),
        ("Write 08 of MC 88h (S_PAD and system blocks read-only for good)", 1, write()),
        ("Read 06 of blocks 88h and 0 (the lock confirmed, block 0 compared byte for byte)", 1, read(2)),
    ]
    return sum(p[1] for p in parts), sum(p[2] for p in parts), parts


def bench_b9(n):
    result = floor_bench("b9", n, "sim:felica-lite-s?timing=datasheet", "felica-lite-s", True, minimal_sequence,
                         ["identify", "write", "verify", "lock"],
                         length="t.byte_count FROM attempts a JOIN tags t ON t.job = a.job AND t.row = a.row")
    result["peers"] = bench_b9_peers(max(n // 4, 3))
    return result


def bench_b9_peers(n):
    """Ours through libnfc and nfcpy (its own PN532 driver and Type 3 code: `tag.ndef.records`, `tag.protect()`)
    writing the same URI message to n Lite-S tags through the same datasheet-timed PN532 emulator at 115200 baud."""
    from .b3 import bench_nfcpy, bench_ours, ensure_nfcpy
    out = {"ours": bench_ours(n, "b9-ours", chip="felica-lite-s")}
    problem = ensure_nfcpy()
    out["nfcpy"] = {"error": problem} if problem else bench_nfcpy(n, "115200", chip="felica-lite-s")
    if "s_per_tag" in out["nfcpy"] and "s_per_tag" in out["ours"]:
        out["ours_over_nfcpy"] = round(out["ours"]["s_per_tag"] / out["nfcpy"]["s_per_tag"], 3)
    return out
