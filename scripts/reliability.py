#!/usr/bin/env python3
"""`make reliability`: crash, tear, bad-input, misbehaving-reader and environment-fault figures.

Writes reports/reliability.md and reports/reliability.json from this very run. Sections:
  crash     a job on the simulator (store=DIR, timing=datasheet) SIGKILLed at random moments,
            rerun until done; invariants checked after every kill and at the end
  corpus    every case of Tests/Fixtures/bad/ through `validate` and `run` (sim store must stay empty)
  env       read-only ledger folder, full disk, locked ledger, unwritable reports folder (root only)
  swift     the tear and misbehaving-reader suites (Swift tests), which write their own figures
  readers   misbehaving readers and tags (Type 2; Type 4 as pn532-type4, vpcd-type4) through the PN532 emulator
            (stock libnfc) and the vpcd card (stock pcscd): every kind at every exchange position, then the reader vanishing mid-job
            (gone for good: 69 after --reader-timeout; and gone mid-write then back: the run finishes every row)
            (scripts/reliability_readers.py)

A run of some sections (--only) keeps the other sections of the existing reports/reliability.json,
each section saying which command and run produced it.

  crash4    the crash test on Type 4 tags (a generic T4T, locked through its CC write byte)
  crash424  the crash test on keyed NTAG 424 DNA personalisation (every key a tag holds is one the ledger names)
  crash5    the crash test on Type 5 tags (ICODE SLIX2, locked by the CC's write access and Lock Block)
  crash3    the crash test on Type 3 tags (FeliCa Lite-S, locked by RWFlag 00 and the MC)
  (crash --family kmem: TestSupport's keyed memory family through provision-testfamilies, its kmem: reader's
            tags saved as DIR/<UID>.json; every key a tag holds is one the ledger names; CrashTests runs it)
  stations  4 stations on one job through a PostgreSQL ledger: random stations SIGKILLed (--kills in all) and
            restarted, 3 immediate server stops, one station frozen past its lease (scripts/reliability_stations.py)

Usage: scripts/reliability.py [--kills 50] [--rows 300] [--seed N]
                              [--only crash,crash4,crash424,crash5,crash3,stations,corpus,env,swift,readers]
                              [--positions 1-16] [--paths pn532,vpcd,pn532-type4,vpcd-type4]
       scripts/reliability.py crash [--family type4|type5|kmem] --kills 5 --rows 40 --json OUT   (the short form `swift test` runs)
"""
import argparse, hashlib, json, os, random, shutil, signal, sqlite3, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROVISION = os.environ.get("PROVISION", os.path.join(ROOT, ".build", "debug", "provision"))
TEMPLATE = ('{"records": [{"type": "uri", "uri": "https://example.com/p/{{sku}}/{{serial}}?u={{uid}}"},\n'
            '             {"type": "text", "text": "{{name}}", "lang": "en"}]}\n')


