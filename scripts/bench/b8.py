"""B8, Type 5 distance from the radio floor: datasheet-timed ICODE SLIX2 tags (≈100-byte URL, write + verify +
lock) against the airtime of the minimal ISO 15693 request sequence, with the emulator's own timing model."""
from .b6a import floor_bench

# Type5Timing.swift (NFCTags) at the high data rate, 26.48 kbit/s (docs/reference/type5.md §1.8); tWrite 5 ms is the
# emulator's documented ASSUMPTION (the reference gives 4–6 ms, unverified per chip).
BYTE = 4096.0 / 13.56
REQUEST_FRAMING = 1024.0 / 13.56 + 512.0 / 13.56
ANSWER_FRAMING = 2 * 2048.0 / 13.56
T1 = 4352.0 / 13.56
T2 = 4192.0 / 13.56
WRITE_US = -(-5000.0 // BYTE) * BYTE  # tWrite in whole 302.08 µs steps
BLOCK = 4                             # ICODE SLIX2: 4-byte blocks, CC E1 40 28 01 (MBREAD), TLV from byte 4
ADDRESSED = 10                        # flags, command, UID


def exchange(request, answer, write=False):
    """One request and answer without CRC (the CRC-16 is added here), t1 and t2; tWrite for a write-alike."""
    return (REQUEST_FRAMING + BYTE * (request + 2) + T1 + ANSWER_FRAMING + BYTE * (answer + 2) + T2
            + (WRITE_US if write else 0.0))


def minimal_sequence(length):
    """The fewest requests that identify a fresh ICODE SLIX2, find its CC and empty NDEF TLV, write `length`
    bytes tear-safe (L = 0 first, L last), read every written block back and lock the CC and TLV blocks
    (docs/reference/type5.md §2.3–2.6): (count, airtime µs, parts)."""
    header = 2 if length < 0xFF else 4
    last = (4 + header + length) // BLOCK          # the block holding the terminator FE
    runs = [min(32 - b % 32, last + 1 - b) for b in range(1, last + 1) if b == 1 or b % 32 == 0]
    parts = [
        ("Get System Information 2B (block size and count, IC reference)", 1, exchange(ADDRESSED, 15)),
        ("Read Single Block 20 of block 0 (the CC)", 1, exchange(ADDRESSED + 1, 1 + BLOCK)),
        ("Read Single Block 20 of block 1 (the empty NDEF TLV 03 00 FE)", 1, exchange(ADDRESSED + 1, 1 + BLOCK)),
        ("Get Multiple Block Security Status 2C of blocks 0–1 (the CC and the present TLV: a locked block makes the "
         "tag read-only before L = 0 could empty it; the status check every job needs)", 1,
         exchange(ADDRESSED + 2, 1 + 2)),
        (f"Write Single Block 21, blocks 1–{last} and block 1 again (L = 0 first, L last)", last + 1,
         (last + 1) * exchange(ADDRESSED + 1 + BLOCK, 1, write=True)),
        (f"Read Multiple Blocks 23 of blocks 1–{last} (compared byte for byte)", len(runs),
         sum(exchange(ADDRESSED + 2, 1 + BLOCK * r) for r in runs)),
        ("Write Single Block 21 of the CC, write access 11b", 1, exchange(ADDRESSED + 1 + BLOCK, 1, write=True)),
        (f"Lock Block 22, blocks 0–{last}", last + 1, (last + 1) * exchange(ADDRESSED + 1, 1, write=True)),
        (f"Get Multiple Block Security Status 2C of blocks 0–{last} (the lock confirmed)", 1,
         exchange(ADDRESSED + 2, 1 + last + 1)),
    ]
    return sum(p[1] for p in parts), sum(p[2] for p in parts), parts


def bench_b8(n):
    # The tag's byte count, not records.message_length: that is sized before the claim, with {{uid}} as wide
    # as a 7-byte UID, and an ISO 15693 UID has 16 hex digits.
    return floor_bench("b8", n, "sim:icode-slix2?timing=datasheet", "icode-slix2", True, minimal_sequence,
                       ["identify", "write", "verify", "lock"],
                       length="t.byte_count FROM attempts a JOIN tags t ON t.job = a.job AND t.row = a.row")
