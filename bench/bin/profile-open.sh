#!/usr/bin/env bash
# Where the instructions of opening and closing a cgroup file go (issue 31,
# part 4): boot a kernel with the instruction clock (-icount
# shift=0,sleep=off), set up the stat-read benchmark's cgroup, time each
# mode of bench/open-close/openclose.c without perf, then run
# "perf record -g -e cpu-clock" of the task over the open/close modes
# (bench/bin/guest/profile-open.sh) and break the samples down by component
# (bench/bin/profile-open-report.py).
#
#   profile-open.sh [--kernel BZIMAGE] [--ops N] [--prof-ops N] [--out DIR] [FILE...]
#
# Default: the patched bench kernel, memory.stat, 20000 timed operations
# per mode, 100000 per profile, build/profile/open-<date>. The times are
# instructions per operation without perf; the profiles' shares carry
# perf's sampling (every 20000 instructions; each sample with its call
# chain costs about 4,600): use them for where the instructions go, the
# times for how many; the report scales each share by the mode's time.
# Samples that fall while interrupts are off are taken when they are
# turned back on. Needs perf on the host (the guest runs the host's).
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

kernel=$BUILD/obj/patched-bench/arch/x86/boot/bzImage
ops=20000 pops=100000 out=
usage() {
	cat <<'EOF'
usage: bench/bin/profile-open.sh [--kernel BZIMAGE] [--ops N] [--prof-ops N]
                                 [--out DIR] [FILE...]
Where the instructions of opening and closing a cgroup file go: boot
BZIMAGE (default: the patched bench kernel) with the icount clock, time
each open/close mode of bench/open-close/openclose.c on each FILE (default:
memory.stat) without perf, then profile the modes with perf and break the
samples down by component (bench/bin/profile-open-report.py). Needs perf.
  --ops N       timed operations per mode (default 20000)
  --prof-ops N  operations per profile (default 100000)
  --out DIR     results (default: build/profile/open-DATE)
EOF
}
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--ops) ops=$2; shift 2 ;;
	--prof-ops) pops=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	-*) usage_error "unknown option '$1'" ;;
	*) break ;;
	esac
done
only_operands "$@"
[ $# -gt 0 ] || set -- memory.stat
[ -f "$kernel" ] || die "no kernel at $kernel; build it first (scripts/build-kernel.sh bench)"
need_cmd perf gcc python3
[ -n "$out" ] || out=$BUILD/profile/open-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
out=$(cd "$out" && pwd)
gcc -O2 -static -Wall -I "$TOP/bench/include" -o "$out/openclose" "$TOP/bench/open-close/openclose.c" ||
	die "building openclose failed"
step "profiling open/close of $* on $kernel ($ops timed, $pops profiled ops; log: $out/guest.log)"
"$TOP/scripts/run-guest.sh" --kernel "$kernel" --out "$out" --clock icount --timeout 1800 -- \
	"$TOP/bench/bin/guest/profile-open.sh" "$out" "$out/openclose" "$ops" "$pops" "$@" ||
	die "the profile run failed; see $out/guest.log and $out/console.log"
step "instructions per operation, no perf ($out/times.json)"
python3 -c 'import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    print("    {:<34} {:>9,.0f}".format(r["metric"], r["value"]))' "$out/times.json"
for d in "$out"/*.data; do
	step "$(basename "$d" .data): samples by component ($out/$(basename "$d" .data).breakdown.txt)"
	m=$(basename "$d" .data)
	insn=$(python3 -c 'import json, sys
m, f = sys.argv[2:]
v = [json.loads(l) for l in open(sys.argv[1])]
v = [r["value"] for r in v if r["metric"] in
     (m + "_" + f, m + "_open_" + f, m + "_close_" + f)]
if v:
    print(sum(v))' "$out/times.json" "$m" "$1")
	"$TOP/bench/bin/profile-open-report.py" --kallsyms "$out/kallsyms" ${insn:+--insn "$insn"} "$d" \
		>"$out/$m.breakdown.txt" ||
		warn "profile-open-report.py failed on $d"
	sed 's/^/    /' "$out/$m.breakdown.txt"
done