# The families the crash test runs: the manifest's tag and extra keys, the simulated chip, and the image layout
# (Type 2: the TLV area from byte 16; Type 4 generic, mapping 2.0: a 15-byte CC whose byte 14 is the NDEF file's
# write access, FFh once locked, then the NDEF file with its 2-byte NLEN).
FAMILIES = {
    "type2": {"tag": "ntag215", "extra": {}, "sim": "ntag215"},
    "type4": {"tag": "type4", "extra": {"type4": {"minimumFileSize": 512, "honoursCCWriteByte": True}},
              "sim": "type4?size=512"},
    # Keyed NTAG 424 DNA personalisation (SUN URL, lock permanent): the sample master key is for this test only.
    "ntag424": {"tag": "ntag424", "sim": "ntag424",
                "extra": {"keys": {"brand": {"env": "PROVISION_CRASH_MASTER"}}, "ntag424": {"master": "brand"}},
                "env": {"PROVISION_CRASH_MASTER": "000102030405060708090A0B0C0D0E0F"},
                "template": ('{"records": [{"type": "uri", "uri": '
                             '"https://example.com/p/{{sku}}/{{serial}}?e={{sun.picc}}&c={{sun.mac}}"},\n'
                             '             {"type": "text", "text": "{{name}}", "lang": "en"}]}\n')},
    # Type 5: an ICODE SLIX2 image is 80 blocks of 4 bytes, then one security status byte per block.
    "type5": {"tag": "icode-slix2", "extra": {}, "sim": "icode-slix2", "uid": "E004010800000001"},
    # Type 3: a FeliCa Lite-S image is 28 blocks of 16 bytes (S_PAD0–13, REG, 80h–88h, 90h–92h, A0h), named by IDm.
    "type3": {"tag": "felica-lite-s", "extra": {}, "sim": "felica-lite-s"},
    # TestSupport's keyed memory family (KMEM-1, keys K0/K1, a KMAC URL), only in the provision-testfamilies build:
    # its kmem: reader keeps each tag as DIR/<UID>.json, saved after every change; 8 ms per exchange so kills land.
    "kmem": {"tag": "kmem-1", "executable": "provision-testfamilies",
             "reader": "kmem:{store}?count={rows}&delay=8",
             "extra": {"keys": {"brand": {"env": "PROVISION_CRASH_MASTER"}}, "keyedmem": {"master": "brand"}},
             # Not the sample key: a kmem: reader is not sim:, so the CLI refuses published test keys on it.
             "env": {"PROVISION_CRASH_MASTER": "C0C1C2C3C4C5C6C7C8C9CACBCCCDCECF"},
             "template": ('{"records": [{"type": "uri", "uri": '
                          '"https://example.com/p/{{sku}}/{{serial}}'
                          '?u={{kmem.uid}}&c={{kmem.ctr}}&m={{kmem.mac}}"}]}\n')},
}
TYPE5_IMAGE = 80 * 4 + 80
TYPE3_IMAGE = 28 * 16
TYPE3_MC = 23 * 16  # block 88h (MC) in the image


def make_job(folder, rows, lock=True, family="type2"):
    with open(os.path.join(folder, "rows.csv"), "w") as handle:
        handle.write("sku,name\n" + "".join(f"SKU-{i},Item {i}\n" for i in range(1, rows + 1)))
    with open(os.path.join(folder, "template.json"), "w") as handle:
        handle.write(FAMILIES[family].get("template", TEMPLATE))
    manifest = {"job": "t", "template": "template.json", "records": "rows.csv", "tag": FAMILIES[family]["tag"],
                "lock": "permanent" if lock else "none", "retries": 2, "onFailure": "reuse",
                "serial": {"start": 1, "width": 5, "prefix": "S"}, **FAMILIES[family]["extra"]}
    with open(os.path.join(folder, "job.json"), "w") as handle:
        json.dump(manifest, handle)


# --- tag images (nfc-mfultralight layout: page 4 on is the TLV area; NTAG215 user memory 504 bytes)

def tlv_message(image, start=16, size=496):
    """The NDEF message in the TLV area of an image, or None when there is none / it is malformed."""
    area, i = image[start:start + size], 0
    while i < len(area):
        kind = area[i]
        if kind == 0x00:
            i += 1
            continue
        if kind == 0xFE or i + 1 >= len(area):
            return None
        length, i = area[i + 1], i + 2
        if length == 0xFF:
            if i + 2 > len(area):
                return None
            length, i = (area[i] << 8) | area[i + 1], i + 2
        if kind == 0x03:
            return bytes(area[i:i + length]) if i + length <= len(area) else None
        i += length
    return None


def ndef_well_formed(message):
    """Walks the NDEF records: MB on the first, ME on the last, lengths inside the message."""
    i, first = 0, True
    while i < len(message):
        header = message[i]
        if bool(header & 0x80) != first or header & 0x20:
            return False
        short, has_id = header & 0x10, header & 0x08
        i += 1
        if i >= len(message):
            return False
        type_length, i = message[i], i + 1
        if short:
            if i >= len(message):
                return False
            payload, i = message[i], i + 1
        else:
            if i + 4 > len(message):
                return False
            payload, i = int.from_bytes(message[i:i + 4], "big"), i + 4
        id_length = 0
        if has_id:
            if i >= len(message):
                return False
            id_length, i = message[i], i + 1
        i += type_length + id_length + payload
        if i > len(message):
            return False
        if header & 0x40:
            return i == len(message)
        first = False
    return False


