#!/usr/bin/env bash
# The value-level cross-checks, outside CI. Builds config test with the two
# harness diffs of tests/crosscheck (see their headers) into
# build/obj/xcheck-test (xcheck-break-test with --break):
#   stat-printf.diff  each show function the series converted also prints the
#                     same values with its old printf format and WARNs if the
#                     bytes differ;
#   psi-shadow.diff   upstream's PSI task counts, states and times kept beside
#                     the series' own, compared after every change, at every
#                     read, and for every CPU the avgs aggregator skips.
# Then runs under it what the test command runs in the guest: all cgroup
# selftests (test_psi among them), the stat capture with two NUMA nodes and
# the odd reads, and SECONDS of the stress run. Counts the cross-check
# reports ("cgscale cross-check" of stat-printf.diff, "psi cross-check:" of
# psi-shadow.diff) in each boot's dmesg.
#
#   check-crosscheck.sh [--stress SECONDS] [--break NAME] [--shadow DIFF]
#                       [--config CONFIG]
#
# --shadow DIFF uses DIFF instead of tests/crosscheck/psi-shadow.diff, for
# a work tree other than the series (CGSCALE_SRC), such as a work-in-progress
# topic of wip/ whose patches change what the shadow compares.
# --config CONFIG builds config CONFIG of config/configs instead of test
# (test-irqtime: PSI's IRQ time too), into build/obj/xcheck-CONFIG. A
# config with CONFIG_IRQ_TIME_ACCOUNTING gets one more boot, which must
# find /proc/pressure/irq readable (TCG can turn IRQ time off).
# The selftests are built from the tree under test, into the same objects.
#
# Passes with zero WARNs and no other kernel splat. --break NAME also
# applies tests/crosscheck/breaks/NAME.diff, a deliberate formatting bug,
# and then passes only if the cross-check fires (one boot, the stat
# capture); NAME may also be the path of a break diff elsewhere (wip/).
# Results in build/xcheck/<date>/; prints "pass xcheck:..." or
# "fail xcheck:..." lines and exits 1 on a failure.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
. "$(dirname "$0")/../../scripts/series.sh"

usage() {
	cat <<'EOF'
usage: checks/heavy/check-crosscheck.sh [--stress SECONDS] [--break NAME]
                                        [--shadow DIFF] [--config CONFIG]
The value-level cross-checks: build config test with the harness diffs of
tests/crosscheck (stat-printf.diff, psi-shadow.diff) into
build/obj/xcheck-test, boot it for the stat capture with the odd reads,
all cgroup selftests and SECONDS (default 60) of stress, and count the
cross-check reports in each boot's dmesg. Passes with none and no other
kernel splat. Prints "pass|fail xcheck:..." lines; exits 1 on a failure.
Results: build/xcheck/DATE/.
  --stress SECONDS  length of the stress run
  --break NAME      also apply tests/crosscheck/breaks/NAME.diff (or the
                    break diff at path NAME); passes only if the cross-check
                    fires (one boot, the stat capture)
  --shadow DIFF     the PSI shadow diff to use instead of psi-shadow.diff
                    (a work tree other than the series, CGSCALE_SRC)
  --config CONFIG   build config CONFIG of config/configs instead of test
EOF
}
secs=60 brk= shadow=$TOP/tests/crosscheck/psi-shadow.diff cfg=test
while [ $# -gt 0 ]; do
	case $1 in
	--stress) secs=$2; shift 2 ;;
	--break) brk=$2; shift 2 ;;
	--shadow) shadow=$(realpath "$2"); shift 2 ;;
	--config) cfg=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) usage_error "unknown argument '$1'" ;;
	esac
