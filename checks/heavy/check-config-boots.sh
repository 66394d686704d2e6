#!/usr/bin/env bash
# Boot what the build matrix only compiles: config "test" plus MAXSMP
# (NR_CPUS=8192, CPUMASK_OFFSTACK: patch 23's per-css cpumasks are then
# allocated) and config "test" plus PREEMPT_RT (the rstat and PSI locks under
# the RT locking rules, checked by lockdep). For each config:
#   1. build the patched kernel (build/obj/patched-CONFIG) and the cgroup
#      selftests against it;
#   2. boot it with 4 vCPUs and run the series' selftests of the flush and
#      PSI paths (test_rstat_cpus with its CPU hotplug case, test_psi,
#      test_rstat_flush, test_memcg_flush_threshold);
#   3. boot it again for SECONDS of checks/stress.sh with 4 vCPUs.
# A config passes with every selftest passed or skipped with a reason, the
# stress run passed and no kernel splat in either boot
# (scripts/check-splats.py).
#
#   check-config-boots.sh [--stress SECONDS] [CONFIG...]
#                                   (default: 60 s; test-maxsmp test-rt)
#
# Not part of the test command (README gives its time). Logs and results in
# build/config-boots/CONFIG/; prints "pass config-boot:..." or
# "fail config-boot:..." lines and exits 1 if any failed.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

usage() {
	cat <<'EOF'
usage: checks/heavy/check-config-boots.sh [--stress SECONDS] [CONFIG...]
Boot what the build matrix only compiles (default: configs test-maxsmp and
test-rt): build the patched kernel and the cgroup selftests of each CONFIG,
boot it with 4 vCPUs and run the flush and PSI selftests, then boot it
again for SECONDS (default 60) of checks/stress.sh. Prints
"pass|fail config-boot:..." lines; exits 1 if any failed. Logs and
results: build/config-boots/CONFIG/.
  --stress SECONDS  length of the stress run
EOF
}
secs=60
while [ $# -gt 0 ]; do
	case $1 in
	--stress) secs=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	-*) usage_error "unknown option '$1'" ;;
	*) break ;;
	esac
done
only_operands "$@"
[ $# -gt 0 ] || set -- test-maxsmp test-rt
for cfg in "$@"; do
	grep -q "^$cfg " "$TOP/config/configs" ||
		die "unknown config '$cfg'; the configs are in config/configs"
done
tests="test_rstat_cpus test_psi test_rstat_flush test_memcg_flush_threshold"

"$TOP/scripts/make-worktree.sh"
failed=0
for cfg in "$@"; do
	out=$BUILD/config-boots/$cfg
	rm -rf "$out"
	mkdir -p "$out"
	res=$out/results
	start=$(date +%s)
	if ! "$TOP/scripts/build-kernel.sh" "$cfg" >"$out/build.log" 2>&1; then
		echo "fail config-boot:$cfg(build; log: $out/build.log)" | tee -a "$res"
		failed=1
		continue
	fi
	obj=$BUILD/obj/patched-$cfg
	"$TOP/scripts/build-selftests.sh" "$SRC" "$obj" >>"$out/build.log" 2>&1 || {
		echo "fail config-boot:$cfg(selftests build; log: $out/build.log)" | tee -a "$res"
		failed=1
		continue
	}
	step "config $cfg: booting with 4 vCPUs, running $tests (log: $out/guest/guest.log)"
	rc=0
	"$TOP/scripts/run-guest.sh" --kernel "$obj/arch/x86/boot/bzImage" --out "$out/guest" \
		--cpus 4 --timeout 1800 -- \
		"$TOP/scripts/guest/run-selftests.sh" "$obj/kselftest/cgroup" \
		"$TOP/config/selftests.list" "$out/guest/selftests" $tests || rc=$?
	for t in $tests; do
		trc=$(cat "$out/guest/selftests/$t.rc" 2>/dev/null || echo none)
		case $trc in
		0) echo "pass config-boot:$cfg:$t" ;;
		4) echo "pass config-boot:$cfg:$t(skipped: $(grep -m1 '^ok .* # SKIP' "$out/guest/selftests/$t.log" || echo '?'))" ;;
		*) echo "fail config-boot:$cfg:$t(exit $trc; log: $out/guest/selftests/$t.log)"; failed=1 ;;
		esac
	done | tee -a "$res"
	if [ -f "$out/guest/dmesg.txt" ] && "$TOP/scripts/check-splats.py" "$out/guest/dmesg.txt" >"$out/guest/splats.txt"; then
		echo "pass config-boot:$cfg:no-kernel-splats(selftests boot)" | tee -a "$res"
	else
		echo "fail config-boot:$cfg:no-kernel-splats(selftests boot, exit $rc; see $out/guest/dmesg.txt)" | tee -a "$res"
		failed=1
	fi
	step "config $cfg: $secs s of stress with 4 vCPUs (log: $out/stress.log)"
	"$TOP/checks/stress.sh" --kernel "$obj/arch/x86/boot/bzImage" --time "$secs" --cpus 4 \
		--out "$out/stress" >"$out/stress.log" 2>&1 || true
	grep -E '^(pass|fail) stress:' "$out/stress.log" | sed "s/^\(pass\|fail\) stress:/\1 config-boot:$cfg:stress:/" |
		tee -a "$res" || { echo "fail config-boot:$cfg:stress(no results; log: $out/stress.log)" | tee -a "$res"; }
	! grep -q '^fail' "$res" || failed=1
	s=$(($(date +%s) - start))
	info "config $cfg: $(grep -c '^pass' "$res") passed, $(grep -c '^fail' "$res") failed in $((s / 60))m$((s % 60))s (kernel build included)"
done
exit "$failed"
