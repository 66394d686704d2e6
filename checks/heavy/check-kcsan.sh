#!/usr/bin/env bash
# KCSAN on the base and on the series (issue 47, section 1): no data race
# in code the series adds or changes that base does not also have.
#
#   check-kcsan.sh [--cpus N] [--time S] [base|patched]...   (default: both)
#
# For each kernel:
#   1. build config "test-kcsan" (config "test" + config/kcsan.config:
#      KCSAN with syzbot's options, see that file) with the harness-only
#      tests/kcsan/sched-instrument.diff, which makes KCSAN instrument
#      kernel/sched/build_utility.o, the object that builds psi.c
#      (scripts/build-kernel.sh --with; build/obj/<base|patched>-test-kcsan);
#   2. boot it with N vCPUs (default 4) under multi-threaded TCG without
#      icount (the vCPUs really run at once) and run every cgroup selftest
#      of config/selftests.list, with three times the list's timeouts, and
#      the denylist and retry rules of the test command. Both kernels run
#      the series' selftests (built from build/linux into
#      build/obj/patched-test-kcsan), so that both see the same workload;
#   3. boot it again for S seconds (default 600) of checks/stress.sh with
#      N vCPUs, multi-threaded;
#   4. collect every "BUG: KCSAN:" report of both boots' dmesg and group
#      them by the source file and function of each access's first frame
#      (checks/heavy/kcsan-reports.py, addr2line on the kernel's vmlinux):
#      build/kcsan/<kernel>/reports.json and summary.txt.
# Then the rule (checks/heavy/kcsan-reports.py compare): fail if the series has
# a report group that base does not also have (the same file:function
# pair) and that goes through code the series adds or changes: a function
# of its accesses' stacks (up to an interrupt entry) whose definition in a
# file the series touches (the files of patches/*.patch) differs from
# base's, the base tree and the work tree compared. A group of upstream
# functions in a touched file is listed and passes: KCSAN samples, so an
# upstream race can show on one kernel and not on the other.
# KCSAN reports are not splats here (CGSCALE_SPLATS_ALLOW=kcsan for
# scripts/check-splats.py); any other splat (WARNING, other BUG, lockdep,
# RCU stall, hung task...) fails the kernel's boot as everywhere else.
# A kernel also fails when a selftest fails (after the retry rule; on base
# the series' own selftests run too, and one failing there fails base's
# line, not the rule), the stress run fails, KCSAN did not say it was
# enabled, or a boot's dmesg does not start at "Linux version" (the ring
# buffer wrapped: reports lost).
#
# Run one kernel again (after a fix in the series: "patched") and the rule
# compares it with the other kernel's last reports.json. "base" alone needs
# the series' selftests built in build/obj/patched-test-kcsan.
#
# Not part of the test command; docs/heavy-checks.md gives its
# cost. Logs and results under build/kcsan/; prints "pass|fail kcsan:..."
# lines and exits 1 if anything failed.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

usage() {
	cat <<'EOF'
usage: checks/heavy/check-kcsan.sh [--cpus N] [--time S] [base|patched]...
KCSAN on the base and/or the series (default: both): build config
test-kcsan with tests/kcsan/sched-instrument.diff for each kernel, boot it
with N vCPUs (default 4) under multi-threaded TCG, run the cgroup selftests
of config/selftests.list, then S seconds (default 600) of checks/stress.sh,
and group the KCSAN reports of both boots by file and function
(build/kcsan/KERNEL/reports.json, summary.txt). Fails if the series has a
report that base does not also have through a function the series adds
or changes, or on any other
kernel splat, selftest or stress failure. Prints "pass|fail kcsan:..."
lines; exits 1 if anything failed. Logs and results: build/kcsan/.
  --cpus N   vCPUs of both boots (default 4)
  --time S   seconds of stress (default 600)
EOF
}
cpus=4
secs=600
while [ $# -gt 0 ]; do
	case $1 in
	--cpus) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || usage_error "--cpus needs a number of vCPUs (got '${2:-}')"
		cpus=$2; shift 2 ;;
	--time) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || usage_error "--time needs a number of seconds (got '${2:-}')"
		secs=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	-*) usage_error "unknown option '$1'" ;;
	*) break ;;
	esac
done
only_operands "$@"
[ $# -gt 0 ] || set -- base patched
for k in "$@"; do
	case $k in base|patched) ;; *) usage_error "unknown kernel '$k' (base or patched)" ;; esac
done

