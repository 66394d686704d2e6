#!/usr/bin/env bash
# The selftest of an upstream mechanism against its ablation.
#
#   check-ablation-selftest.sh ABLATION TEST
#
# Boots the base bench kernel (build/obj/base-bench) and the ablation
# kernel (build/obj/ablation-ABLATION-bench, bench/ablations/ABLATION.diff;
# bench/bench.sh builds both for the benchmark that names the ablation)
# once each and runs the cgroup selftest TEST (from the patched test
# build, build/obj/patched-test/kselftest/cgroup) in each. The check
# passes if TEST passes on base and fails on the ablation: the test can
# see the mechanism switched off. Logs: build/ablation-selftest/ABLATION/.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

usage() {
	cat <<'EOF'
usage: checks/heavy/check-ablation-selftest.sh ABLATION TEST
The selftest of an upstream mechanism against its ablation: boot the base
bench kernel (build/obj/base-bench) and the ablation kernel
(build/obj/ablation-ABLATION-bench, bench/ablations/ABLATION.diff; built by
bench/bench.sh) once each and run the cgroup selftest TEST of the patched
test build in each. Passes if TEST passes on base and fails on the
ablation. Logs: build/ablation-selftest/ABLATION/.
EOF
}
only_operands "$@"
[ $# -eq 2 ] || usage_error "want ABLATION TEST, got $# arguments"
abl=$1 test=$2
prog=$BUILD/obj/patched-test/kselftest/cgroup/$test
[ -x "$prog" ] || die "no $prog; run scripts/test.sh or scripts/build-selftests.sh first"
out=$BUILD/ablation-selftest/$abl
rm -rf "$out"
for k in base "ablation-$abl"; do
	[ -f "$BUILD/obj/$k-bench/arch/x86/boot/bzImage" ] ||
		die "no kernel $BUILD/obj/$k-bench; run bench/bench.sh for the benchmark that uses $abl first"
done
rc_of() { # KERNEL-NAME: boot it, run TEST, print its exit status
	local k=$BUILD/obj/$1-bench/arch/x86/boot/bzImage rc=0
	mkdir -p "$out/$1"
	step "booting $1-bench, running $test (log: $out/$1/guest.log)" >&2
	"$TOP/scripts/run-guest.sh" --kernel "$k" --out "$out/$1" --timeout 600 -- \
		"$prog" >/dev/null 2>&1 || rc=$?
	echo "$rc"
}
base_rc=$(rc_of base)
abl_rc=$(rc_of "ablation-$abl")
info "$test: exit $base_rc on base, $abl_rc on ablation $abl"
grep -hE '^(ok|not ok) ' "$out/base/guest.log" | sed 's/^/    base: /' || true
grep -hE '^(ok|not ok) ' "$out/ablation-$abl/guest.log" | sed "s/^/    $abl: /" || true
[ "$base_rc" -eq 0 ] || die "$test failed on base (exit $base_rc): see $out/base/"
[ "$abl_rc" -ne 0 ] && [ "$abl_rc" -ne 124 ] && [ "$abl_rc" -ne 3 ] ||
	die "$test did not fail cleanly on the ablation (exit $abl_rc; 124 timeout, 3 splat): see $out/ablation-$abl/"
info "passed: $test passes on base and fails with $abl"
