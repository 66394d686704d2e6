#!/usr/bin/env bash
# The test command: host checks, build, boot, cgroup selftests and sysfs_perm, summary.
# Last line: "N passed, N failed, N skipped". Exit 1 when anything failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<'EOF'
usage: scripts/test.sh [-h|--help]
The test command (.ci/run runs it): series checks, pytest, the per-tree
mails and their check, build, boot, all cgroup selftests and sysfs_perm,
stat format checks and KUnit, 60 s of stress, bench smoke, host-bench
smoke. Takes no arguments; prints one line per check and ends with
"N passed, N failed, N skipped"; exits 1 on any failure.
Logs: build/test-runs/latest/.
EOF
}
case ${1:-} in
-h|--help) usage; exit 0 ;;
'') ;;
*) usage_error "unknown argument '$1' (it takes none); nothing was run" ;;
esac

cfg=${CGSCALE_CONFIG:-test}
run=$BUILD/test-runs/$(date +%Y%m%d-%H%M%S)
mkdir -p "$run" "$LOGS"
ln -sfn "$run" "$BUILD/test-runs/latest"
host=$run/host-results
: >"$host"
t0=$(date +%s)
elapsed() { local s=$(($(date +%s) - t0)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }

# What a fresh clone writes (measured 2026-11-27 with du: 8.0 GiB in all):
# the base tree (1.8 GiB), the work tree (2.2 GiB), the mails' work tree
# (1.8 GiB) and the test kernel's objects (2.1 GiB); 1 GiB of slack for
# logs, the guests' files and gcc's temporaries: 9 GiB on a fresh clone.
gib=1
[ -d "$BUILD/base" ] || gib=$((gib + 2))
[ -d "$SRC/.git" ] || [ -f "$SRC/.git" ] || gib=$((gib + 2))
[ -d "$BUILD/submit-work" ] || gib=$((gib + 2))
[ -f "$BUILD/obj/patched-$cfg/vmlinux" ] || gib=$((gib + 2))
need_disk "test.sh (before its first step)" "$gib" "the test command on this build area"

step "host: dependencies"
"$TOP/scripts/install-deps.sh"

step "host: work tree (base + patches/)"
"$TOP/scripts/make-worktree.sh"

step "host: series checks (round trip, checkpatch --strict, Signed-off-by, whitespace)"
"$TOP/scripts/check-series.sh" "$run/series-results" || true
cat "$run/series-results" >>"$host"

step "host: harness unit tests (pytest, log: $run/pytest.log)"
if "$VENV/bin/python" -m pytest -rA -q -p no:cacheprovider "$TOP/tests" >"$run/pytest.log" 2>&1; then :; fi
sed -n 's/^PASSED \(.*\)$/pass pytest:\1/p; s/^FAILED \([^ ]*\).*$/fail pytest:\1/p; s/^ERROR \([^ ]*\).*$/fail pytest:\1/p' \
	"$run/pytest.log" >>"$host"
grep -q '^pass pytest:' "$host" || echo "fail pytest:(no test ran; see $run/pytest.log)" >>"$host"
tail -n 1 "$run/pytest.log" | sed 's/^/    /'

# The per-tree mails as maintainers would read them: render them (b4, git,
# checkpatch; no kernel build; without a sender, so NOT FOR SENDING) and
# check them (docs/submission.md, "The mail check"). About 3-4 min.
step "host: the per-tree mails (prepare-submission.sh, check-mails.py; log: $run/submission.log) [$(elapsed)]"
ts=$(date +%s)
if "$TOP/submit/prepare-submission.sh" >"$run/submission.log" 2>&1; then
	"$TOP/submit/check-mails.py" "$BUILD/submit" >"$run/mail-results" || true
	cat "$run/mail-results" >>"$host"
	info "$(grep -c '^pass' "$run/mail-results") mail checks passed, $(grep -c '^fail' "$run/mail-results") failed ($(($(date +%s) - ts)) s)"
else
	echo "fail mails:(prepare-submission.sh failed; see $run/submission.log)" >>"$host"
fi

step "build: kernel ($cfg config) [$(elapsed)]"
"$TOP/scripts/build-kernel.sh" "$cfg"
obj=$BUILD/obj/patched-$cfg
step "build: cgroup selftests [$(elapsed)]"
"$TOP/scripts/build-selftests.sh" "$SRC" "$obj"

step "boot: $(basename "$obj") under virtme-ng, running the cgroup selftests and sysfs_perm [$(elapsed)]"
# One boot, one result directory: the cgroup selftests (upstream ones
# retried), then config/selftests-sysfs.list from filesystems/sysfs, never
# retried (a tree without it: "sysfs_perm: not built: no directory ...").
st=$TOP/scripts/guest/run-selftests.sh
cat >"$run/guest-selftests.sh" <<GUEST
#!/bin/bash
$(printf '%q ' "$st" --retry "$TOP/config/selftests.deny" "$obj/kselftest/cgroup" \
	"$TOP/config/selftests.list" "$run/guest/selftests") ${CGSCALE_TESTS:-}
a=\$?
$(printf '%q ' "$st" "$obj/kselftest/filesystems/sysfs" "$TOP/config/selftests-sysfs.list" \
	"$run/guest/selftests") ${CGSCALE_TESTS:-}
b=\$?
exit \$((a > b ? a : b))
GUEST
chmod +x "$run/guest-selftests.sh"
rc=0
"$TOP/scripts/run-guest.sh" --kernel "$obj/arch/x86/boot/bzImage" --out "$run/guest" \
	--timeout "${CGSCALE_GUEST_TIMEOUT:-3600}" -- "$run/guest-selftests.sh" || rc=$?
case $rc in
0|1|3) echo "pass guest:boot-and-run" >>"$host" ;;
*) echo "fail guest:boot-and-run(exit $rc, console: $run/guest/console.log)" >>"$host" ;;
esac
if [ -f "$run/guest/dmesg.txt" ] && "$TOP/scripts/check-splats.py" "$run/guest/dmesg.txt" >/dev/null; then
	echo "pass guest:no-kernel-splats" >>"$host"