done
grep -q "^$cfg " "$TOP/config/configs" || die "no config $cfg in config/configs"
[ -f "$shadow" ] || die "no PSI shadow diff $shadow"
withs=(--with "$TOP/tests/crosscheck/stat-printf.diff" --with "$shadow")
if [ -n "$brk" ]; then
	# NAME, or the path of a break diff elsewhere (wip/)
	brkdiff=$TOP/tests/crosscheck/breaks/$brk.diff
	case $brk in */*) brkdiff=$(realpath "$brk"); brk=$(basename "$brk" .diff) ;; esac
	[ -f "$brkdiff" ] ||
		die "no $brkdiff (see: ls tests/crosscheck/breaks)"
	withs+=(--with "$brkdiff")
fi
[ -z "$(sgit status --porcelain --untracked-files=no)" ] ||
	die "the work tree $SRC has uncommitted changes; commit or stash them first"
out=$BUILD/xcheck/$(date +%Y%m%d-%H%M%S)${brk:+-$brk}
mkdir -p "$out"
start=$(date +%s)

# A break builds into its own objects, so that a run without one can go on
# booting build/obj/xcheck-test meanwhile.
name=xcheck${brk:+-break}
step "building config $cfg with the cross-check${brk:+ and break $brk} (build/obj/$name-$cfg)"
"$TOP/scripts/build-kernel.sh" "${withs[@]}" "$cfg" "$SRC" "$name" >"$out/build.log" 2>&1 || {
	tail -n 20 "$out/build.log" >&2
	die "building the cross-check kernel failed; log: $out/build.log (do the diffs of tests/crosscheck still apply to the series?)"
}
kernel=$BUILD/obj/$name-$cfg/arch/x86/boot/bzImage
# The selftests of the tree under test (a wip tree may add cases)
selftests=$BUILD/obj/$name-$cfg/kselftest/cgroup
if [ -z "$brk" ]; then
	step "building the cgroup selftests of $SRC"
	"$TOP/scripts/build-selftests.sh" "$SRC" "$BUILD/obj/$name-$cfg" >>"$out/build.log" 2>&1 ||
		die "building the cgroup selftests failed; log: $out/build.log"
fi

# count NAME DMESG: the cross-check reports of one boot (stat-printf WARNs
# on its first mismatch and prints a rate-limited line for later ones,
# psi-shadow prints a line for each of its first 20; a boot that timed out
# has only its console log)
xc_pattern="cgscale cross-check|psi cross-check:"
count() {
	local n log=$2
	[ -f "$log" ] || log=$(dirname "$2")/console.log
	n=$(grep -c -E "$xc_pattern" "$log" 2>/dev/null || true)
	echo "$1 ${n:-0}" >>"$out/counts"
	grep -E "$xc_pattern" "$log" 2>/dev/null | head -n 3 | sed 's/^/    /' || true
}
: >"$out/counts"
step "boot: stat capture with 2 NUMA nodes and the odd reads"
"$TOP/scripts/run-guest.sh" --kernel "$kernel" --out "$out/format" --numa --timeout 900 -- \
	"$TOP/checks/guest/capture-stats.sh" "$out/format/capture" "$out/format/odd-reads.txt" \
	>/dev/null 2>&1 || true
count format "$out/format/dmesg.txt"
# Under TCG the guest may turn IRQ time accounting off (an unstable TSC):
# with it configured, show that it was on (/proc/pressure/irq readable)
# and that no boot marked the TSC unstable, which turns it off, or its
# path went unchecked.
irqtime=0
grep -q '^CONFIG_IRQ_TIME_ACCOUNTING=y' "$BUILD/obj/$name-$cfg/.config" && irqtime=1
if [ -z "$brk" ] && [ $irqtime = 1 ]; then
	step "boot: IRQ time accounting on (/proc/pressure/irq)"
	mkdir -p "$out/irq"
	"$TOP/scripts/run-guest.sh" --kernel "$kernel" --out "$out/irq" --timeout 600 -- \
		/bin/sh -c "cat /proc/pressure/irq >$out/irq/irq.pressure" >/dev/null 2>&1 || true
fi
if [ -z "$brk" ]; then
	step "boot: all cgroup selftests"
	"$TOP/scripts/run-guest.sh" --kernel "$kernel" --out "$out/selftests" --timeout 3600 -- \
		"$TOP/scripts/guest/run-selftests.sh" --retry "$TOP/config/selftests.deny" \
		"$selftests" "$TOP/config/selftests.list" "$out/selftests/st" >/dev/null 2>&1 || true
	count selftests "$out/selftests/dmesg.txt"
	step "boot: ${secs} s of cgroup stress"
	"$TOP/checks/stress.sh" --kernel "$kernel" --time "$secs" --out "$out/stress" \
		>"$out/stress.log" 2>&1 || true
	count stress "$out/stress/dmesg.txt"
fi

total=$(awk '{ n += $2 } END { print n + 0 }' "$out/counts")
secs_run=$(($(date +%s) - start))
summary="$(tr '\n' ' ' <"$out/counts"); $((secs_run / 60))m$((secs_run % 60))s; $out"
failed=0
if [ -n "$brk" ]; then
	if [ "$total" -gt 0 ]; then
		echo "pass xcheck:break-$brk (the cross-check fired $total times: $summary)"
	else
		echo "fail xcheck:break-$brk (the cross-check did not fire: $summary)"
		failed=1
	fi
else
	if [ "$total" -eq 0 ]; then
		echo "pass xcheck:no-mismatch (reports per boot: $summary)"
	else
		echo "fail xcheck:no-mismatch ($total reports: $summary)"
		failed=1
	fi
	for d in format selftests stress; do
		if [ -f "$out/$d/dmesg.txt" ] && "$TOP/scripts/check-splats.py" "$out/$d/dmesg.txt" >/dev/null; then
			echo "pass xcheck:no-kernel-splats($d)"
		else
			echo "fail xcheck:no-kernel-splats($d, see $out/$d/dmesg.txt)"
			failed=1
		fi
	done
	if [ $irqtime = 1 ]; then
		unstable=$(grep -l 'Marking TSC unstable' "$out"/*/dmesg.txt 2>/dev/null || true)
		if ! grep -q '^full ' "$out/irq/irq.pressure" 2>/dev/null; then
			echo "fail xcheck:irqtime-on (/proc/pressure/irq unreadable in the guest; see $out/irq)"
			failed=1
		elif [ -n "$unstable" ]; then
			echo "fail xcheck:irqtime-on (the TSC was marked unstable, IRQ time off: $unstable)"
			failed=1
		else
			echo "pass xcheck:irqtime-on ($(head -n 1 "$out/irq/irq.pressure"))"
		fi
	fi
	grep -E '^(pass|fail) stress:' "$out/stress.log" | sed 's/^/    /' || true
fi
exit "$failed"
