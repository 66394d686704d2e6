#!/bin/bash
# Runs inside the guest: run-selftests.sh KSFT_DIR LIST OUTDIR [NAME...]
# Runs each cgroup selftest named in LIST (or only NAME...) from KSFT_DIR
# with its timeout, one log and one exit-status file per test in OUTDIR.
# The tests run from a scratch ext4 file system (see setup-test-env.sh).
ksft=$1 list=$2 out=$3
shift 3
only=" $* "
mkdir -p "$out"
"$(dirname "$0")/setup-test-env.sh"
work=/tmp/ksft-scratch/cgroup
if mountpoint -q /tmp/ksft-scratch && cp -a "$ksft" "$work"; then
	cd "$work" || exit 1
else
	cd "$ksft" || exit 1
fi
while read -r name secs _; do
	case $name in ''|'#'*) continue ;; esac
	[ "$only" = "  " ] || [[ $only == *" $name "* ]] || continue
	if [ ! -x "./$name" ]; then
		echo "$name: not built" >"$out/$name.log"
		echo 127 >"$out/$name.rc"
		continue
	fi
	echo "==> $name (timeout ${secs}s)"
	start=$(date +%s)
	timeout -k 10 "$secs" "./$name" >"$out/$name.log" 2>&1 </dev/null
	rc=$?
	echo "$rc" >"$out/$name.rc"
	echo "    exit $rc after $(($(date +%s) - start))s"
	grep -E '^(not )?ok ' "$out/$name.log" | sed 's/^/    /'
done <"$list"
