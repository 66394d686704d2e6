#!/usr/bin/env bash
# Build the cache-clock TCG plugin into build/cache-clock/cache-clock.so.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
src=$root/build/qemu-src
outdir=$root/build/cache-clock

usage() {
	cat <<'USAGE'
usage: hardware/cache-clock/build.sh [--help]
Compile hardware/cache-clock/cache-clock.c (a QEMU TCG plugin) into
build/cache-clock/cache-clock.so, and the calibration guest program
(calib.c, static) into build/cache-clock/calib and the example
benchmark read-loop.c into build/cache-clock/read-loop.
Needs qemu-plugin.h of the installed QEMU: taken from build/qemu-src/
(apt-get source of the installed qemu version, fetched here if missing:
adds a deb-src entry mirroring the existing apt deb entries when none is
configured) and glib (libglib2.0-dev, installed if missing). Run as root
the first time.
USAGE
}
[ "${1:-}" = --help ] || [ "${1:-}" = -h ] && { usage; exit 0; }
[ $# -eq 0 ] || { usage >&2; exit 2; }
die() { echo "error: $*" >&2; exit 1; }

# step 1: glib
if ! pkg-config --exists glib-2.0 2>/dev/null; then
	echo "build.sh: installing libglib2.0-dev" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q libglib2.0-dev >&2 ||
		die "step glib: apt-get install libglib2.0-dev failed; install it (as root) and rerun"
fi

# step 2: qemu-plugin.h from the source of the installed QEMU
hdr=$(ls -d "$src"/qemu-*/include/qemu/qemu-plugin.h 2>/dev/null | head -1 || true)
if [ -z "$hdr" ]; then
	ver=$(dpkg-query -W -f '${source:Version}' qemu-system-x86 2>/dev/null) ||
		die "step header: qemu-system-x86 is not installed; run scripts/install-deps.sh"
	if ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
		f=$(ls /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1 || true)
		[ -n "$f" ] || die "step header: no deb-src entry and no deb822 .sources file to mirror; add a deb-src line for your mirror and rerun"
		echo "build.sh: adding deb-src entries mirroring $f" >&2
		sed 's/^Types: deb$/Types: deb-src/' "$f" >/etc/apt/sources.list.d/cgscale-deb-src.sources ||
			die "step header: cannot write /etc/apt/sources.list.d (run as root)"
		apt-get update -q >&2 || die "step header: apt-get update failed"
	fi
	mkdir -p "$src"
	(cd "$src" && apt-get source -q --download-only "qemu=$ver" >&2 &&
		dpkg-source -x qemu_*.dsc >&2) ||
		die "step header: apt-get source qemu=$ver into $src failed; check the deb-src entry and network, then rerun"
	hdr=$(ls -d "$src"/qemu-*/include/qemu/qemu-plugin.h | head -1)
fi
inc=$(dirname "$hdr")

# step 3: compile
mkdir -p "$outdir"
gcc -O2 -g -Wall -shared -fPIC -I"$inc" $(pkg-config --cflags glib-2.0) \
	-o "$outdir/cache-clock.so" "$here/cache-clock.c" $(pkg-config --libs glib-2.0) ||
	die "step compile: gcc of cache-clock.c failed (header $hdr)"
gcc -O2 -Wall -static -pthread -o "$outdir/calib" "$here/calib.c" ||
	die "step compile: gcc -static of calib.c failed (needs libc6-dev)"
gcc -O2 -Wall -static -o "$outdir/read-loop" "$here/read-loop.c" ||
	die "step compile: gcc -static of read-loop.c failed"
echo "$outdir/cache-clock.so"