def image_state(store, uid):
    path = os.path.join(store, uid.upper() + ".bin")
    if os.path.exists(os.path.join(store, uid.upper() + ".json")):  # FAMILIES["kmem"]: the message as written
        state = kmem_state(store, uid)
        return bytes(state["message"]) or None, state["locked"], state["locked"]
    if not os.path.exists(path):
        return None, False, False
    image = open(path, "rb").read()
    if len(image) >= NTAG424_FILES and image[:2] == b"\x00\x17":  # NTAG 424 DNA: CC 32, NDEF file 256, file 03
        length = int.from_bytes(image[32:34], "big")
        message = bytes(image[34:34 + length]) if 0 < length <= 254 else None
        return message, image[14] == 0xFF, image[14] == 0xFF
    if len(image) == 15 + 512:  # FAMILIES["type4"]: NLEN 0 is no message, as an empty TLV is
        length = int.from_bytes(image[15:17], "big")
        message = bytes(image[17:17 + length]) if 0 < length <= 510 else None
        return message, image[14] == 0xFF, image[14] == 0xFF
    if len(image) == TYPE5_IMAGE and image[0] == 0xE1:  # FAMILIES["type5"]: CC, TLVs from byte 4 (block 79 is
        message = tlv_message(image, 4, 79 * 4 - 4)     # the counter); lock: CC write access 11b + Lock Block
        header = 0 if message is None else (2 if len(message) < 0xFF else 4)
        last = (4 + header + len(message or b"")) // 4
        statuses = image[320:320 + last + 1]
        fully = image[1] & 0x03 == 0x03 and all(status == 1 for status in statuses)
        return message, fully, image[1] & 0x03 != 0 or any(status == 1 for status in image[320:])
    if len(image) == TYPE3_IMAGE:  # FAMILIES["type3"]: the attribute block, then the message from block 1
        length = int.from_bytes(image[11:14], "big")
        message = bytes(image[16:16 + length]) if 0 < length <= 13 * 16 and image[9] == 0x00 else None
        mc = image[TYPE3_MC:TYPE3_MC + 16]
        fully = image[10] == 0x00 and mc[2] == 0x00 and mc[8:12] == b"\xff\x3f\xff\x3f"
        return message, fully, image[10] == 0x00 or mc[2] == 0x00 or mc[8] != 0x00
    message = tlv_message(image)
    fully_locked = image[10:12] == b"\xff\xff" and image[15] == 0x0F
    partly_locked = image[10:12] != b"\x00\x00" or image[15] == 0x0F
    return message, fully_locked, partly_locked


NTAG424_FILES = 32 + 256 + 128


def ntag424_keys(image):
    """(fingerprint, version) of K0–K4 from an NTAG 424 DNA image's N424 trailer; delivery keys without one."""
    factory = [(fingerprint(bytes(16)), 0)] * 5
    trailer = image[NTAG424_FILES:]
    if trailer[:4] != b"N424":
        return factory
    entry = 17 if trailer[4] == 1 else 19
    return [(fingerprint(trailer[7 + k * entry:7 + k * entry + 16]), trailer[7 + k * entry + 16]) for k in range(5)]


def kmem_state(store, uid):
    """A keyed memory tag's saved state (message, keys, versions, settings, counter, locked)."""
    with open(os.path.join(store, uid.upper() + ".json")) as handle:
        return json.load(handle)


KMEM_DELIVERY = bytes([0x4B] * 16)


def held_keys(store):
    """(uid, delivery fingerprint, [(fingerprint, version) of each key]) of every keyed tag in `store`: NTAG 424
    DNA images (K0–K4) and keyed memory tags (K0, K1)."""
    for name in sorted(os.listdir(store)) if os.path.isdir(store) else []:
        uid = name.rsplit(".", 1)[0].upper()
        if name.endswith(".json"):
            state = kmem_state(store, uid)
            keys = [(fingerprint(bytes(key)), version) for key, version in zip(state["keys"], state["versions"])]
            yield uid, fingerprint(KMEM_DELIVERY), keys
        elif name.endswith(".bin"):
            image = open(os.path.join(store, name), "rb").read()
            if len(image) >= NTAG424_FILES and image[:2] == b"\x00\x17":  # an NTAG 424 DNA's CC starts 00 17
                yield uid, fingerprint(bytes(16)), ntag424_keys(image)


_FINGERPRINTS = {}


