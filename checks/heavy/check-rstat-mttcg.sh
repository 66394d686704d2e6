#!/usr/bin/env bash
# test_rstat_cpus with vCPUs that really run in parallel.
#
#   check-rstat-mttcg.sh [--cpus N] [--rounds R]
#
# Under -icount, QEMU runs the vCPUs one at a time, so the flushes and
# updates of test_rstat_cpus never overlap on the host. This boots the
# patched test kernel (build/obj/patched-test, built by the test command or
# scripts/build-kernel.sh test) with N vCPUs (default 8) under TCG without
# -icount, where QEMU gives each vCPU its own host thread (multi-threaded
# TCG; -accel tcg,thread=multi is asked for explicitly), and runs
# test_rstat_cpus R times (default 20) in that boot. Any failed subtest or
# kernel splat fails the check. Results: build/mttcg/guest/ (console,
# dmesg, one log per round). On a 2-core host 8 vCPU threads share two cores, so the
# interleavings are the host scheduler's, which is the point.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

usage() {
	cat <<'EOF'
usage: checks/heavy/check-rstat-mttcg.sh [--cpus N] [--rounds R]
test_rstat_cpus with vCPUs that really run in parallel: boot the patched
test kernel (build/obj/patched-test) with N vCPUs (default 8) under
multi-threaded TCG without -icount and run test_rstat_cpus R times
(default 20) in that boot. Any failed subtest or kernel splat fails the
check. Results: build/mttcg/guest/.
EOF
}
cpus=8
rounds=20
while [ $# -gt 0 ]; do
	case $1 in
	--cpus) cpus=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) usage_error "unknown argument '$1'" ;;
	esac
done
obj=$BUILD/obj/patched-test
[ -x "$obj/kselftest/cgroup/test_rstat_cpus" ] ||
	die "no $obj/kselftest/cgroup/test_rstat_cpus; run scripts/test.sh or scripts/build-kernel.sh test && scripts/build-selftests.sh first"
out=$BUILD/mttcg
rm -rf "$out"
mkdir -p "$out"
# only run-guest.sh's --out directory is writable in the guest
logs=$out/guest
cat >"$out/guest.sh" <<GUEST
#!/bin/bash
$TOP/scripts/guest/setup-test-env.sh
echo "online CPUs: \$(nproc)"
fails=0
for r in \$(seq 1 $rounds); do
	$obj/kselftest/cgroup/test_rstat_cpus >$logs/round-\$r.log 2>&1
	rc=\$?
	grep -E '^(ok|not ok) |^# ' $logs/round-\$r.log | sed "s/^/round \$r: /"
	[ \$rc -eq 0 ] || fails=\$((fails + 1))
done
echo "rounds failed: \$fails of $rounds"
[ \$fails -eq 0 ]
GUEST
chmod +x "$out/guest.sh"
step "booting patched-test with $cpus vCPUs, multi-threaded TCG, no icount: test_rstat_cpus x $rounds (log: $out)"
start=$(date +%s)
rc=0
CGSCALE_ACCEL=tcg "$TOP/scripts/run-guest.sh" --kernel "$obj/arch/x86/boot/bzImage" \
	--out "$out/guest" --mttcg --cpus "$cpus" --timeout 1800 -- "$out/guest.sh" || rc=$?
cat "$out/guest/guest.log" 2>/dev/null || true
info "host time: $(($(date +%s) - start)) s"
[ "$rc" -eq 0 ] || die "test_rstat_cpus failed under multi-threaded TCG (exit $rc); logs: $out"
info "passed: $rounds rounds of test_rstat_cpus on $cpus parallel vCPUs, no splat"
