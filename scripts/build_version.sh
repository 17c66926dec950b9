#!/bin/sh
# The version a build is stamped with (provision --version, the Debian package): from `git describe`.
#   tag vX.Y.Z on HEAD        → X.Y.Z
#   N commits after vX.Y.Z    → X.Y.Z+N.gHASH
#   no v* tag                 → BASE+N.gHASH, N = commits in HEAD, BASE = the fallback in Sources/CBuildInfo/shim.h
# A work tree with uncommitted changes to tracked files appends ".dirty" (or "+dirty" after a bare X.Y.Z). Outside git: BASE+unstamped.
set -eu
cd "$(dirname "$0")/.."
base=$(sed -n 's/^#define PROVISION_BUILD_VERSION "\([0-9][0-9.]*\)+unstamped"$/\1/p' Sources/CBuildInfo/shim.h)
[ -n "$base" ] || { echo "build_version.sh: no fallback version in Sources/CBuildInfo/shim.h" >&2; exit 70; }
if ! git rev-parse --git-dir >/dev/null 2>&1; then echo "$base+unstamped"; exit 0; fi
dirty=""
git diff --quiet HEAD -- 2>/dev/null || dirty=".dirty"
if described=$(git describe --tags --match 'v[0-9]*' --long 2>/dev/null); then
    # v1.2.0-3-gabc1234 → 1.2.0, 3, gabc1234
    hash=${described##*-}; rest=${described%-*}; count=${rest##*-}; tag=${rest%-*}
    version=${tag#v}
    [ "$count" = 0 ] || version="$version+$count.$hash"
else
    version="$base+$(git rev-list --count HEAD).g$(git rev-parse --short=7 HEAD)"
fi
case "$version" in *+*) ;; *) dirty=${dirty:+"+dirty"} ;; esac
echo "$version$dirty"