def fingerprint(key):
    """The ledger's fingerprint of an AES tag key (scheme v1, docs/keys.md): `v1:` and the first 8 bytes of
    AES-CMAC(K, "provision key fingerprint v1"), upper-case hex, computed by the openssl command (libcrypto)."""
    key = bytes(key)
    if key not in _FINGERPRINTS:
        mac = subprocess.run(
            ["openssl", "mac", "-cipher", "AES-128-CBC", "-macopt", "hexkey:" + key.hex(), "CMAC"],
            input=b"provision key fingerprint v1", capture_output=True, check=True).stdout.decode().strip()
        _FINGERPRINTS[key] = "v1:" + mac[:16].upper()
    return _FINGERPRINTS[key]


def key_violations(query, store, final):
    """Keyed tags (NTAG 424 DNA, keyed memory): every key a tag holds is the delivery key or one the key journal
    names for it; at the end every done tag holds the journal's new keys (version 01) and no change is left open."""
    problems = []
    named = {}
    for uid, number, old, new, state in query(
            "SELECT uid, key_number, old_fingerprint, new_fingerprint, state FROM key_changes"):
        named.setdefault((uid.upper(), int(number)), []).append((old, new, state))
    done = {uid.upper() for (uid,) in query("SELECT uid FROM tags")}
    for uid, factory, keys in held_keys(store):
        for number, (held, version) in enumerate(keys):
            changes = named.get((uid, number), [])
            allowed = {factory} | {fp for old, new, _ in changes for fp in (old, new)}
            if held not in allowed:
                problems.append(f"tag {uid}: K{number} is a key the ledger cannot name")
            if final and uid in done:
                wanted = [new for _, new, state in changes if state == "done"]
                if not wanted or held != wanted[-1] or version != 1:
                    problems.append(f"tag {uid}: K{number} is not the job's key (version {version})")
            if final and any(state == "intended" for _, _, state in changes):
                problems.append(f"tag {uid}: K{number} has a change left open")
    return problems


def sha(data):
    return hashlib.sha256(data).hexdigest()


def check_invariants(folder, rows, final, ledger=None):
    """Violations of the crash-test invariants in a job's SQLite ledger, as strings."""
    ledger = ledger or os.path.join(folder, "reports", "t", "ledger.sqlite")
    if not os.path.exists(ledger):
        return [] if not final else ["no ledger"]
    db = sqlite3.connect(f"file:{ledger}?mode=ro", uri=True)
    try:
        if not final and db.execute("SELECT count(*) FROM sqlite_master WHERE name='records'").fetchone()[0] == 0:
            return []  # killed while the ledger file was being created (its schema is one transaction)
        keys = db.execute("SELECT count(*) FROM sqlite_master WHERE name='key_changes'").fetchone()[0] == 1
        return ledger_violations(lambda sql: db.execute(sql).fetchall(), os.path.join(folder, "tags"), rows, final,
                                 keys=keys)
    finally:
        db.close()


def ledger_violations(query, store, rows, final, keys=True):
    """Violations of the crash-test invariants in job t of a ledger read through `query` (SQL → rows of values,
    SQLite's or psql's text), every done row's tag image in `store` checked against it."""
    problems = []
    states = {state: int(n) for state, n in query("SELECT state, count(*) FROM records WHERE job='t' GROUP BY state")}
    if not final and not states:
        return []  # killed while the job was being set up (no row inserted yet): nothing to lose
    if sum(states.values()) != rows:
        problems.append(f"row lost: {sum(states.values())} records for {rows} rows")
    doubled = tuple(int(n) for n in query("SELECT count(*) - count(DISTINCT row), count(*) - count(DISTINCT uid) "
                                          "FROM tags")[0])
    if doubled != (0, 0):
        problems.append(f"row or uid done twice: {doubled}")
    mismatch = int(query("SELECT count(*) FROM records r LEFT JOIN tags g ON g.job=r.job AND g.row=r.row WHERE "
                         "(r.state='done') != (g.row IS NOT NULL) OR (r.state='done' AND r.uid != g.uid)")[0][0])
    if mismatch:
        problems.append(f"{mismatch} records disagree with tags")
    for uid, row, digest, locked in query("SELECT uid, row, bytes_sha256, locked FROM tags"):
        message, fully_locked, _ = image_state(store, uid)
        if message is None:
            problems.append(f"row {row}: tag {uid} image holds no NDEF message")
        elif sha(message) != digest.lower():
            problems.append(f"row {row}: tag {uid} image message differs from the ledger")
        elif not ndef_well_formed(message):
            problems.append(f"row {row}: tag {uid} image message does not decode")
        if int(locked or 0) and not fully_locked:
            problems.append(f"row {row}: ledger says locked, image is not")
    if keys and int(query("SELECT count(*) FROM key_changes")[0][0]):
        problems += key_violations(query, store, final)
    if final and states.get("done", 0) != rows:
        problems.append(f"job not complete: {states}")
    return problems


