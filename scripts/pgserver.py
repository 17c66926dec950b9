"""A throwaway PostgreSQL server for the benchmarks and the reliability run (reference: docs/reference/postgres.md §1).

`with PGServer() as pg:` runs initdb -N and pg_ctl as the `postgres` OS user (via setpriv when run as root),
a Unix socket in a short temporary folder, no TCP, fsync and synchronous_commit on; `pg.create_database(name)`
gives a fresh database and `pg.uri(name)` its libpq URI (no password: trust on the socket only). The server is
stopped with `-m immediate` and its folder removed on exit. `pg.stop_immediately()` and `pg.start()` model a
server crash and restart mid-job. A server that cannot start raises with its log: callers fail, never skip.
"""
import os
import pwd
import shutil
import subprocess
import tempfile
import urllib.parse


def bindir():
    """PostgreSQL's server binaries (not on PATH on Debian): `pg_config --bindir`."""
    try:
        return subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as error:
        raise RuntimeError(f"pg_config not found or failed ({error}); install postgresql and libpq-dev") from error


class PGServer:
    PORT = 5432

    def __init__(self, user="postgres"):
        self.bin = bindir()
        self.user = user
        self.folder = None

    def _as_server_user(self, *args):
        if os.geteuid() != 0:
            return list(args)
        entry = pwd.getpwnam(self.user)
        return ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups", "--",
                "env", f"HOME={self.folder}", *args]

    def _run(self, *args, timeout=120):
        done = subprocess.run(self._as_server_user(*args), capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            log = self.server_log()
            raise RuntimeError(f"{' '.join(args[:2])} failed ({done.returncode}): {done.stderr.strip()}\n{log}")
        return done

    def server_log(self):
        path = os.path.join(self.folder or "", "server.log")
        return open(path).read()[-2000:] if self.folder and os.path.exists(path) else ""

    def __enter__(self):
        # Short: a Unix socket path is limited to 107 bytes.
        self.folder = tempfile.mkdtemp(prefix="pg.", dir="/tmp")
        os.chmod(self.folder, 0o755)
        if os.geteuid() == 0:
            entry = pwd.getpwnam(self.user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        self._run(os.path.join(self.bin, "initdb"), "-D", self.data, "-U", "ledger", "-A", "trust", "-E", "UTF8",
                  "--locale=C", "-N")
        self.start()
        return self

    @property
    def data(self):
        return os.path.join(self.folder, "data")

    def start(self):
        options = (f"-c listen_addresses='' -k {self.folder} -p {self.PORT} -c fsync=on -c synchronous_commit=on "
                   "-c max_connections=200")
        self._run(os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-l", os.path.join(self.folder, "server.log"),
                  "-w", "-t", "30", "start", "-o", options)

    def stop_immediately(self):
        """An immediate stop: no shutdown checkpoint, every client's connection dropped (a crash, for clients)."""
        self._run(os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-m", "immediate", "-w", "stop")

    def psql(self, sql, database="postgres"):
        done = subprocess.run([os.path.join(self.bin, "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                               "-h", self.folder, "-p", str(self.PORT), "-U", "ledger", "-d", database, "-c", sql],
                              capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(f"psql failed: {done.stderr.strip()}")
        return done.stdout.strip()

    def create_database(self, name):
        self.psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self.psql(f'CREATE DATABASE "{name}"')
        return self.uri(name)

    def uri(self, database):
        host = urllib.parse.quote(self.folder, safe="")
        return f"postgresql://ledger@{host}:{self.PORT}/{database}"

    def __exit__(self, *exc):
        try:
            if os.path.exists(os.path.join(self.data, "postmaster.pid")):
                self.stop_immediately()
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
        return False


if __name__ == "__main__":
    with PGServer() as server:
        uri = server.create_database("check")
        print(uri, server.psql("SELECT version()", "check"))