cfg=test-kcsan
diff=$TOP/tests/kcsan/sched-instrument.diff
out=$BUILD/kcsan
ksobj=$BUILD/obj/patched-$cfg		# where the series' selftests are built
ksft=$ksobj/kselftest/cgroup
# KCSAN reports are judged by kcsan-reports.py, not counted as splats; this
# reaches the check-splats.py calls of run-guest.sh and stress.sh too
export CGSCALE_SPLATS_ALLOW=kcsan
# multi-threaded TCG is what this check is for, even where KVM works
export CGSCALE_ACCEL=tcg
need_cmd nm addr2line
mkdir -p "$out"
start=$(date +%s)
elapsed() { local s=$(($(date +%s) - start)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }

# 1. builds: the kernels, then the series' selftests
"$TOP/scripts/make-worktree.sh"
for k in "$@"; do
	r=$out/$k
	rm -rf "$r"
	mkdir -p "$r"
	case $k in
	base) "$TOP/scripts/get-base.sh"
	      src=$BASE_TREE ;;
	patched) src=$SRC ;;
	esac
	step "kcsan $k: building $k-$cfg with $(basename "$diff") [$(elapsed)] (log: $r/build.log)"
	if ! "$TOP/scripts/build-kernel.sh" --with "$diff" "$cfg" "$src" "$k" >"$r/build.log" 2>&1; then
		tail -n 20 "$r/build.log" >&2
		echo "fail kcsan:$k:build(log: $r/build.log)" | tee -a "$r/results"
	fi
done
if [ -f "$ksobj/.config" ] && [ -f "$ksobj/vmlinux" ]; then
	step "kcsan: building the series' cgroup selftests in $ksobj [$(elapsed)] (log: $out/selftests-build.log)"
	"$TOP/scripts/build-selftests.sh" "$SRC" "$ksobj" >"$out/selftests-build.log" 2>&1 || {
		tail -n 20 "$out/selftests-build.log" >&2
		die "building the cgroup selftests failed; log: $out/selftests-build.log"
	}
fi
[ -x "$ksft/test_core" ] ||
	die "no series selftests in $ksft: run 'checks/heavy/check-kcsan.sh patched' (or both kernels) first"
# three times the list's timeouts: KCSAN's watchpoint delays and lockdep
# on 4 vCPU threads sharing the host's cores
list=$out/selftests.list
awk '/^[[:space:]]*(#|$)/ { print; next } { $2 = $2 * 3; print }' \
	"$TOP/config/selftests.list" >"$list"

# 2-4. per kernel: selftests boot, stress boot, reports
for k in "$@"; do
	r=$out/$k
	res=$r/results
	grep -q '^fail' "$res" 2>/dev/null && continue	# its build failed
	case $k in base) src=$BASE_TREE ;; patched) src=$SRC ;; esac
	obj=$BUILD/obj/$k-$cfg
	kernel=$obj/arch/x86/boot/bzImage
	g=$r/selftests
	mkdir -p "$g"
	cat >"$r/guest-selftests.sh" <<GUEST
