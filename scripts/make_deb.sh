#!/usr/bin/env bash
# make deb: dist/provision_<version>_<arch>.deb from a release build with the Swift standard library linked
# statically (no Swift runtime needed), checked by lintian (docs/install.md lists what it still warns about).
#   scripts/make_deb.sh [--no-build] [--no-lint] [--build-only]
#     --no-build    package the release binary already built (same version), do not run swift build
#     --no-lint     skip lintian
#     --build-only  only the release build; print the binary's path (make bench-startup)
# Needs dpkg-dev (dpkg-shlibdeps), lintian and man-db: `make deb-deps` installs them.
set -euo pipefail
cd "$(dirname "$0")/.."
build=1 lint=1 package=1
for arg in "$@"; do
    case "$arg" in
    --no-build) build=0 ;;
    --no-lint) lint=0 ;;
    --build-only) package=0 ;;
    *) echo "usage: scripts/make_deb.sh [--no-build] [--no-lint] [--build-only]" >&2; exit 64 ;;
    esac
done
SWIFT=${SWIFT:-swift}
version=$(scripts/build_version.sh)
debversion="$version-1"
arch=$(dpkg --print-architecture)
# The release build: static Swift runtime, no RUNPATH, BIND_NOW; the version stamped into CBuildInfo.
flags=(-c release --static-swift-stdlib --disable-local-rpath --product provision
    -Xlinker -z -Xlinker now -Xcc "-DPROVISION_BUILD_VERSION=\"$version\"")
if [ "$build" = 1 ]; then
    start=$(date +%s)
    "$SWIFT" build "${flags[@]}"
    echo "release build: $(($(date +%s) - start)) s"
fi
binary="$("$SWIFT" build "${flags[@]}" --show-bin-path)/provision"
stamped=$("$binary" --version | head -n 1)
[ "$stamped" = "provision $version" ] || {
    echo "make_deb.sh: $binary says '$stamped', not 'provision $version': build it again (without --no-build)" >&2
    exit 65
}
if [ "$package" = 0 ]; then
    echo "$binary"
    exit 0
fi

work=dist/work
stage=$work/provision
rm -rf "$work"
mkdir -p "$stage/DEBIAN" "$stage/usr/bin" "$stage/usr/libexec/provision" "$stage/lib/systemd/system" \
    "$stage/usr/share/man/man1" "$stage/usr/share/bash-completion/completions" \
    "$stage/usr/share/doc/provision/examples" "$stage/usr/share/lintian/overrides" \
    "$stage/etc/provision/stations" "$stage/var/lib/provision"

# The binary, stripped of symbols and of the sections lintian flags.
install -m 0755 "$binary" "$stage/usr/bin/provision"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/provision"
install -m 0755 packaging/provision-service "$stage/usr/libexec/provision/provision-service"
install -m 0644 packaging/systemd/*.service "$stage/lib/systemd/system/"

# Man pages and completion from the binary itself: the --help texts and the command registry are their one source.
bin="$stage/usr/bin/provision"
"$bin" help --man | gzip -9n > "$stage/usr/share/man/man1/provision.1.gz"
commands=$("$bin" --help | awk '/^Commands:/ { on = 1; next } on && NF == 0 { exit } on { print $1 }')
[ -n "$commands" ] || { echo "make_deb.sh: no command list in provision --help" >&2; exit 70; }
for command in $commands; do
    "$bin" help --man "$command" | gzip -9n > "$stage/usr/share/man/man1/provision-$command.1.gz"
done
"$bin" help --completion bash > "$stage/usr/share/bash-completion/completions/provision"
chmod 0644 "$stage/usr/share/bash-completion/completions/provision"

# Documentation: copyright, changelog, examples (the sample jobs and templates, the environment files).
doc=$stage/usr/share/doc/provision
install -m 0644 packaging/debian/copyright "$doc/copyright"
date=$(git log -1 --format=%aD 2>/dev/null || date -R)
{
    echo "provision ($debversion) unstable; urgency=medium"
    echo
    echo "  * Build of $(git rev-parse --short=7 HEAD 2>/dev/null || echo 'an unknown commit'); the project's"
    echo "    history is its git log."
    echo
    echo " -- $(sed -n 's/^Maintainer: //p' packaging/debian/control.in)  $date"
} | gzip -9n > "$doc/changelog.Debian.gz"
cp -r jobs templates "$doc/examples/"
install -m 0644 packaging/examples/station.env packaging/examples/serve.env "$doc/examples/"
find "$doc/examples" -type d -exec chmod 0755 {} + && find "$doc/examples" -type f -exec chmod 0644 {} +
install -m 0644 packaging/debian/lintian-overrides "$stage/usr/share/lintian/overrides/provision"

# Maintainer scripts.
install -m 0755 packaging/debian/postinst packaging/debian/prerm packaging/debian/postrm "$stage/DEBIAN/"

# Depends: from the binary's NEEDED libraries (dpkg-shlibdeps reads their packages' symbols files), never by hand.
mkdir -p "$work/debian"
printf 'Source: provision\n\nPackage: provision\nArchitecture: any\n' > "$work/debian/control"
shlibs=$(cd "$work" && dpkg-shlibdeps -O -eprovision/usr/bin/provision 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$shlibs" ] || { echo "make_deb.sh: dpkg-shlibdeps found no dependencies" >&2; exit 70; }
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s/@VERSION@/$debversion/" -e "s/@ARCH@/$arch/" -e "s/@SHLIBS@/$shlibs/" -e "s/@SIZE@/$size/" \
    packaging/debian/control.in > "$stage/DEBIAN/control"
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) \
    > "$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"
find "$stage" -type d -exec chmod 0755 {} +

deb=dist/provision_${debversion}_${arch}.deb
dpkg-deb -Zxz --root-owner-group --build "$stage" "$deb"
echo "Depends: $(sed -n 's/^Depends: //p' "$stage/DEBIAN/control")"
if [ "$lint" = 1 ]; then
    lintian --fail-on error --info "$deb"
fi
echo "$deb"
