"""B6a, Type 4 distance from the radio floor: datasheet-timed NTAG 424 DNA tags (≈100-byte URL, write + verify)
against the airtime of the minimal APDU sequence, with the emulator's own ISO-DEP timing parameters."""
import os
import statistics

from .common import WORK, ledger_rows, log, make_job, pct, provision_run, rnd

# ISODEPTiming.swift (NFCTags) at 106 kbit/s; processing times are the emulator's documented ASSUMPTIONS
# (the NT4H2421 data sheet publishes none): 1 ms per command, 4 ms per programmed write frame.
BIT = 128.0 / 13.56
FDT = (9.0 * 128 + 84) / 13.56
GAP = 1172.0 / 13.56
COMMAND_US = 1000.0
WRITE_FRAME_US = 4000.0
FSC = 128            # NTAG 424 DNA ATS 06 77 77 71 02 80: FSCI 7
FSD = 256            # the reader's RATS (FSDI 8)

# A ≈100-byte NDEF message: one URI record whose URL names the product, serial, UID and lot.
TEMPLATE = {"records": [{"type": "uri", "uri":
                         "https://brand.example.com/authentic/{{sku}}/{{serial}}?uid={{uid}}&lot={{lot}}&v=1&src=nfc-tag"}]}


def blocks(size, frame):
    inf = frame - 3
    return [size] if size <= inf else [min(inf, size - i) for i in range(0, size, inf)]


def exchange(command, response, processing):
    """One APDU exchange: chained command I-blocks each acknowledged, the answer's blocks pulled by R(ACK)."""
    def trip(reader, tag, p=0.0):
        return (9 * reader + 3) * BIT + FDT + p + (9 * tag + 2) * BIT + GAP
    sent, received = blocks(command, FSC), blocks(response, FSD)
    total = sum(trip(i + 3, 3) for i in sent[:-1])
    total += trip(sent[-1] + 3, received[0] + 3, processing)
    return total + sum(trip(3, i + 3) for i in received[1:])


def minimal_sequence(length):
    """The fewest APDUs that identify a fresh NTAG 424 DNA, find its NDEF file and capacity, write `length`
    bytes tear-safe and read every byte back (docs/reference/type4.md §1.2–1.5, §2.3): (count, airtime µs, parts)."""
    write_frames = len(blocks(5 + length, FSC))
    parts = [
        ("GetVersion 90 60, 90 AF, 90 AF (the chip; free, §2.3)", 3,
         exchange(5, 9, COMMAND_US) * 2 + exchange(5, 16, COMMAND_US)),
        ("SELECT NDEF application D2760000850101", 1, exchange(13, 2, COMMAND_US)),
        ("SELECT CC E103", 1, exchange(7, 2, COMMAND_US)),
        ("READ BINARY CC, 15 bytes (NDEF file, size, access, MLe/MLc)", 1, exchange(5, 17, COMMAND_US)),
        ("SELECT NDEF file E104", 1, exchange(7, 2, COMMAND_US)),
        ("READ BINARY NLEN (0 on a fresh tag: no NLEN 0000 write needed)", 1, exchange(5, 4, COMMAND_US)),
        (f"UPDATE BINARY body ({length} bytes at offset 2)", 1,
         exchange(5 + length, 2, COMMAND_US + write_frames * WRITE_FRAME_US)),
        ("UPDATE BINARY NLEN (last: the tear-safe commit)", 1, exchange(7, 2, COMMAND_US + WRITE_FRAME_US)),
        (f"READ BINARY NLEN + body ({length + 2} bytes, compared byte for byte)", 1,
         exchange(5, length + 4, COMMAND_US)),
    ]
    return sum(p[1] for p in parts), sum(p[2] for p in parts), parts


def bench_b6a(n):
    return floor_bench("b6a", n, "sim:ntag424?timing=datasheet", "ntag424", False, minimal_sequence,
                       ["identify", "write", "verify"])


def floor_bench(name, n, chip_spec, tag, lock, sequence, phases,
                length="r.message_length FROM attempts a JOIN records r ON r.job = a.job AND r.row = a.row"):
    """Runs `n` tags of `chip_spec` through a job (TEMPLATE's ≈100-byte URL) and measures each done attempt's
    `phases` against `sequence(length)`; `length` names the message length column and its join."""
    folder = os.path.join(WORK, name)
    spec = f"{chip_spec}&count={n}"
    manifest = make_job(folder, name, n, lock=lock, readers=[spec], tag=tag, template=TEMPLATE)
    log(f"{name.upper()}: {n} tags on {spec}")
    summary, wall, _, cmd = provision_run(manifest, [spec])
    columns = ", ".join(f"a.{phase}_us" for phase in phases)
    rows = ledger_rows(folder, f"SELECT {columns}, a.exchanges, a.airtime_us, {length} WHERE a.outcome = 'done'")
    samples = [(sum(r[i] or 0 for i in range(len(phases))), *r[len(phases):], None) for r in rows]
    result = floor_figures(samples, sequence, cmd, wall)
    result["summary_exchanges_per_tag"] = summary.get("exchanges_per_tag")
    return result


def floor_figures(samples, sequence, cmd, wall):
    """B6a's and B6b's figures against the radio floor `sequence(length)` → (count, µs, parts): `samples` are
    (measured µs, APDUs, modelled airtime µs or None, message length, ledger µs or None), one per done tag."""
    measured_ratio, airtime_ratio, software_ms, exchanges, ledger_ms = [], [], [], [], []
    for measured, exch, air, length, ledger in samples:
        _, floor, _ = sequence(length)
        measured_ratio.append(measured / floor)
        if air:
            airtime_ratio.append(air / floor)
            software_ms.append((measured - air) / 1000)
        if ledger is not None:
            ledger_ms.append(ledger / 1000)
        exchanges.append(exch)
    typical = int(round(statistics.median(s[3] for s in samples)))
    count, floor, parts = sequence(typical)
    result = {
        "tags": len(samples), "command": " ".join(cmd), "wall_s": rnd(wall), "message_bytes_typical": typical,
        "measured_over_floor_median": rnd(statistics.median(measured_ratio), 4),
        "measured_over_floor_p95": rnd(pct(measured_ratio, 0.95), 4),
        "line_airtime_over_floor_median": rnd(statistics.median(airtime_ratio), 4) if airtime_ratio else None,
        "software_ms_per_tag_median": rnd(statistics.median(software_ms)) if software_ms else None,
        "software_ms_per_tag_p95": rnd(pct(software_ms, 0.95)) if software_ms else None,
        "floor_ms_typical": rnd(floor / 1000), "minimum_apdus": count,
        "floor_sequence": [{"command": p[0], "count": p[1], "airtime_ms": rnd(p[2] / 1000)} for p in parts],
        "apdus_per_tag_mean": rnd(statistics.mean(exchanges), 2), "apdus_per_tag_max": max(exchanges),
    }
    if ledger_ms:
        result.update({"ledger_ms_per_tag_median": rnd(statistics.median(ledger_ms)),
                       "ledger_ms_per_tag_p95": rnd(pct(ledger_ms, 0.95))})
    return result