#!/bin/bash
$TOP/scripts/guest/run-selftests.sh --retry $TOP/config/selftests.deny $ksft $list $g/selftests
mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
cat /sys/kernel/debug/kcsan >$g/kcsan-debugfs.txt 2>&1
exit 0
GUEST
	chmod +x "$r/guest-selftests.sh"
	step "kcsan $k: booting with $cpus vCPUs, multi-threaded TCG, all cgroup selftests [$(elapsed)] (log: $g/guest.log)"
	rc=0
	"$TOP/scripts/run-guest.sh" --kernel "$kernel" --out "$g" --mttcg --cpus "$cpus" \
		--timeout 10800 -- "$r/guest-selftests.sh" >"$r/selftests-boot.log" 2>&1 || rc=$?
	case $rc in
	0) echo "pass kcsan:$k:selftests-boot" ;;
	3) echo "fail kcsan:$k:selftests-boot(kernel splat other than KCSAN; see $g/dmesg.txt)" ;;
	*) echo "fail kcsan:$k:selftests-boot(exit $rc; see $r/selftests-boot.log and $g/console.log)" ;;
	esac | tee -a "$res"
	mkdir -p "$g/selftests"
	if "$TOP/scripts/summarize-selftests.py" "$g/selftests" "$TOP/config/selftests.deny" \
		>"$r/selftests-summary.txt" 2>&1; then
		echo "pass kcsan:$k:selftests($(tail -n 1 "$r/selftests-summary.txt"))"
	else
		echo "fail kcsan:$k:selftests($(tail -n 1 "$r/selftests-summary.txt"); see $r/selftests-summary.txt)"
	fi | tee -a "$res"

	step "kcsan $k: $secs s of stress with $cpus vCPUs, multi-threaded TCG [$(elapsed)] (log: $r/stress.log)"
	"$TOP/checks/stress.sh" --kernel "$kernel" --time "$secs" --cpus "$cpus" --mttcg \
		--out "$r/stress" >"$r/stress.log" 2>&1 || true
	grep -E '^(pass|fail) stress:' "$r/stress.log" | sed "s/^\(pass\|fail\) stress:/\1 kcsan:$k:stress:/" |
		tee -a "$res" || echo "fail kcsan:$k:stress(no results; log: $r/stress.log)" | tee -a "$res"

	step "kcsan $k: collecting the KCSAN reports [$(elapsed)] (summary: $r/summary.txt)"
	logs=()
	for d in "$g/dmesg.txt" "$r/stress/dmesg.txt"; do
		if [ -f "$d" ]; then
			logs+=("$d")
		else
			echo "fail kcsan:$k:dmesg(missing: $d)" | tee -a "$res"
		fi
	done
	if [ "${#logs[@]}" -eq 0 ] || ! "$TOP/checks/heavy/kcsan-reports.py" parse --kernel "$k" \
		--out "$r/reports.json" --vmlinux "$obj/vmlinux" --src "$src" --src "$(realpath -m "$src")" \
		"${logs[@]}" >"$r/summary.txt" 2>&1; then
		echo "fail kcsan:$k:reports(no reports.json; see $r/summary.txt)" | tee -a "$res"
	else
		sed 's/^/    /' "$r/summary.txt" | head -n 40
		python3 - "$r/reports.json" "$k" <<'EOF' | tee -a "$res"
import json, sys
d, k = json.load(open(sys.argv[1])), sys.argv[2]
for log in d["logs"]:
    src = log["source"]
    ok = log["starts_at_boot"]
    print(f"{'pass' if ok else 'fail'} kcsan:{k}:dmesg-complete({src}"
          f"{'' if ok else ': does not start at Linux version, the ring buffer wrapped'})")
    ok = log["kcsan_enabled"]
    print(f"{'pass' if ok else 'fail'} kcsan:{k}:kcsan-enabled({src}"
          f"{'' if ok else ': no kcsan: enabled line'})")
print(f"pass kcsan:{k}:reports({d['total']} KCSAN reports in {len(d['groups'])} groups)")
EOF
	fi
done

# the rule, with each kernel's last reports (also of one not run this time)
step "kcsan: the rule, base against the series [$(elapsed)] (summary: $out/summary.txt)"
rule=$out/rule
if [ ! -f "$out/base/reports.json" ] || [ ! -f "$out/patched/reports.json" ]; then
	echo "fail kcsan:rule(needs the reports of both kernels; missing: $(for k in base patched; do
		[ -f "$out/$k/reports.json" ] || printf '%s ' "$out/$k/reports.json"; done))" | tee "$rule"
else
	for k in base patched; do
		[[ " $* " == *" $k "* ]] || info "$k: reports of an earlier run ($(date -r "$out/$k/reports.json" '+%Y-%m-%d %H:%M'))"
	done
	"$TOP/checks/heavy/kcsan-reports.py" compare --base "$out/base/reports.json" \
		--series "$out/patched/reports.json" --patches "$TOP/patches" \
		--base-src "$BASE_TREE" --series-src "$SRC" \
		--out "$out/summary.txt" >"$out/compare.log" 2>&1 || true
	grep -E '^  (NOT ON BASE|not on base)' "$out/compare.log" || true
	grep -E '^(pass|fail) kcsan:rule' "$out/compare.log" >"$rule" ||
		echo "fail kcsan:rule(kcsan-reports.py compare failed; see $out/compare.log)" >"$rule"
	cat "$rule"
fi
failed=0
for k in "$@"; do
	! grep -q '^fail' "$out/$k/results" 2>/dev/null || failed=1
done
! grep -q '^fail' "$rule" || failed=1
cat "$out"/base/results "$out"/patched/results "$rule" >"$out/results.txt" 2>/dev/null || true
info "kcsan done in $(elapsed): $(grep -c '^pass' "$out/results.txt") passed, $(grep -c '^fail' "$out/results.txt") failed; results: $out/results.txt"
exit "$failed"
