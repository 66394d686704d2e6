#!/bin/bash
# Runs inside the guest: repeat-selftest.sh KSFT_DIR PROG RUNS OUTDIR
# Runs the cgroup selftest PROG from KSFT_DIR RUNS times in a row, after
# setup-test-env.sh and from its scratch file system, as run-selftests.sh
# does. One log and one exit-status file per run in OUTDIR (PROG.N.log,
# PROG.N.rc), and a line per run on stdout.

usage() {
	cat <<'EOF2'
usage: checks/heavy/guest/repeat-selftest.sh KSFT_DIR PROG RUNS OUTDIR
Runs inside the guest: run the cgroup selftest PROG of KSFT_DIR RUNS times
after the test environment's setup, a log and an exit status file per run
in OUTDIR.
EOF2
}
case ${1:-} in -h|--help) usage; exit 0 ;; esac
[ $# -eq 4 ] || { usage >&2; echo "error: repeat-selftest.sh: want KSFT_DIR PROG RUNS OUTDIR" >&2; exit 2; }
# absolute: the runs cd to the scratch file system
ksft=$(realpath "$1") prog=$2 runs=$3 out=$(realpath -m "$4")
mkdir -p "$out"
"$(dirname "$0")/../../../scripts/guest/setup-test-env.sh"
work=/tmp/ksft-scratch/cgroup
if mountpoint -q /tmp/ksft-scratch && cp -a "$ksft" "$work"; then
	cd "$work" || exit 1
else
	cd "$ksft" || exit 1
fi
for i in $(seq 1 "$runs"); do
	start=$(date +%s)
	timeout -k 10 900 "./$prog" >"$out/$prog.$i.log" 2>&1 </dev/null
	rc=$?
	echo "$rc" >"$out/$prog.$i.rc"
	echo "==> $prog run $i: exit $rc after $(($(date +%s) - start))s"
	grep -E '^not ok ' "$out/$prog.$i.log" | sed 's/^/    /'
done
exit 0
