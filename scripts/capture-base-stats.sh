#!/usr/bin/env bash
# Capture the stat files of the unpatched base into tests/stat-format/base,
# the reference scripts/check-stat-format.py compares the patched kernel
# with (shape: keys, order, separators).
#   capture-base-stats.sh [BZIMAGE]   (default: build/obj/base-bench)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel=${1:-$BUILD/obj/base-bench/arch/x86/boot/bzImage}
[ -f "$kernel" ] || die "no base kernel at $kernel; build it with: scripts/get-base.sh && scripts/build-kernel.sh bench $BASE_TREE base"
out=$BUILD/stat-capture/base-$(date +%Y%m%d-%H%M%S)
step "booting $kernel with 2 NUMA nodes"
"$TOP/scripts/run-guest.sh" --kernel "$kernel" --out "$out" --numa --timeout 900 -- \
	"$TOP/scripts/guest/capture-stats.sh" "$out/capture"
"$TOP/scripts/check-stat-format.py" "$out/capture" >/dev/null ||
	die "the base capture does not match the printf reference; see: scripts/check-stat-format.py $out/capture"
rm -rf "$TOP/tests/stat-format/base"
cp -r "$out/capture" "$TOP/tests/stat-format/base"
info "wrote tests/stat-format/base ($(find "$TOP/tests/stat-format/base" -type f | wc -l) files)"
