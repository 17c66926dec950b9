#!/usr/bin/env bash
# Install test (make install-test; CI runs it after make test): builds the package, installs it with apt-get into
# THIS machine, runs what a plant runs, verifies the units, purges, and checks that nothing the package installed
# is left. As root, or with sudo. A provision user it had to create is removed again at the end.
#   scripts/install_test.sh [--no-build]   (--no-build: package the release binary already built)
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
phase_start=$(date +%s)
phase() {
    local now
    now=$(date +%s)
    echo "install-test: $1 ($((now - phase_start)) s since the last step)"
    phase_start=$now
}
fail() {
    echo "install-test: FAILED: $*" >&2
    exit 1
}

if dpkg-query -W -f='${Status}' provision 2>/dev/null | grep -q "ok installed"; then
    fail "provision is already installed on this machine: purge it first (apt-get purge provision)"
fi
had_user=0
getent passwd provision >/dev/null && had_user=1

scripts/make_deb.sh "$@"
version=$(scripts/build_version.sh)
deb=dist/provision_${version}-1_$(dpkg --print-architecture).deb
[ -f "$deb" ] || fail "$deb was not built"
phase "package built: $deb ($(du -h "$deb" | cut -f1))"

# What the package holds, and which of its folders exist before it is installed (those stay after purge).
mapfile -t paths < <(dpkg-deb -c "$deb" | awk '{ print $6 }' | sed -e 's|^\./|/|' -e 's|/$||' | grep -v '^/\?$')
existing=()
for path in "${paths[@]}"; do
    [ -e "$path" ] && existing+=("$path")
done

$SUDO apt-get install -y -qq "./$deb" >/dev/null
phase "installed with apt-get"

# provision --version: the stamped version, from the installed binary.
first=$(provision --version | head -n 1)
[ "$first" = "provision $version" ] || fail "provision --version says '$first', expected 'provision $version'"
provision --version
# provision doctor: nothing fails (warnings allowed: a CI machine has no reader and no NTP).
provision doctor || fail "provision doctor reported a failed check (exit $?)"

# The sample job from the installed examples on the simulated reader, started as provision-station@.service
# starts it: user provision, the installed start script, a station environment file's variables (JOB, READERS…),
# the working directory the unit's would be. Every row done, the reports written.
# setpriv execs (runuser would fork), so a PID taken below is provision's own (sudo, when not root, relays
# signals to its child).
as_provision=(setpriv --reuid=provision --regid=provision --init-groups)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r /usr/share/doc/provision/examples/jobs /usr/share/doc/provision/examples/templates "$work/"
chown -R provision:provision "$work"
(cd "$work" && $SUDO "${as_provision[@]}" env JOB=jobs/batch.json \
    READERS='sim:ntag215?timing=datasheet&store=../reports/batch/tags' STATION= LEDGER= PUBLISH= \
    /usr/libexec/provision/provision-service station > "$work/station.log" 2>&1) ||
    fail "the sample job through the station unit's start script failed (exit $?): $(tail -n 5 "$work/station.log")"
python3 - "$work" <<'PY'
import json, os, sys
work = sys.argv[1]
summary = json.load(open(os.path.join(work, "reports", "batch", "summary.json")))
rows = summary["rows"]
assert rows["done"] == rows["total"] > 0, f"rows: {rows}"
for name in ("summary.json", "summary.md", "tags.csv", "report.html", "ledger.sqlite"):
    path = os.path.join(work, "reports", "batch", name)
    assert os.path.getsize(path) > 0, f"{path} missing or empty"
print(f"install-test: sample job as the station unit runs it: {rows['done']} of {rows['total']} rows done, "
      "reports in reports/batch/")
PY
phase "ran --version, doctor and the sample job"