def job_has_rows(folder):
    ledger = os.path.join(folder, "reports", "t", "ledger.sqlite")
    if not os.path.exists(ledger):
        return False
    db = sqlite3.connect(f"file:{ledger}?mode=ro", uri=True)
    try:
        return db.execute("SELECT count(*) FROM sqlite_master WHERE name='records'").fetchone()[0] == 1 and \
            db.execute("SELECT count(*) FROM records").fetchone()[0] > 0
    finally:
        db.close()


def claimed_rows(folder):
    ledger = os.path.join(folder, "reports", "t", "ledger.sqlite")
    if not os.path.exists(ledger):
        return []
    db = sqlite3.connect(f"file:{ledger}?mode=ro", uri=True)
    try:
        return db.execute("SELECT row, uid FROM records WHERE state='claimed'").fetchall()
    finally:
        db.close()


def classify(folder, claims, final_digests):
    """The phase a kill hit, from the claimed row's tag image at kill time and the row's final message."""
    if claims is None:
        return "job setup (before the rows were inserted)"
    if not claims:
        return "between tags (detect, claim or removal)"
    row, uid = claims[0]
    if uid is None:
        return "claim"
    message, fully_locked, partly_locked = image_state(os.path.join(folder, "tags"), uid)
    final = final_digests.get(row)
    if message is not None and final is not None and sha(message) == final:
        if fully_locked:
            return "ledger commit"
        return "lock" if partly_locked else "verify or lock"
    return "write"


def crash_test(kills, rows, seed, keep=None, family="type2"):
    rng = random.Random(seed)
    folder = tempfile.mkdtemp(prefix="reliability-crash-")
    make_job(folder, rows, family=family)
    if "reader" in FAMILIES[family]:
        spec = FAMILIES[family]["reader"].format(store=f"{folder}/tags", rows=rows)
    else:
        chip = FAMILIES[family]["sim"]
        uid = FAMILIES[family].get("uid", "04000000000001")
        spec = f"sim:{chip}{'&' if '?' in chip else '?'}uid={uid}&store={folder}/tags&timing=datasheet"
    # PROVISION when set (CrashTests sets it), else the family's build product.
    executable = os.environ.get("PROVISION") or os.path.join(ROOT, ".build", "debug",
                                                             FAMILIES[family].get("executable", "provision"))
    command = [executable, "run", "job.json", "--reader", spec, "--quiet"]
    environment = {**os.environ, **FAMILIES[family].get("env", {})}
    snapshots, violations, done_runs, started = [], [], 0, time.time()
    for index in range(kills):
        process = subprocess.Popen(command, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   env=environment)
        time.sleep(rng.uniform(0.05, 0.8))
        if process.poll() is not None:
            done_runs += 1
            break
        process.send_signal(signal.SIGKILL)
        process.wait()
        claims = claimed_rows(folder) if job_has_rows(folder) else None
        images = {uid: image_state(os.path.join(folder, "tags"), uid) for _, uid in claims or [] if uid}
        snapshots.append((claims, images))
        for problem in check_invariants(folder, rows, final=False):
            violations.append(f"after kill {index + 1}: {problem}")
    final_run = subprocess.run(command, cwd=folder, capture_output=True, text=True, env=environment)
    violations += [f"final: {p}" for p in check_invariants(folder, rows, final=True)]
    db = sqlite3.connect(os.path.join(folder, "reports", "t", "ledger.sqlite"))
    final_digests = {row: digest.lower() for row, digest in db.execute("SELECT row, bytes_sha256 FROM tags")}
    final_uids = dict(db.execute("SELECT row, uid FROM records"))
    resumed = db.execute("SELECT count(*) FROM attempts WHERE outcome='done' AND row IN "
                         "(SELECT row FROM attempts GROUP BY row HAVING count(*) > 1)").fetchone()[0]
    db.close()
    phases, claims_left = {}, 0
    for claims, images in snapshots:
        if claims and claims[0][1]:
            row, uid = claims[0]
            message, fully_locked, partly_locked = images[uid]
            final = final_digests.get(row)
            if message is not None and final is not None and sha(message) == final:
                phase = "ledger commit" if fully_locked else ("lock" if partly_locked else "verify or lock")
            else:
                phase = "write"
        else:
            phase = classify(folder, claims, final_digests)
        phases[phase] = phases.get(phase, 0) + 1
        for row, uid in claims or []:
            claims_left += 1
            if uid is not None and final_uids.get(row) != uid:
                violations.append(f"claim of row {row} by {uid} finished by {final_uids.get(row)}")
    result = {"family": family, "rows": rows, "kills": len(snapshots), "killedRunsThatFinishedFirst": done_runs,
              "phasesHit": phases, "claimsLeftByKills": claims_left, "rowsWithMoreThanOneAttempt": resumed,
              "finalExit": final_run.returncode, "violations": violations, "seconds": round(time.time() - started, 1),
              "command": " ".join(command).replace(folder, "$DIR")}
    if final_run.returncode != 0:
        violations.append(f"final run exited {final_run.returncode}: {final_run.stderr[-300:]}")
    if keep is None:
        shutil.rmtree(folder)
    return result


