#!/usr/bin/env bash
# test_psi on the mirror, with or without a break:
#   wip/psi-mirror/run-test_psi.sh BREAK.diff|none NAME
# Builds config "test" from build/linux-edit (the series plus the patches of
# wip/psi-mirror, committed) with BREAK applied for the build, as
# build/obj/mirror-break-test, builds its cgroup selftests (test_psi with
# test_psi_chain) and runs test_psi in a guest. Results:
# build/prove-wip/NAME/{summary.txt,guest/res/test_psi.log}.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
[ $# -eq 2 ] || { echo "usage: $0 BREAK.diff|none NAME" >&2; exit 2; }
brk=$1 name=$2
src=$top/build/linux-edit
[ -e "$src/.git" ] || { echo "error: no work tree $src; see wip/psi-mirror/README.md" >&2; exit 1; }
out=build/prove-wip/$name
rm -rf "$out"
mkdir -p "$out"
with=(--with "$brk")
[ "$brk" = none ] && with=()
echo "==> building (log: $out/build.log)"
scripts/build-kernel.sh "${with[@]}" test "$src" mirror-break >"$out/build.log" 2>&1
scripts/build-selftests.sh "$src" build/obj/mirror-break-test >>"$out/build.log" 2>&1
printf 'test_psi 300\n' >"$out/list"
echo "==> booting (logs: $out/guest)"
scripts/run-guest.sh --kernel build/obj/mirror-break-test/arch/x86/boot/bzImage \
	--out "$out/guest" --timeout 900 -- \
	scripts/guest/run-selftests.sh "$top/build/obj/mirror-break-test/kselftest/cgroup" \
	"$top/$out/list" "$top/$out/guest/res" >>"$out/build.log" 2>&1 || true
grep -E "^(ok|not ok)" "$out/guest/res/test_psi.log" | tee "$out/summary.txt"
