#!/usr/bin/env bash
# Before any mirror patch (issue 28 part 3, docs/psi-depth.md section 4):
# how many of PSI's group updates would a scheme in which a group whose
# only active contributor on a CPU is one child mirrors that child still
# do, and how often would groups change between mirroring and keeping
# state of their own? Builds config "bench" with
# bench/psi/mirror-census.diff (build/obj/census-bench), boots it
# once with 2 vCPUs, runs the psi benchmark's ping-pong (depth 1, 4, 8, 16)
# and messaging (8 pairs in leaves of a depth 1, 4, 8 tree) and reads
# /proc/psi_census around each (bench/psi/census-guest.sh). The counts are
# events, not time, so no instruction clock is needed. Results in
# build/psi-census/<date>/boot/census.jsonl (the guest writes only under
# its --out directory); prints a table per task change.
#
# With --series it counts the series' own mirror instead (patches 33-36):
# bench/psi/mirror-census-series.diff on the work tree, kernel
# build/obj/census-series-bench, guest side
# bench/psi/census-series-guest.sh, which adds the lone and apart
# ping-pongs and a kubepods-shaped tree under mixed load
# (bench/psi/kubepods.c): how many of the groups each task change walks
# are passed as mirrors, and how often mirroring begins and ends.
#
#   psi-census.sh [--series] [--rounds N] [--no-build]
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

usage() {
	cat <<'EOF'
usage: bench/bin/psi-census.sh [--series] [--rounds N] [--no-build]
How many of PSI's group updates a mirroring scheme would still do: build
config "bench" with bench/psi/mirror-census.diff (build/obj/census-bench),
boot it once, run the psi ping-pong and messaging and print the
/proc/psi_census counts per task change. Results:
build/psi-census/DATE/boot/census.jsonl.
  --series    count the series' own mirror (bench/psi/mirror-census-series.diff,
              build/obj/census-series-bench), with a kubepods-shaped workload
  --rounds N  round trips per workload (default 20000)
  --no-build  boot the census kernel as already built
EOF
}
rounds=20000 build=1 series=
while [ $# -gt 0 ]; do
	case $1 in
	--rounds) rounds=$2; shift 2 ;;
	--no-build) build=; shift ;;
	--series) series=1; shift ;;
	-h|--help) usage; exit 0 ;;
	*) usage_error "unknown argument '$1'" ;;
	esac
done
out=$BUILD/psi-census/$(date +%Y%m%d-%H%M%S)
mkdir -p "$out/bin"
name=census diff=$TOP/bench/psi/mirror-census.diff guest=$TOP/bench/psi/census-guest.sh
progs="pingpong messaging"
if [ -n "$series" ]; then
	name=census-series diff=$TOP/bench/psi/mirror-census-series.diff
	guest=$TOP/bench/psi/census-series-guest.sh progs="pingpong messaging kubepods"
fi
kernel=$BUILD/obj/$name-bench/arch/x86/boot/bzImage
if [ -n "$build" ]; then
	# Start from the series' bench objects when there are any: the diff
	# touches only kernel/sched/psi.c, so the build is then incremental
	if [ ! -d "$BUILD/obj/$name-bench" ] && [ -d "$BUILD/obj/patched-bench" ]; then
		info "seeding build/obj/$name-bench from build/obj/patched-bench"
		cp -a "$BUILD/obj/patched-bench" "$BUILD/obj/$name-bench.tmp" &&
			mv "$BUILD/obj/$name-bench.tmp" "$BUILD/obj/$name-bench"
	fi
	step "building config bench with $(basename "$diff") (build/obj/$name-bench)"
	"$TOP/scripts/build-kernel.sh" --with "$diff" \
		bench "$SRC" "$name" >"$out/build.log" 2>&1 || {
		tail -n 20 "$out/build.log" >&2
		die "building the census kernel failed; log: $out/build.log (does the diff still apply to the series?)"
	}
fi
[ -f "$kernel" ] || die "no $kernel; run without --no-build"
for p in $progs; do
	gcc -O2 -static -Wall -pthread -I "$TOP/bench/include" -o "$out/bin/$p" \
		"$TOP/bench/psi/$p.c" || die "compiling bench/psi/$p.c failed"
done
step "booting the census kernel, ping-pong and messaging ($rounds round trips; log: $out/boot/guest.log)"
"$TOP/scripts/run-guest.sh" --kernel "$kernel" --out "$out/boot" --timeout 1800 -- \
	"$guest" "$out/bin" "$out/boot/census.jsonl" "$rounds" >/dev/null 2>&1 ||
	die "the census boot failed; logs: $out/boot"
"$TOP/scripts/check-splats.py" "$out/boot/dmesg.txt" >/dev/null ||
	die "kernel splat in the census boot; see $out/boot/dmesg.txt"
if [ -n "$series" ]; then
	python3 - "$out/boot/census.jsonl" <<'PY'
import json, sys
print(f"{'workload':16} {'depth':>5} {'changes':>9} {'walked':>7} {'passed':>7} {'share':>6} {'begins':>7} {'ends':>7}   (per task change)")
for line in open(sys.argv[1]):
    r = json.loads(line)
    c = max(r["changes"], 1)
    walked = r["walk_updated"] + r["walk_passed"]
    print(f"{r['workload']:16} {r['depth']:>5} {r['changes']:>9} {walked / c:7.2f} {r['walk_passed'] / c:7.2f} "
          f"{r['walk_passed'] / max(walked, 1):6.1%} {r['begins'] / c:7.3f} {r['ends'] / c:7.3f}")
PY
	info "results: $out/boot/census.jsonl"
	exit 0
fi
python3 - "$out/boot/census.jsonl" <<'PY'
import json, sys
print(f"{'workload':16} {'depth':>5} {'changes':>9} {'updates':>8} {'mirror':>8} {'modes':>8}   (per task change)")
for line in open(sys.argv[1]):
    r = json.loads(line)
    c = max(r["changes"], 1)
    print(f"{r['workload']:10} {r['depth']:>5} {r['changes']:>9} {r['updates'] / c:8.2f} "
          f"{r['updates_mirror'] / c:8.2f} {r['mode_changes'] / c:8.2f}")
PY
info "results: $out/boot/census.jsonl"