# --- bad-input corpus through validate and run

def listing(folder):
    out = []
    for base, _, files in os.walk(folder):
        for name in files:
            out.append(os.path.relpath(os.path.join(base, name), folder))
    return sorted(out)


def corpus_test():
    bad = os.path.join(ROOT, "Tests", "Fixtures", "bad")
    names = sorted(n for n in os.listdir(bad) if os.path.isdir(os.path.join(bad, n)))
    misbehaving, kinds = [], {}
    for name in names:
        source = os.path.join(bad, name)
        folder = tempfile.mkdtemp(prefix="reliability-bad-")
        shutil.copytree(source, folder, dirs_exist_ok=True)
        expected = open(os.path.join(source, "expected.txt"), "rb").read()
        store = os.path.join(folder, "store")
        os.mkdir(store)
        before = listing(folder)
        command_file = os.path.join(source, "command.txt")
        commands = [open(command_file).read().split()] if os.path.exists(command_file) else [
            ["validate", "job.json"], ["run", "job.json", "--reader", f"sim:ntag213?uid=04000000000001&store={store}", "--quiet"]]
        kind = name.removeprefix("gen-").split("-")[0]
        kinds[kind] = kinds.get(kind, 0) + 1
        for command in commands:
            result = subprocess.run([PROVISION] + command, cwd=folder, capture_output=True)
            status_line = b"exit %d\n" % result.returncode
            if result.returncode not in (65, 66):
                misbehaving.append(f"{name}: {command[0]} exited {result.returncode}")
            if command[0] == "validate" and status_line + result.stderr != expected:
                misbehaving.append(f"{name}: validate message differs from expected.txt")
            if command[0] == "run" and not result.stderr.startswith(expected.split(b"\n", 1)[1].split(b"\n")[0]):
                misbehaving.append(f"{name}: run message does not start like validate's")
            if listing(folder) != before:
                misbehaving.append(f"{name}: {command[0]} created {sorted(set(listing(folder)) - set(before))}")
        shutil.rmtree(folder)
    return {"cases": len(names), "byKind": kinds, "misbehaving": misbehaving}


# --- environment faults (root: bind mounts, tmpfs)

def sh(*args, check=True):
    return subprocess.run(list(args), capture_output=True, text=True, check=check)


def env_test():
    from reliability_env import run_env_faults  # scripts/reliability_env.py
    return run_env_faults(PROVISION, make_job, check_invariants)


def swift_figures():
    out = tempfile.mkdtemp(prefix="reliability-swift-")
    env = dict(os.environ, PROVISION_RELIABILITY_OUT=out, LIBNFC_LOG_LEVEL="0")
    result = subprocess.run(["swift", "test", "--skip-build", "--filter", "TearTests|MisbehavingReaderTests"],
                            cwd=ROOT, env=env, capture_output=True, text=True)
    figures = {"exit": result.returncode}
    for name in sorted(os.listdir(out)):
        figures[name.removesuffix(".json")] = json.load(open(os.path.join(out, name)))
    if result.returncode != 0:
        figures["failures"] = [line for line in result.stdout.splitlines() if "✘" in line][:40]
    shutil.rmtree(out)
    return figures


