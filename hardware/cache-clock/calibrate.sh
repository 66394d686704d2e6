#!/usr/bin/env bash
# Calibrate the cache-clock plugin's line transfers in one short icount boot.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

usage() {
	cat <<'USAGE'
usage: hardware/cache-clock/calibrate.sh [--kernel BZIMAGE] [--n N] [--out DIR]
Boot BZIMAGE (default build/obj/patched-test/arch/x86/boot/bzImage) with
--clock icount --cpus 2 and two instances of the cache-clock plugin (warm=off,
so the model runs only inside the windows): one
normal, one with writes=off. In the guest run build/cache-clock/calib
shared N (two threads on vCPU 0 and 1 take turns writing one line), padded N
(each thread its own line) and spin 100000 (informative: no turns). Prints:
  pass|fail cache-clock:calib-shared    shared line: 0.9..1.1 transfers per write
  pass|fail cache-clock:calib-padded    padded lines: <= 0.05 per write
  pass|fail cache-clock:writes-off-shared  writes=off must FAIL the shared check
  info cache-clock:calib-spin ...       transfers without turns (turn length)
N defaults to 1000 (2000 writes). Exit 1 on any fail. Builds the plugin first.
USAGE
}
kernel=$root/build/obj/patched-test/arch/x86/boot/bzImage
n=1000
out=
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage; exit 0 ;;
	--kernel) kernel=$2; shift 2 ;;
	--n) n=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	*) usage >&2; exit 2 ;;
	esac
done
[ -f "$kernel" ] || { echo "fail cache-clock:calib-boot (no kernel $kernel)"; exit 1; }
map=$(dirname "$kernel")/../../../System.map
[ -f "$map" ] || map=

"$here/build.sh" >/dev/null || { echo "fail cache-clock:calib-build"; exit 1; }
b=$root/build/cache-clock
# a second file name gives a second, independent plugin instance (dlopen)
cp "$b/cache-clock.so" "$b/cache-clock-nowrites.so"
[ -n "$out" ] || out=$(mktemp -d "$root/build/cache-clock/calib.XXXXXX")
mkdir -p "$out"
args="warm=off,top=200${map:+,map=$map}"
extra="-plugin $b/cache-clock.so,out=$out/on.jsonl,$args -plugin $b/cache-clock-nowrites.so,out=$out/off.jsonl,writes=off,$args"
rc=0
"$root/scripts/run-guest.sh" --kernel "$kernel" --clock icount --cpus 2 --timeout 400 \
	--out "$out/guest" --qemu-extra "$extra" -- \
	sh -c "$b/calib shared $n && $b/calib padded $n && $b/calib spin 100000" \
	>"$out/run-guest.log" 2>&1 || rc=$?
if [ "$rc" -ne 0 ]; then
	echo "fail cache-clock:calib-boot (run-guest exit $rc, $out/run-guest.log)"
	exit 1
fi
fail=0
python3 "$here/cache_clock.py" check "$out/on.jsonl" "$out/guest/guest.log" calib || fail=1
python3 "$here/cache_clock.py" check "$out/off.jsonl" "$out/guest/guest.log" writes-off --expect-fail |
	grep -v '^info\|writes-off-padded' || true
python3 "$here/cache_clock.py" check "$out/off.jsonl" "$out/guest/guest.log" writes-off --expect-fail \
	>/dev/null || fail=1
exit $fail
