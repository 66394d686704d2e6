#!/usr/bin/env bash
# The upstream BPF selftests that drive the rstat flush loop and the memcg
# stat kfuncs, as BPF CI would run them, on the base and on the series:
#   cgroup_hierarchical_stats  BPF programs count per-cgroup events with
#                              the rstat-updated kfunc and aggregate them in
#                              an fentry program on bpf_rstat_flush(), which
#                              the series calls only for the CPUs it visits;
#                              a parent must equal the sum of its children
#   cgroup_iter_memcg          the memcg stat kfuncs and
#                              bpf_mem_cgroup_flush_stats()
#   cgroup_iter                the cgroup iterator's walk orders
# Steps:
#   1. build config "test-bpf" (config "test" + config/bpf.config: function
#      tracer for BPF trampolines, BPF LSM) for the base tree
#      (build/obj/base-test-bpf) and for the series
#      (build/obj/patched-test-bpf);
#   2. build a test_progs with only these three tests
#      (checks/heavy/build-bpf-selftests.sh; CO-RE, one binary for both);
#   3. boot each kernel with 2 vCPUs and run
#      test_progs -t cgroup_hierarchical_stats,cgroup_iter_memcg,cgroup_iter
# A kernel passes if test_progs exits 0 and its dmesg has no splat. A test
# that fails on both kernels is a limit of this setup, not of the series
# (the script says so); one that fails on the series alone is a bug.
#
#   check-bpf-selftests.sh [base|patched]...   (default: both)
#
# Not part of the test command (README gives its time). Logs and results
# in build/bpf-selftests/; prints "pass bpf-selftests:KERNEL..." or
# "fail bpf-selftests:KERNEL..." lines and exits 1 if the series fails.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

usage() {
	cat <<'EOF'
usage: checks/heavy/check-bpf-selftests.sh [base|patched]...
The upstream BPF selftests cgroup_hierarchical_stats, cgroup_iter_memcg and
cgroup_iter on the base and/or the series (default: both): build config
"test-bpf" for each kernel and a test_progs with those three tests, boot
each kernel and run them. Prints "pass|fail bpf-selftests:KERNEL" lines;
exits 1 if the series fails. Logs and results: build/bpf-selftests/.
EOF
}
only_operands "$@"
tests=cgroup_hierarchical_stats,cgroup_iter_memcg,cgroup_iter
[ $# -gt 0 ] || set -- base patched
for k in "$@"; do
	case $k in base|patched) ;; *) usage_error "unknown kernel '$k' (base or patched)" ;; esac
done
out=$BUILD/bpf-selftests
mkdir -p "$out"
start=$(date +%s)
for k in "$@"; do
	case $k in
	base) "$TOP/scripts/get-base.sh"
	      "$TOP/scripts/build-kernel.sh" test-bpf "$BASE_TREE" base ;;
	patched) "$TOP/scripts/make-worktree.sh"
		 "$TOP/scripts/build-kernel.sh" test-bpf ;;
	esac
done
last=$1
for k in "$@"; do last=$k; done
"$TOP/checks/heavy/build-bpf-selftests.sh" "$out/bin" "$BUILD/obj/$last-test-bpf/vmlinux"

failed=0
for k in "$@"; do
	obj=$BUILD/obj/$k-test-bpf
	g=$out/$k
	rm -rf "$g"
	step "bpf-selftests $k: booting, test_progs -t $tests (log: $g/guest.log)"
	rc=0
	"$TOP/scripts/run-guest.sh" --kernel "$obj/arch/x86/boot/bzImage" --out "$g" \
		--timeout 1200 -- "$TOP/checks/heavy/guest/bpf-selftests.sh" "$out/bin" "$tests" || rc=$?
	grep -E '^(#[0-9]|Summary:)' "$g/guest.log" >"$g/summary.txt" || true
	summary=$(grep '^Summary:' "$g/summary.txt" || echo "no summary")
	splats=ok
	if [ ! -f "$g/dmesg.txt" ] || ! "$TOP/scripts/check-splats.py" "$g/dmesg.txt" >"$g/splats.txt"; then
		splats="kernel splat, see $g/dmesg.txt"
	fi
	if [ "$rc" -eq 0 ] && [ "$splats" = ok ]; then
		echo "pass bpf-selftests:$k ($summary)"
	else
		echo "fail bpf-selftests:$k (exit $rc, $summary, $splats; log: $g/guest.log)"
		grep -E '^#[0-9].*FAIL' "$g/summary.txt" | sed 's/^/    /' || true
	fi | tee "$g/result"
done
# the last result of each kernel, also of one not run this time
cat "$out"/base/result "$out"/patched/result >"$out/results.txt" 2>/dev/null || true
if grep -q '^fail bpf-selftests:patched' "$out/patched/result" 2>/dev/null; then
	if grep -q '^fail bpf-selftests:base' "$out/results.txt"; then
		info "both kernels fail: compare the FAIL lines; a test failing on both is not the series'"
	fi
	failed=1
fi
s=$(($(date +%s) - start))
info "bpf-selftests done in $((s / 60))m$((s % 60))s; results: $out/results.txt"
exit "$failed"
