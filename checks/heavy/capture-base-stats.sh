#!/usr/bin/env bash
# Capture the stat files of the unpatched base into tests/stat-format/base,
# the reference checks/check-stat-format.py compares the patched kernel
# with (shape: keys, order, separators). Two boots, as in the test command:
# cgroup v2 with 2 NUMA nodes (checks/guest/capture-stats.sh), then a
# cgroup v1 memory hierarchy (checks/guest/capture-v1-stats.sh, into v1/).
#   capture-base-stats.sh [BZIMAGE]   (default: build/obj/base-test, the
#                                      test command's config on the base)
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

usage() {
	cat <<'EOF'
usage: checks/heavy/capture-base-stats.sh [BZIMAGE]
Capture the stat files of the unpatched base into tests/stat-format/base,
the reference of checks/check-stat-format.py: one boot with cgroup v2 and
2 NUMA nodes, one with a cgroup v1 memory hierarchy. BZIMAGE defaults to
build/obj/base-test/arch/x86/boot/bzImage (config test on the base).
Boot logs: build/stat-capture/base-DATE/.
EOF
}
only_operands "$@"
[ $# -le 1 ] || usage_error "want [BZIMAGE], got $# arguments"
kernel=${1:-$BUILD/obj/base-test/arch/x86/boot/bzImage}
[ -f "$kernel" ] || die "no base kernel at $kernel; build it with: scripts/get-base.sh && scripts/build-kernel.sh test $BASE_TREE base"
out=$BUILD/stat-capture/base-$(date +%Y%m%d-%H%M%S)
step "booting $kernel with 2 NUMA nodes (log: $out/guest.log)"
"$TOP/scripts/run-guest.sh" --kernel "$kernel" --out "$out" --numa --timeout 900 -- \
	"$TOP/checks/guest/capture-stats.sh" "$out/capture" ||
	die "the cgroup v2 capture failed; see $out/guest.log"
step "booting $kernel with a cgroup v1 memory hierarchy (log: $out/v1/guest.log)"
mkdir -p "$out/v1"
"$TOP/scripts/run-guest.sh" --kernel "$kernel" --out "$out/v1" --timeout 600 -- \
	"$TOP/checks/guest/capture-v1-stats.sh" "$out/v1/capture" ||
	die "the cgroup v1 capture failed; see $out/v1/guest.log"
cp -r "$out/v1/capture/v1" "$out/capture/"
"$TOP/checks/check-stat-format.py" "$out/capture" >/dev/null ||
	die "the base capture does not match the printf reference; see: checks/check-stat-format.py $out/capture"
rm -rf "$TOP/tests/stat-format/base"
cp -r "$out/capture" "$TOP/tests/stat-format/base"
info "wrote tests/stat-format/base ($(find "$TOP/tests/stat-format/base" -type f | wc -l) files)"
