#!/usr/bin/env bash
# A stress run: boot a kernel and, for SECONDS, load a cgroup hierarchy
# under memory.max and memory.high while reading every stat and pressure
# file of every group (checks/guest/stress.sh):
#  - stress-ng: vm under reclaim with zram swap, fork and switch, hdd on an
#    ext4 scratch file system, pipe;
#  - cgroup churn: mkdir, enable controllers, migrate a task, rmdir;
#  - cgroup.pressure toggled 0/1 while tasks run;
#  - a PSI trigger ("some 50000 1000000") polled throughout;
#  - two readers that check every read: it parses, has no NUL, and PSI
#    totals and cpu.stat usage never go back (keyed by the group's inode).
# Fails on any reader error, load failure or kernel splat
# (scripts/check-splats.py on the guest's dmesg).
#
#   stress.sh [--kernel BZIMAGE] [--time SECONDS] [--out DIR] [--cpus N] [--mttcg]
#
# Default: the patched test kernel, 60 s, build/stress/<date>. Prints
# "pass stress:..." / "fail stress:..." lines and the counts.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

kernel=$BUILD/obj/patched-test/arch/x86/boot/bzImage
usage() {
	cat <<'EOF'
usage: checks/stress.sh [--kernel BZIMAGE] [--time SECONDS] [--out DIR]
                        [--cpus N] [--mttcg]
A stress run: boot BZIMAGE (default: the patched test kernel) with N vCPUs
(default 2) and for SECONDS (default 60) load a cgroup hierarchy
(stress-ng, cgroup churn, cgroup.pressure toggles, a PSI trigger) while
two readers check every read of every stat and pressure file
(checks/guest/stress.sh). Prints "pass|fail stress:..." lines and the
counts; exits 1 on a failure. Results: DIR (default: build/stress/DATE).
  --mttcg  multi-threaded TCG (scripts/run-guest.sh --mttcg): the vCPUs
           run at the same time on the host's cores
EOF
}
secs=60 out= cpus=2 mttcg=()
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--time) secs=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--cpus) cpus=$2; shift 2 ;;
	--mttcg) mttcg=(--mttcg); shift ;;
	-h|--help) usage; exit 0 ;;
	*) usage_error "unknown argument '$1'" ;;
	esac
done
[ -f "$kernel" ] || die "no kernel at $kernel; build it first (scripts/build-kernel.sh test)"
need_cmd stress-ng
[ -n "$out" ] || out=$BUILD/stress/$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
out=$(cd "$out" && pwd)

step "stress: booting $kernel for ${secs}s of load (log: $out/guest.log)"
rc=0
"$TOP/scripts/run-guest.sh" --kernel "$kernel" --out "$out" --cpus "$cpus" "${mttcg[@]}" \
	--timeout $((secs * 3 + 600)) -- "$TOP/checks/guest/stress.sh" "$secs" "$out/guest" || rc=$?
failed=0
result() { # pass|fail NAME DETAIL
	echo "$1 stress:$2${3:+($3)}"
	[ "$1" = pass ] || failed=1
}
if [ -f "$out/guest/stress.json" ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))["reads"]' \
	"$out/guest/stress.json" 2>/dev/null; then
	counts=$(cat "$out/guest/stress.json")
	info "$counts"
	# a checker that did nothing proves nothing
	problems=$(python3 - "$out/guest/stress.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
p = []
if r["reader_errors"]:
    p.append(f"{r['reader_errors']} reader errors")
if r.get("readers", 0) < 2 or not r.get("reader_passes_min"):
    p.append("a reader finished no pass over the files")
for k in ("churn_rounds", "pressure_toggles"):
    if not r.get(k):
        p.append(f"no {k.replace('_', ' ')}")
if r.get("trigger_events") is None:
    p.append("the PSI trigger poller did not finish")
print("; ".join(p))
EOF
)
	if [ -z "$problems" ]; then
		result pass checkers
	else
		result fail checkers "$problems; see $out/guest/*.log"
	fi
	if [ "$rc" -eq 0 ]; then
		result pass load
	else
		result fail load "guest exit $rc, see $out/guest.log"
	fi
else
	result fail run "no counts; guest exit $rc, see $out/guest.log and $out/console.log"
fi
if [ -f "$out/dmesg.txt" ] && "$TOP/scripts/check-splats.py" "$out/dmesg.txt" >"$out/splats.txt"; then
	result pass no-kernel-splats
else
	result fail no-kernel-splats "see $out/splats.txt and $out/dmesg.txt"
fi
exit "$failed"
