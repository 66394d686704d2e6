#!/bin/bash
# Runs inside the guest: profile-open.sh OUTDIR OPENCLOSE OPS PROF_OPS FILE...
# The stat-read benchmark's cgroup (a parent with four idle children that
# hold memory and did a little I/O). For each FILE of the parent, times
# OPS operations of each mode of OPENCLOSE (bench/open-close/openclose.c:
# open+close by openat() on a directory fd, the same with the file held
# open by another fd, open+read to EOF+close, pread on a kept fd, open by
# path, and opens and closes in batches) without perf, to OUTDIR/times.json.
# Then, for the first FILE, "perf record -g -e cpu-clock" of the task over
# PROF_OPS operations of each mode in PROFILE_MODES; MODE.data and
# /proc/kallsyms go to OUTDIR for the host's perf (perf report under TCG
# is slow): bench/bin/profile-open-report.py.
# Under "-icount shift=0,sleep=off" the guest clock counts instructions, so
# cpu-clock samples every PERIOD instructions (default 20000; perf's floor
# is 10000).
. "$(dirname "$0")/../../include/children.sh"
usage() {
	cat <<'EOF'
usage: bench/bin/guest/profile-open.sh OUTDIR OPENCLOSE OPS PROF_OPS FILE...
Runs inside the guest (bench/bin/profile-open.sh): in the stat-read
benchmark's cgroup, time OPS operations of each mode of OPENCLOSE on each
FILE (OUTDIR/times.json), then "perf record -g" PROF_OPS operations of each
mode of PROFILE_MODES on the first FILE (OUTDIR/MODE.data, kallsyms).
EOF
}
case ${1:-} in
-h|--help) usage; exit 0 ;;
-*) usage >&2; echo "error: profile-open.sh: unknown option '$1'" >&2; exit 2 ;;
esac
[ $# -ge 5 ] || { usage >&2; echo "error: profile-open.sh: want OUTDIR OPENCLOSE OPS PROF_OPS FILE..., got $# arguments" >&2; exit 2; }
out=$1 prog=$2 ops=$3 pops=$4
shift 4
p=/sys/fs/cgroup/profile
echo -1 >/proc/sys/kernel/perf_event_paranoid
echo 0 >/proc/sys/kernel/kptr_restrict
make_parent $p "+memory +cpu +io +pids" || exit 1
io_loop profile || exit 1
start_children $p 4 profile direct_io || exit 1
rc=0
: >"$out/times.json"
for f in "$@"; do
	for m in openclose held readclose read path; do
		taskset -c 0 "$prog" $m $p "$f" "$ops" >>"$out/times.json" || rc=1
	done
	taskset -c 0 "$prog" batch $p "$f" "$ops" 500 >>"$out/times.json" || rc=1
done
cat "$out/times.json"
cp /proc/kallsyms "$out/kallsyms"
f=$1
for m in ${PROFILE_MODES:-openclose held readclose batch path}; do
	echo "profiling $m $f ($pops ops)"
	# perf.data goes to the guest's /tmp: perf cannot mmap-write over 9p.
	# Only the task is sampled (not -a): an idle vCPU sampled every PERIOD
	# would cost as much as the task's own samples (about 4,600
	# instructions per sample with the call chain). OPENCLOSE_DITHER breaks
	# the loop's period, which perf's samples would otherwise lock onto.
	OPENCLOSE_DITHER=1 perf record -q -g -e cpu-clock -c "${PROFILE_PERIOD:-20000}" -o "/tmp/$m.data" -- \
		taskset -c 0 "$prog" $m $p "$f" "$pops" >>"$out/prof-times.json" || rc=1
	cp "/tmp/$m.data" "$out/$m.data" || rc=1
	rm -f "/tmp/$m.data"
done
stop_children $p 4 profile
exit $rc
