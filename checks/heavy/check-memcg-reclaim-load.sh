#!/usr/bin/env bash
# Is test_memcontrol:test_memcg_reclaim load-sensitive on the base too?
#
#   check-memcg-reclaim-load.sh [--runs N] [--hogs N] [--ksft DIR --tag NAME]
#                               KERNEL...
#
# Boots each KERNEL (a directory under build/obj, e.g. base-bench and
# patched-bench: same config), in the order given, with N CPU hogs
# (stress-ng --cpu) running on the host beside the guest the whole time,
# and runs the same test_memcontrol binary RUNS times in each boot (after
# the test command's guest setup: zram swap, ext4 scratch). Prints per
# kernel how often test_memcg_reclaim failed, and where it failed.
# The guest clock is the host's wall clock (no icount): the hogs slow the
# guest down as other work on a user's machine would.
# --ksft DIR runs another build of test_memcontrol, e.g. one made by
# checks/heavy/build-cgroup-test-variant.sh with tests/memcg-reclaim/trace.diff
# (the TAG names its results). The default binary is the series' own
# test_memcontrol, which has patch 41's wait. The "upstream" runs of
# 2026-11-27 (tests/memcg-reclaim/) used the series' binary from before
# patch 41, which had the upstream test unchanged.
# Results: build/memcg-load/TAG-KERNEL/ (guest logs; TAG "series" by
# default) and a line per kernel appended to build/memcg-load/summary.txt.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

usage() {
	cat <<'EOF2'
usage: checks/heavy/check-memcg-reclaim-load.sh [--runs N] [--hogs N]
                                                [--ksft DIR --tag NAME] KERNEL...
Boot each kernel build/obj/KERNEL with N CPU hogs on the host (default 2)
and run test_memcontrol RUNS times (default 5) in it; print how often
test_memcg_reclaim failed. --ksft: the selftest directory to use for every
kernel (default: build/obj/patched-test/kselftest/cgroup), --tag: the name
of that build in the results (default: series, the work tree's own test).
Results: build/memcg-load/.
EOF2
}
runs=5 hogs=2 tag=series ksft=$BUILD/obj/patched-test/kselftest/cgroup
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage; exit 0 ;;
	--runs) runs=$2; shift 2 ;;
	--hogs) hogs=$2; shift 2 ;;
	--ksft) ksft=$2; shift 2 ;;
	--tag) tag=$2; shift 2 ;;
	-*) usage_error "unknown option '$1'" ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || usage_error "want at least one KERNEL (a directory under build/obj)"
[ -x "$ksft/test_memcontrol" ] ||
	die "check-memcg-reclaim-load.sh: no test_memcontrol in $ksft; build the selftests with scripts/build-selftests.sh first"
for k in "$@"; do
	[ -f "$BUILD/obj/$k/arch/x86/boot/bzImage" ] ||
		die "check-memcg-reclaim-load.sh: no kernel at build/obj/$k; build it with scripts/build-kernel.sh first"
done
out=$BUILD/memcg-load
mkdir -p "$out"
hog_pid=
if [ "$hogs" -gt 0 ]; then
	command -v stress-ng >/dev/null || die "check-memcg-reclaim-load.sh: stress-ng is missing; run scripts/install-deps.sh"
	stress-ng --cpu "$hogs" --quiet &
	hog_pid=$!
fi
trap '[ -z "$hog_pid" ] || kill "$hog_pid" 2>/dev/null || true' EXIT
for k in "$@"; do
	r=$out/$tag-$k
	rm -rf "$r"
	step "booting $k: test_memcontrol $runs times, $hogs CPU hogs on the host"
	"$TOP/scripts/run-guest.sh" --kernel "$BUILD/obj/$k/arch/x86/boot/bzImage" --out "$r" \
		--timeout $((runs * 900 + 300)) -- \
		"$TOP/checks/heavy/guest/repeat-selftest.sh" "$ksft" test_memcontrol "$runs" "$r/runs" ||
		warn "the guest of $k ended with status $?: see $r/console.log"
	failed=0
	for i in $(seq 1 "$runs"); do
		log=$r/runs/test_memcontrol.$i.log
		if grep -q '^not ok .* test_memcg_reclaim' "$log" 2>/dev/null; then
			failed=$((failed + 1))
		fi
	done
	done_runs=$(find "$r/runs" -name 'test_memcontrol.*.rc' 2>/dev/null | wc -l)
	other=$(cat "$r"/runs/test_memcontrol.*.log 2>/dev/null |
		sed -n 's/^not ok [0-9]* \([^ ]*\).*/\1/p' | grep -v '^test_memcg_reclaim$' | sort | uniq -c | tr -s ' ' | tr '\n' ';' || true)
	msgs=$(cat "$r"/runs/test_memcontrol.*.log 2>/dev/null | grep -c 'failed to allocate' || true)
	echo "$(date -u +%F) $tag test_memcontrol on $k: test_memcg_reclaim failed $failed of $done_runs runs ($hogs host CPU hogs; 'failed to allocate' $msgs times; other failures: ${other:-none})" |
		tee -a "$out/summary.txt"
done
