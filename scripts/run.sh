#!/usr/bin/env bash
# The main job: build the patched kernel, boot it, show the stat files of a
# demo cgroup hierarchy, run the series' selftests and print a summary.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<'EOF'
usage: scripts/run.sh [-h|--help]
The main job: build the patched kernel (config $CGSCALE_CONFIG, default
"test"), boot it, show a demo hierarchy's stat files, run the series'
selftests and print a summary. Takes no arguments; everything goes to
build/ (logs: build/logs/, this run: build/runs/DATE/).
EOF
}
case ${1:-} in
-h|--help) usage; exit 0 ;;
'') ;;
*) usage_error "unknown argument '$1' (it takes none); nothing was run" ;;
esac

cfg=${CGSCALE_CONFIG:-test}
run=$BUILD/runs/$(date +%Y%m%d-%H%M%S)
mkdir -p "$run"
"$TOP/scripts/install-deps.sh"
"$TOP/scripts/make-worktree.sh"
"$TOP/scripts/build-kernel.sh" "$cfg"
obj=$BUILD/obj/patched-$cfg
"$TOP/scripts/build-selftests.sh" "$SRC" "$obj"

# The series' own selftests: the cgroup tests its patches add.
mapfile -t ours < <(git -C "$SRC" diff --name-only --diff-filter=A base series -- \
	'tools/testing/selftests/cgroup/test_*.c' | xargs -r -n1 basename | sed 's/\.c$//')
step "booting $(basename "$obj"): demo hierarchy, then the series' selftests (${ours[*]:-none})"
cat >"$run/guest.sh" <<GUEST
#!/bin/bash
$TOP/scripts/guest/demo.sh
echo "=== the series' selftests"
$TOP/scripts/guest/run-selftests.sh $obj/kselftest/cgroup $TOP/config/selftests.list $run/guest/selftests ${ours[*]:-}
GUEST
chmod +x "$run/guest.sh"
rc=0
"$TOP/scripts/run-guest.sh" --kernel "$obj/arch/x86/boot/bzImage" --out "$run/guest" \
	--numa -- "$run/guest.sh" || rc=$?
cat "$run/guest/guest.log"
[ "$rc" -le 1 ] || die "the guest run failed (exit $rc); console: $run/guest/console.log"
step "summary (logs: $run)"
mkdir -p "$run/guest/selftests"
echo "pass guest:no-kernel-splats" >"$run/host-results"
"$TOP/scripts/summarize-selftests.py" "$run/guest/selftests" "$TOP/config/selftests.deny" \
	--host-results "$run/host-results"