else
	echo "fail guest:no-kernel-splats(see $run/guest/dmesg.txt)" >>"$host"
fi

step "boot: $(basename "$obj") with 2 NUMA nodes: stat file format and KUnit [$(elapsed)]"
rc=0
"$TOP/scripts/run-guest.sh" --kernel "$obj/arch/x86/boot/bzImage" --out "$run/format" --numa \
	--timeout 1800 -- "$TOP/checks/guest/capture-stats.sh" "$run/format/capture" \
	"$run/format/odd-reads.txt" || rc=$?
if [ "$rc" -eq 0 ]; then
	echo "pass guest:stat-capture" >>"$host"
else
	echo "fail guest:stat-capture(exit $rc, log: $run/format/guest.log)" >>"$host"
fi
step "boot: $(basename "$obj") with a cgroup v1 memory hierarchy: v1 memory.stat format [$(elapsed)]"
rc=0
"$TOP/scripts/run-guest.sh" --kernel "$obj/arch/x86/boot/bzImage" --out "$run/format-v1" \
	--timeout 600 -- "$TOP/checks/guest/capture-v1-stats.sh" "$run/format-v1/capture" \
	"$run/format-v1/odd-reads.txt" || rc=$?
if [ "$rc" -eq 0 ]; then
	echo "pass guest:stat-capture-v1" >>"$host"
	mkdir -p "$run/format/capture" && cp -r "$run/format-v1/capture/v1" "$run/format/capture/"
else
	echo "fail guest:stat-capture-v1(exit $rc, log: $run/format-v1/guest.log)" >>"$host"
fi
if [ -d "$run/format/capture" ]; then
	"$TOP/checks/check-stat-format.py" "$run/format/capture" --base "$TOP/tests/stat-format/base" \
		>"$run/format/check.txt" || true
	cat "$run/format/check.txt" >>"$host"
	info "$(grep -c '^pass' "$run/format/check.txt") format checks passed, $(grep -c '^fail' "$run/format/check.txt") failed"
