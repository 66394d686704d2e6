#!/usr/bin/env bash
# Where the instructions of a stat file read go: boot a kernel with the
# instruction clock (-icount shift=0,sleep=off), set up the stat-read
# benchmark's cgroup and run "perf record -e cpu-clock" over READS reads of
# each FILE (bench/bin/guest/profile-read.sh). cpu-clock then samples every
# PERIOD guest instructions, so the profile is an instruction profile; like
# the benchmarks, it cannot see cache misses.
#
#   profile-read.sh [--kernel BZIMAGE] [--reads N] [--out DIR] FILE...
#
# Default: the patched bench kernel, 20000 reads, build/profile/<date>.
# Prints the top symbols of each file and the mean instructions per read
# (with perf's sampling overhead: compare profiles with each other, and
# use the stat-read benchmark for the cost). Samples that fall while
# interrupts are off are taken when they are turned back on, so such time
# shows up in _raw_spin_unlock_irq() and the like. Needs perf on the host
# (the guest runs the host's).
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

kernel=$BUILD/obj/patched-bench/arch/x86/boot/bzImage
reads=20000 out=
usage() {
	cat <<'EOF'
usage: bench/bin/profile-read.sh [--kernel BZIMAGE] [--reads N] [--out DIR]
                                 FILE...
Where the instructions of a stat file read go: boot BZIMAGE (default: the
patched bench kernel) with the icount clock, set up the stat-read
benchmark's cgroup and run "perf record -e cpu-clock" over N reads
(default 20000) of each FILE; prints the top symbols of each file and the
instructions per read. Needs perf. Results: DIR (default:
build/profile/DATE).
EOF
}
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--reads) reads=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	-*) usage_error "unknown option '$1'" ;;
	*) break ;;
	esac
done
only_operands "$@"
[ $# -gt 0 ] || usage_error "no FILE given"
[ -f "$kernel" ] || die "no kernel at $kernel; build it first (scripts/build-kernel.sh bench)"
need_cmd perf gcc
[ -n "$out" ] || out=$BUILD/profile/$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
out=$(cd "$out" && pwd)
gcc -O2 -static -Wall -I "$TOP/bench/include" -o "$out/statread" "$TOP/bench/stat-read/statread.c" ||
	die "building statread failed"
step "profiling $* on $kernel ($reads reads each; log: $out/guest.log)"
"$TOP/scripts/run-guest.sh" --kernel "$kernel" --out "$out" --clock icount --timeout 1800 -- \
	"$TOP/bench/bin/guest/profile-read.sh" "$out" "$out/statread" "$reads" "$@" ||
	die "the profile run failed; see $out/guest.log and $out/console.log"
for f in "$@"; do
	step "$f: $(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
print("{:,.0f} insn per read with perf on, {} bytes".format(r["value"], r["bytes"]))' "$out/$f.statread")"
	sed 's/^/    /' "$out/$f.txt"
done
