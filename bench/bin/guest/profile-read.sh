#!/bin/bash
# Runs inside the guest: profile-read.sh OUTDIR STATREAD READS FILE...
# The stat-read benchmark's cgroup (a parent with four idle children that
# hold memory and did a little I/O), then for each FILE of the parent
# "perf record -e cpu-clock" over READS reads of it, and the symbols that
# took the samples, to OUTDIR/FILE.txt. Under "-icount shift=0,sleep=off"
# the guest clock counts instructions, so cpu-clock samples every PERIOD
# instructions: the profile says where the instructions go.
. "$(dirname "$0")/../../include/children.sh"
usage() {
	cat <<'EOF'
usage: bench/bin/guest/profile-read.sh OUTDIR STATREAD READS FILE...
Runs inside the guest (bench/bin/profile-read.sh): in the stat-read
benchmark's cgroup, "perf record -e cpu-clock" over READS reads of each
FILE by STATREAD, the top symbols to OUTDIR/FILE.txt.
EOF
}
case ${1:-} in
-h|--help) usage; exit 0 ;;
-*) usage >&2; echo "error: profile-read.sh: unknown option '$1'" >&2; exit 2 ;;
esac
[ $# -ge 4 ] || { usage >&2; echo "error: profile-read.sh: want OUTDIR STATREAD READS FILE..., got $# arguments" >&2; exit 2; }
out=$1 statread=$2 reads=$3
shift 3
p=/sys/fs/cgroup/profile
echo -1 >/proc/sys/kernel/perf_event_paranoid
echo 0 >/proc/sys/kernel/kptr_restrict
make_parent $p "+memory +cpu +io +pids" || exit 1
io_loop profile || exit 1
start_children $p 4 profile direct_io || exit 1
rc=0
for f in "$@"; do
	# perf.data goes to the guest's /tmp: perf cannot mmap-write over 9p
	perf record -q -e cpu-clock -c "${PROFILE_PERIOD:-1000}" -o "/tmp/$f.data" -- \
		"$statread" "$f" "$p/$f" "$reads" >"$out/$f.statread" || rc=1
	perf report -i "/tmp/$f.data" --sort sym --stdio 2>/dev/null |
		grep -v '^#' | grep . | head -n "${PROFILE_TOP:-25}" >"$out/$f.txt" || rc=1
done
stop_children $p 4 profile
exit $rc
