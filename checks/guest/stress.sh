#!/bin/bash
# Runs inside the guest: stress.sh SECONDS OUTDIR
# Load a cgroup hierarchy for SECONDS while reading every stat and pressure
# file, as checks/stress.sh describes. Writes OUTDIR/stress.json (the
# counts) and OUTDIR/*.log; prints one line per reader error.
#
#   /sys/fs/cgroup/stress          memory.max 384M, memory.high 320M;
#                                  a PSI trigger on its memory.pressure
#     vm    stress-ng --vm, 104M in a memory.max of 96M: reclaim, zram swap
#     fork  stress-ng --fork and --switch
#     hdd   stress-ng --hdd on the ext4 scratch file system
#     pipe  stress-ng --pipe
#     churn groups made, given controllers, entered by a task and removed
# cgroup.pressure of vm and fork is toggled 0/1 throughout.

usage() {
	cat <<'EOF'
usage: checks/guest/stress.sh SECONDS OUTDIR
Runs inside the guest (checks/stress.sh): load a cgroup hierarchy for
SECONDS while two readers check every stat and pressure file; writes
OUTDIR/stress.json (the counts) and OUTDIR/*.log.
EOF
}
case ${1:-} in
-h|--help) usage; exit 0 ;;
-*) usage >&2; echo "error: stress.sh: unknown option '$1'" >&2; exit 2 ;;
esac
[ $# -eq 2 ] || { usage >&2; echo "error: stress.sh: want SECONDS OUTDIR, got $# arguments" >&2; exit 2; }
set -u
dur=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
"$here/../../scripts/guest/setup-test-env.sh"

cg=/sys/fs/cgroup
top=$cg/stress
ctrl="+cpu +memory +io +pids"
fail() { echo "stress: $*"; echo "{\"setup_error\": \"$*\"}" >"$out/stress.json"; exit 1; }
echo "$ctrl" >$cg/cgroup.subtree_control || fail "can't enable $ctrl in the root"
mkdir -p $top || fail "can't make $top"
echo "$ctrl" >$top/cgroup.subtree_control || fail "can't enable $ctrl in $top"
echo 384M >$top/memory.max && echo 320M >$top/memory.high || fail "can't set $top limits"
for g in vm fork hdd pipe churn; do
	mkdir -p $top/$g || fail "can't make $top/$g"
done
# memory.max only: a memory.high below the working set throttles the
# worker in sleeps of up to 2 s per fault batch, and it gets nothing done.
# No zswap there either: its compressed pages are charged to the group, so
# the worker would thrash into the OOM killer instead of swapping to zram.
echo 96M >$top/vm/memory.max && echo 0 >$top/vm/memory.zswap.max ||
	fail "can't set vm limits"
# TCG guests are slow: let the checkers, in the root group, run first
for g in vm fork hdd pipe; do
	echo 10 >$top/$g/cpu.weight || fail "can't set $top/$g/cpu.weight"
done
echo "$ctrl" >$top/churn/cgroup.subtree_control || fail "can't enable $ctrl in churn"

# Each part runs for SECONDS from its own start: under TCG, starting the
# checkers alone can take seconds.
start=$(date +%s)
scratch=/tmp/ksft-scratch
[ -d $scratch ] && mountpoint -q $scratch || scratch=/tmp

# cgroup churn: make a group with controllers and a leaf, move a task in
# and out, remove both
churn() {
	local n=0 d holder=$top/churn/holder end=$(($(date +%s) + dur))
	mkdir -p $holder
	sleep $((dur + 60)) &
	local pid=$!
	echo $pid >$holder/cgroup.procs
	while [ "$(date +%s)" -lt $end ]; do
		d=$top/churn/c$((n % 4))
		mkdir $d && echo "+memory +pids" >$d/cgroup.subtree_control &&
			mkdir $d/leaf && echo $pid >$d/leaf/cgroup.procs &&
			cat $d/memory.stat $d/cpu.stat >/dev/null &&
			echo $pid >$holder/cgroup.procs &&
			rmdir $d/leaf $d || { echo "churn round $n failed"; break; }
		n=$((n + 1))
	done
	kill $pid
	echo $n >"$out/churn.count"
}
churn >"$out/churn.log" 2>&1 &
churner=$!

# cgroup.pressure toggled under load
toggle() {
	local n=0 g end=$(($(date +%s) + dur))
	while [ "$(date +%s)" -lt $end ]; do
		for g in $top/vm $top/fork; do
			echo 0 >$g/cgroup.pressure && echo 1 >$g/cgroup.pressure ||
				{ echo "toggle $n of $g failed"; break 2; }
		done
		n=$((n + 1))
		sleep 0.2
	done
	echo $n >"$out/toggle.count"
}
toggle >"$out/toggle.log" 2>&1 &
toggler=$!

# a PSI trigger, polled throughout
python3 - $top/memory.pressure $dur "$out/trigger.count" >"$out/trigger.log" 2>&1 <<'EOF' &
import os, select, sys, time
path, outfile = sys.argv[1], sys.argv[3]
deadline = time.time() + float(sys.argv[2])
fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
os.write(fd, b"some 50000 1000000\0")
p = select.poll()
p.register(fd, select.POLLPRI)
events = 0
while time.time() < deadline:
    for _, ev in p.poll(1000):
        if ev & select.POLLERR:
            sys.exit("trigger: POLLERR")
        if ev & select.POLLPRI:
            events += 1
open(outfile, "w").write(f"{events}\n")
EOF
trigger=$!

# two readers of every stat and pressure file
python3 "$here/stress-reader.py" $cg $dur "$out/reader1.json" >"$out/reader1.log" 2>&1 &
r1=$!
python3 "$here/stress-reader.py" $cg $dur "$out/reader2.json" >"$out/reader2.log" 2>&1 &
r2=$!

# run_in CGROUP LOG CMD...: CMD in CGROUP, in the background
run_in() {
	local g=$1 log=$2
	shift 2
	( echo $BASHPID >"$g/cgroup.procs" && cd $scratch && exec "$@" ) >"$log" 2>&1 &
	loads+=($!)
}
loads=()
sng=(stress-ng --timeout "${dur}s" --metrics-brief --temp-path $scratch)
run_in $top/vm "$out/vm.log" "${sng[@]}" --vm 1 --vm-bytes 104M --vm-keep
run_in $top/fork "$out/fork.log" "${sng[@]}" --fork 1 --switch 1 --switch-freq 1000
run_in $top/hdd "$out/hdd.log" "${sng[@]}" --hdd 1 --hdd-bytes 32M
run_in $top/pipe "$out/pipe.log" "${sng[@]}" --pipe 1

status=0
for p in $r1 $r2; do wait $p || status=1; done
wait $churner $toggler
wait $trigger || { echo "stress: the PSI trigger poller failed"; status=1; }
for p in "${loads[@]}"; do wait "$p" || { echo "stress: a stress-ng load failed (exit $?)"; status=1; }; done
cat "$out"/reader?.log
# a churn or toggle round that failed fails the run
if grep -h "failed" "$out/churn.log" "$out/toggle.log"; then
	status=1
fi

grep -E '^(pgscan|pgmajfault) ' $top/vm/memory.stat >"$out/vm.reclaim"
grep -E '^(max|oom_kill) ' $top/vm/memory.events >>"$out/vm.reclaim"

python3 - "$out" $(($(date +%s) - start)) $status <<'EOF'
import json, pathlib, sys
out, secs, status = pathlib.Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
def num(name):
    try:
        return int((out / name).read_text())
    except (OSError, ValueError):
        return None
res = {"seconds": secs, "reads": 0, "reader_errors": 0, "vanished": 0}
for f in sorted(out.glob("reader?.json")):
    r = json.loads(f.read_text())
    res["reads"] += r["reads"]
    res["reader_errors"] += r["errors"]
    res["reader_passes_min"] = min(res.get("reader_passes_min", r["passes"]), r["passes"])
    res["vanished"] += r["vanished"]
res["readers"] = len(list(out.glob("reader?.json")))
res["churn_rounds"] = num("churn.count")
res["pressure_toggles"] = num("toggle.count")
res["trigger_events"] = num("trigger.count")
res["load_status"] = status
try:
    res["vm_reclaim"] = {k: int(v) for k, v in
                         (l.split() for l in (out / "vm.reclaim").read_text().splitlines())}
except (OSError, ValueError):
    res["vm_reclaim"] = None
(out / "stress.json").write_text(json.dumps(res) + "\n")
print("stress:", json.dumps(res))
EOF
exit $status