SECTIONS = ("crash", "crash4", "crash424", "crash5", "crash3", "stations", "corpus", "env", "swift", "readers")


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser()
    parser.add_argument("section", nargs="?", default="all")
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--rows", type=int, default=300)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--json")
    parser.add_argument("--only", default=",".join(SECTIONS))
    parser.add_argument("--positions", default="1-16", help="exchange positions for the readers section: A-B or a list")
    parser.add_argument("--paths", default="pn532,vpcd,pn532-type4,vpcd-type4")
    parser.add_argument("--family", default="type2", choices=sorted(FAMILIES), help="crash section: the tag family")
    args = parser.parse_args()
    if args.section == "crash":
        result = crash_test(args.kills, args.rows, args.seed, family=args.family)
        text = json.dumps(result, indent=2)
        open(args.json, "w").write(text) if args.json else print(text)
        return 0 if not result["violations"] else 1
    sections = args.only.split(",")
    command = (f"scripts/reliability.py --kills {args.kills} --rows {args.rows} --seed {args.seed} --only {args.only}"
               + (f" --positions {args.positions} --paths {args.paths}" if "readers" in sections else ""))
    now = lambda: time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    run = {"command": command, "startedAt": now()}
    existing = os.path.join(ROOT, "reports", "reliability.json")
    report = json.load(open(existing)) if os.path.exists(existing) and set(sections) != set(SECTIONS) else {}
    runs = report.setdefault("sectionRuns", {})
    for old in ("crash", "corpus", "environment", "swift"):  # reports of version 1 name their run at the top
        if old in report and old not in runs:
            runs[old] = {key: report.get(key) for key in ("command", "startedAt", "finishedAt")}
    report.update({"version": 2, "command": command, "startedAt": run["startedAt"]})
    def section(name, value):
        report[name] = value
        runs[name] = dict(run, finishedAt=now())
    if "crash" in sections:
        section("crash", crash_test(args.kills, args.rows, args.seed))
    if "crash4" in sections:
        section("crash4", crash_test(args.kills, args.rows, args.seed, family="type4"))
    if "crash424" in sections:
        section("crash424", crash_test(args.kills, args.rows, args.seed, family="ntag424"))
    if "crash5" in sections:
        section("crash5", crash_test(args.kills, args.rows, args.seed, family="type5"))
    if "crash3" in sections:
        section("crash3", crash_test(args.kills, args.rows, args.seed, family="type3"))
    if "stations" in sections:
        from reliability_stations import stations_test  # scripts/reliability_stations.py
        section("stations", stations_test(PROVISION, make_job, ledger_violations, image_state, args.kills, args.rows,
                                          args.seed))
    if "corpus" in sections:
        section("corpus", corpus_test())
    if "env" in sections:
        section("environment", env_test())
    if "swift" in sections:
        section("swift", swift_figures())
    if "readers" in sections:
        from reliability_readers import readers_test  # scripts/reliability_readers.py
        if "-" in args.positions:
            first, last = map(int, args.positions.split("-"))
            positions = list(range(first, last + 1))
        else:
            positions = [int(p) for p in args.positions.split(",")]
        paths = tuple(args.paths.split(","))
        readers = readers_test(PROVISION, make_job, check_invariants, positions, paths)
        # Paths not run this time keep their figures (each path records its own positions).
        kept = {k: v for k, v in report.get("readers", {}).items() if k not in paths and k != "positions"}
        previous = runs.get("readers", {})
        for value in kept.values():
            value.setdefault("positions", report["readers"]["positions"])
            value.setdefault("run", {key: previous.get(key) for key in ("command", "startedAt", "finishedAt")})
        for value in readers.values():
            if isinstance(value, dict):
                value["run"] = dict(run, finishedAt=now())
        section("readers", {**kept, **readers})
    report["finishedAt"] = now()
    # Commands as seen from the checkout's root, without this machine's path to it.
    report = json.loads(json.dumps(report).replace(json.dumps(ROOT + "/")[1:-1], ""))
    os.makedirs(os.path.join(ROOT, "reports"), exist_ok=True)
    with open(os.path.join(ROOT, "reports", "reliability.json"), "w") as handle:
        json.dump(report, handle, indent=2)
    from reliability_markdown import render  # scripts/reliability_markdown.py
    with open(os.path.join(ROOT, "reports", "reliability.md"), "w") as handle:
        handle.write(render(report))
    print(render(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