# provision serve as the serve unit starts it (user provision, the installed start script, serve.env's variables):
# the SUN sample job runs first (serve needs its ledger), then /healthz answers 200 on the socket, SIGTERM exits 0.
serve=$(mktemp -d)
trap 'rm -rf "$work" "$serve"' EXIT
cp -r /usr/share/doc/provision/examples/jobs /usr/share/doc/provision/examples/templates "$serve/"
chown -R provision:provision "$serve"
sample_key=000102030405060708090A0B0C0D0E0F # jobs/sun.json's documented sample key, never for real tags
(cd "$serve" && $SUDO "${as_provision[@]}" env PROVISION_SAMPLE_SUN_MASTER_KEY=$sample_key \
    provision run jobs/sun.json --quiet) || fail "the SUN sample job failed (exit $?)"
(cd "$serve" && exec $SUDO "${as_provision[@]}" env PROVISION_SAMPLE_SUN_MASTER_KEY=$sample_key \
    MANIFESTS="$serve/jobs/sun.json" LISTEN="unix:$serve/serve.sock" /usr/libexec/provision/provision-service serve \
    > "$serve/serve.log" 2>&1) &
serve_pid=$!
python3 - "$serve/serve.sock" <<'PY' || { kill -TERM "$serve_pid"; fail "serve: $(cat "$serve/serve.log")"; }
import http.client, os, socket, sys, time
path = sys.argv[1]
deadline = time.monotonic() + 30
while not os.path.exists(path):
    if time.monotonic() > deadline:
        sys.exit("no socket after 30 s")
    time.sleep(0.1)
class UnixConnection(http.client.HTTPConnection):
    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
connection = UnixConnection("localhost")
connection.request("GET", "/healthz")
answer = connection.getresponse()
body = answer.read().decode()
assert answer.status == 200, f"/healthz: {answer.status} {body}"
print(f"install-test: provision serve through the unit's start script: /healthz {answer.status} {body.strip()}")
PY
kill -TERM "$serve_pid"
wait "$serve_pid" || fail "serve did not stop cleanly on SIGTERM (exit $?): $(cat "$serve/serve.log")"
[ ! -e "$serve/serve.sock" ] || fail "serve left its socket behind"
phase "ran provision serve as its unit does"

# man provision-run: the generated page is installed and renders without warnings.
[ -f /usr/share/man/man1/provision-run.1.gz ] ||
    fail "no /usr/share/man/man1/provision-run.1.gz after install: does dpkg exclude man pages here" \
        "(path-exclude in /etc/dpkg/dpkg.cfg.d/)?"
page=$(MANWIDTH=80 man provision-run 2>"$work/man.err") || fail "man provision-run failed: $(cat "$work/man.err")"
[ ! -s "$work/man.err" ] || fail "man provision-run warned: $(cat "$work/man.err")"
grep -q "SYNOPSIS" <<<"$page" || fail "man provision-run has no SYNOPSIS"
echo "install-test: man provision-run: $(wc -l <<<"$page") lines"

# The units: systemd-analyze verify exits 0 even on unknown keys, so any output is a failure.
for unit in provision-station@test.service provision-serve.service; do
    out=$(systemd-analyze verify "$unit" 2>&1) || fail "systemd-analyze verify $unit: $out"
    [ -z "$out" ] || fail "systemd-analyze verify $unit: $out"
    echo "install-test: systemd-analyze verify $unit: clean"
    systemd-analyze security --offline=yes "$unit" 2>/dev/null | tail -n 1 | sed "s/^/install-test: $unit: /"
done
phase "man page and units checked"

$SUDO apt-get purge -y -qq provision >/dev/null
phase "purged"
left=()
for path in "${paths[@]}"; do
    keep=0
    for before in "${existing[@]}"; do [ "$before" = "$path" ] && keep=1; done
    if [ "$keep" = 0 ] && [ -e "$path" ]; then left+=("$path"); fi
done
[ "${#left[@]}" = 0 ] || fail "left after purge: ${left[*]}"
if dpkg-query -W provision >/dev/null 2>&1; then fail "dpkg still knows provision after purge"; fi
echo "install-test: purge left none of the package's ${#paths[@]} paths"
if [ "$had_user" = 0 ] && getent passwd provision >/dev/null; then
    $SUDO deluser --system --quiet provision >/dev/null 2>&1 || true
    $SUDO delgroup --system --quiet provision >/dev/null 2>&1 || true
fi
echo "install-test: passed"