fi
for f in "$run/format/odd-reads.txt" "$run/format-v1/odd-reads.txt"; do
	if [ -s "$f" ]; then
		cat "$f" >>"$host"
	else
		echo "fail odd-reads:(no results in $f; log: $(dirname "$f")/guest.log)" >>"$host"
	fi
done
if [ -f "$run/format-v1/dmesg.txt" ]; then
	if "$TOP/scripts/check-splats.py" "$run/format-v1/dmesg.txt" >/dev/null; then
		echo "pass guest:no-kernel-splats(v1 boot)" >>"$host"
	else
		echo "fail guest:no-kernel-splats(v1 boot, see $run/format-v1/dmesg.txt)" >>"$host"
	fi
fi
if [ -f "$run/format/dmesg.txt" ]; then
	"$TOP/checks/kunit-results.py" "$run/format/dmesg.txt" seq_buf kernfs >>"$host" || true
	if "$TOP/scripts/check-splats.py" "$run/format/dmesg.txt" >/dev/null; then
		echo "pass guest:no-kernel-splats(format boot)" >>"$host"
	else
		echo "fail guest:no-kernel-splats(format boot, see $run/format/dmesg.txt)" >>"$host"
	fi
fi

step "boot: $(basename "$obj") under ${CGSCALE_STRESS_SECONDS:-60} s of cgroup stress with readers of every stat file [$(elapsed)]"
"$TOP/checks/stress.sh" --kernel "$obj/arch/x86/boot/bzImage" --time "${CGSCALE_STRESS_SECONDS:-60}" \
	--out "$run/stress" >"$run/stress.log" 2>&1 || true
grep -E '^(pass|fail) stress:' "$run/stress.log" >>"$host" ||
	echo "fail stress:(no results; log: $run/stress.log)" >>"$host"
grep -E '^ +\{' "$run/stress.log" || true

step "bench: smoke run of every benchmark on the test kernel [$(elapsed)]"
if "$TOP/bench/bench.sh" --smoke --out "$run/bench-smoke" >"$run/bench-smoke.log" 2>&1; then
	echo "pass bench:smoke" >>"$host"
else
	tail -n 5 "$run/bench-smoke.log"
	echo "fail bench:smoke(log: $run/bench-smoke.log)" >>"$host"
fi

# host-bench (docs/hardware.md) on the test kernel: that it runs as root
# in a guest, says it has no PMU (TCG) and writes its rows, and that
# host-compare.py reads them. Two perf bench benchmarks, tiny (about 30 s
# with the boot on an idle 2-core host).
step "boot: $(basename "$obj"): host-bench smoke (hardware/host-bench.sh --quick, hardware/host-bench/smoke.env) [$(elapsed)]"
rc=0
"$TOP/scripts/run-guest.sh" --kernel "$obj/arch/x86/boot/bzImage" --out "$run/host-bench" \
	--timeout 300 -- "$TOP/hardware/guest/host-bench-smoke.sh" "$run/host-bench" || rc=$?
# the command's own exit status (run-guest.sh's is 3 for a splat, checked below)
if [ "$(cat "$run/host-bench/status" 2>/dev/null)" = 0 ]; then
	echo "pass host-bench:run" >>"$host"
else
	tail -n 5 "$run/host-bench/guest.log" 2>/dev/null || true
	echo "fail host-bench:run(run-guest.sh exit $rc, log: $run/host-bench/guest.log)" >>"$host"
fi
"$TOP/hardware/check-host-bench.py" "$run/host-bench/smoke.json" "$run/host-bench/guest.log" >>"$host" || true
if [ -f "$run/host-bench/dmesg.txt" ] && "$TOP/scripts/check-splats.py" "$run/host-bench/dmesg.txt" >/dev/null; then
	echo "pass guest:no-kernel-splats(host-bench boot)" >>"$host"
else
	echo "fail guest:no-kernel-splats(host-bench boot, see $run/host-bench/dmesg.txt)" >>"$host"
fi

step "summary [$(elapsed), logs: $run]"
mkdir -p "$run/guest/selftests"
"$TOP/scripts/summarize-selftests.py" "$run/guest/selftests" "$TOP/config/selftests.deny" \
	--host-results "$host" | tee "$run/summary.txt"
exit "${PIPESTATUS[0]}"
