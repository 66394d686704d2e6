#!/bin/bash
# Runs inside the guest:
#   run-selftests.sh [--retry DENYLIST] KSFT_DIR LIST OUTDIR [NAME...]
# Runs each cgroup selftest named in LIST (or only NAME...) from KSFT_DIR
# with its timeout, one log and one exit-status file per test in OUTDIR.
# The tests run from a scratch ext4 file system (see setup-test-env.sh).
# It can run more than once in a boot, with another KSFT_DIR and LIST
# (the test command: filesystems/sysfs after cgroup) into the same OUTDIR.
# A program of LIST that is not in KSFT_DIR (or KSFT_DIR missing) gets a
# log saying what is missing and exit status 127.
#
# With --retry, a program marked "retry" in LIST (the upstream ones, not the
# series' own) is run a second time, to NAME.retry.log/.rc, when its first
# run reported a failed subtest that DENYLIST does not name.
# summarize-selftests.py counts such a subtest as passed only when the second
# run passed it, and lists it as intermittent.
# Timeouts and crashes are never retried.

usage() {
	cat <<'EOF'
usage: scripts/guest/run-selftests.sh [--retry DENYLIST] KSFT_DIR LIST OUTDIR
                                      [NAME...]
Runs inside the guest: run each cgroup selftest of LIST (or only the
NAMEs) from KSFT_DIR with its timeout, a log and an exit status file per
test in OUTDIR.
  --retry DENYLIST  run a program marked "retry" in LIST once more when a
                    subtest that DENYLIST does not name failed
EOF
}
case ${1:-} in
-h|--help) usage; exit 0 ;;
--retry) ;;
-*) usage >&2; echo "error: run-selftests.sh: unknown option '$1'" >&2; exit 2 ;;
esac
deny=
if [ "${1:-}" = --retry ]; then
	deny=$2
	shift 2
fi
[ $# -ge 3 ] || { usage >&2; echo "error: run-selftests.sh: want KSFT_DIR LIST OUTDIR [NAME...]" >&2; exit 2; }
ksft=$1 list=$2 out=$3
shift 3
only=" $* "
mkdir -p "$out"
# CGSCALE_NO_GUEST_SETUP=1 is for tests of this script on the host.
[ -n "${CGSCALE_NO_GUEST_SETUP:-}" ] || "$(dirname "$0")/setup-test-env.sh"
work=/tmp/ksft-scratch/$(basename "$ksft")
missing=
if [ ! -d "$ksft" ]; then
	missing="no directory $ksft"
elif mountpoint -q /tmp/ksft-scratch && rm -rf "$work" && cp -a "$ksft" "$work"; then
	cd "$work" || exit 1
else
	cd "$ksft" || exit 1
fi

# run_one NAME SECS SUFFIX: one run of ./NAME, results in OUTDIR/NAME SUFFIX.*
run_one() {
	local log=$out/$1$3.log start rc
	echo "==> $1$3 (timeout ${2}s)"
	start=$(date +%s)
	timeout -k 10 "$2" "./$1" >"$log" 2>&1 </dev/null
	rc=$?
	echo "$rc" >"$out/$1$3.rc"
	echo "    exit $rc after $(($(date +%s) - start))s"
	grep -E '^(not )?ok ' "$log" | sed 's/^/    /'
	return "$rc"
}

# unlisted_failures NAME: print the failed subtests of NAME's first run that
# the denylist does not name.
unlisted_failures() {
	local sub
	sed -n 's/^not ok [0-9]* \([^ #]*\).*/\1/p' "$out/$1.log" | while read -r sub; do
		grep -qE "^($1|$1:$sub)([[:space:]]|$)" "$deny" || echo "$sub"
	done
}

while read -r name secs flags; do
	case $name in ''|'#'*) continue ;; esac
	[ "$only" = "  " ] || [[ $only == *" $name "* ]] || continue
	if [ -n "$missing" ] || [ ! -x "./$name" ]; then
		echo "$name: not built: ${missing:-no executable $name in $ksft}" | tee "$out/$name.log"
		echo 127 >"$out/$name.rc"
		continue
	fi
	run_one "$name" "$secs" ""
	rc=$?
	[ -n "$deny" ] && [[ " $flags " == *" retry "* ]] || continue
	[ "$rc" -eq 1 ] || continue
	failed=$(unlisted_failures "$name" | tr '\n' ' ')
	[ -n "$failed" ] || continue
	echo "    $name: unexpected failure of ${failed% }: running it once more"
	run_one "$name" "$secs" .retry
done <"$list"
