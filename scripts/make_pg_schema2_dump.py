"""Makes Tests/Fixtures/ledger-dumps/postgresql-schema2.sql: a PostgreSQL ledger at schema version 2, written by a
`provision` binary of that release, which the migration test restores and upgrades (issue 43 item 5), so no old
build runs in the test. Run once, with the old release's binary:

    python3 scripts/make_pg_schema2_dump.py /path/to/old/provision

Two stations program two sample jobs into one ledger: jobs/sun.json (NTAG 424 DNA: key journal, SUN counters) as
station-a and jobs/auth.json (NTAG21x, protected, MACed URLs) as station-b. The dump is plain SQL without owners or
privileges, so it restores into any database.
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from pgserver import PGServer  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "Fixtures", "ledger-dumps", "postgresql-schema2.sql")
ENV = {
    "PROVISION_SAMPLE_SUN_MASTER_KEY": "000102030405060708090A0B0C0D0E0F",
    "PROVISION_SAMPLE_BRAND_KEY": "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
}


def main(binary):
    work = tempfile.mkdtemp(prefix="schema2-")
    shutil.copytree(os.path.join(ROOT, "jobs"), os.path.join(work, "jobs"))
    shutil.copytree(os.path.join(ROOT, "templates"), os.path.join(work, "templates"))
    env = dict(os.environ, **ENV)
    with PGServer() as pg:
        uri = pg.create_database("schema2")
        runs = [
            ["ledger", "migrate", "--ledger", uri],
            ["run", "jobs/sun.json", "--ledger", uri, "--station", "station-a", "--quiet",
             "--reader", "sim:ntag424?count=3&uid=04D20000000001"],
            ["run", "jobs/auth.json", "--ledger", uri, "--station", "station-b", "--quiet",
             "--reader", "sim:ntag215?count=4&uid=04A20000000001"],
        ]
        for arguments in runs:
            done = subprocess.run([binary] + arguments, cwd=work, env=env, capture_output=True, text=True)
            # A run that stops before the job's end (these readers present only a few tags) exits 1.
            if done.returncode not in ((0, 1) if arguments[0] == "run" else (0,)):
                raise SystemExit(f"{' '.join(arguments[:2])} failed ({done.returncode}): {done.stderr}")
        version = pg.psql("SELECT version FROM ledger_schema", "schema2")
        if version != "2":
            raise SystemExit(f"the binary wrote schema version {version}, not 2")
        dump = subprocess.run(
            [os.path.join(pg.bin, "pg_dump"), "-h", pg.folder, "-p", str(pg.PORT), "-U", "ledger", "--no-owner",
             "--no-privileges", "schema2"], capture_output=True, text=True, check=True).stdout
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as out:
        out.write(dump)
    shutil.rmtree(work)
    print(f"wrote {OUT} ({len(dump)} bytes, schema version {version})")


if __name__ == "__main__":
    main(sys.argv[1])
