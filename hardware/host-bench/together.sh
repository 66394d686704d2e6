#!/bin/bash
# hardware/host-bench/together.sh N CMD...: N instances of CMD at once, in the
# background, each with every "%i" in its words replaced by its number
# (0..N-1); waits for all, then prints their outputs one after the other
# (hardware/host-bench.sh's psi-wake: perf bench runs in sibling cgroups
# across all CPUs). Fails if any instance fails, with its output on stderr.
set -uo pipefail
case ${1:-} in
-h|--help) echo "usage: hardware/host-bench/together.sh N CMD..."; exit 0 ;;
esac
if ! [[ ${1:-} =~ ^[1-9][0-9]*$ ]] || [ $# -lt 2 ]; then
	echo "usage: hardware/host-bench/together.sh N CMD..." >&2
	exit 2
fi
n=$1
shift
tmp=$(mktemp -d "${HB_TMP:-${TMPDIR:-/tmp}}/together.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
pids=()
for ((i = 0; i < n; i++)); do
	"${@//%i/$i}" >"$tmp/$i.out" 2>&1 &
	pids+=($!)
done
fail=0
for ((i = 0; i < n; i++)); do
	if ! wait "${pids[i]}"; then
		echo "together.sh: instance $i failed: ${*//%i/$i}" >&2
		cat "$tmp/$i.out" >&2
		fail=1
	fi
done
[ "$fail" -eq 0 ] || exit 1
for ((i = 0; i < n; i++)); do
	cat "$tmp/$i.out"
done
